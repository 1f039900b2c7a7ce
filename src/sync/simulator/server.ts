/**
 * The simulated supplier over HTTP, speaking exactly docs/supplier.md, with the faults real
 * suppliers have (latency, 429, 5xx, truncated JSON, malformed items, listings that change while
 * paged). Faults live in a plain mutable object, so a test or the CLI can change them while it runs.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { LinkPatch, SimulatorCatalog } from './catalog';
import { PICTURES_PATH, picturesRoutes } from './pictures';

export const MAX_LIMIT = 500;
const DEFAULT_LIMIT = 100;
/** What a rate-limited answer asks the client to wait, in seconds. */
const RETRY_AFTER_SECONDS = 1;

export interface Faults {
  /** Delay before every answer. */
  latencyMs: number;
  /** Every Nth request (counting all requests) gets 429 with `Retry-After: 1`; 0 turns it off. */
  rateLimitEvery: number;
  /** The page with this index (first page 0) answers `status`, `times` more times. */
  failPage: { cursorIndex: number; status: number; times: number } | null;
  /** Every Nth request gets a 200 whose JSON body is cut in half; 0 turns it off. */
  truncateEvery: number;
  /** Once the page with index `page` is served, the link is removed (one-shot). */
  removeLinkAfterPage: { page: number; linkId: string } | null;
  /** Once the page with index `page` is served, the link is changed (one-shot). */
  changeLinkAfterPage: { page: number; linkId: string; patch: LinkPatch } | null;
  /** These links are listed with a numeric `price`, as a careless supplier export would. */
  malformedLinkIds: string[];
  /** These details are served without their `variants`. */
  malformedDetailIds: string[];
}

export function noFaults(): Faults {
  return {
    latencyMs: 0,
    rateLimitEvery: 0,
    failPage: null,
    truncateEvery: 0,
    removeLinkAfterPage: null,
    changeLinkAfterPage: null,
    malformedLinkIds: [],
    malformedDetailIds: [],
  };
}

/** Counters for assertions: requests received, and how many were being answered at once. */
export interface SimulatorStats {
  requests: number;
  inFlight: number;
  maxInFlight: number;
}

export interface SimulatorServerOptions {
  catalog: SimulatorCatalog;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  faults?: Partial<Faults>;
}

export interface RunningSimulator {
  url: string;
  catalog: SimulatorCatalog;
  faults: Faults;
  stats: SimulatorStats;
  resetStats(): void;
  close(): Promise<void>;
}

export interface SimulatorServer {
  app: express.Express;
  catalog: SimulatorCatalog;
  faults: Faults;
  stats: SimulatorStats;
  /** Listens on `port` and `host`, or answers on `server`, already listening there. */
  start(listen?: { port?: number; host?: string; server?: Server }): Promise<RunningSimulator>;
}

/** Opaque to clients: page index (for `failPage` and the after-page faults) and keyset of the next page. */
function encodeCursor(page: number, lastId: string): string {
  return Buffer.from(`${page}.${lastId}`).toString('base64url');
}

function decodeCursor(cursor: string): { page: number; lastId: string } | null {
  const m = /^(\d+)\.(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  return m ? { page: Number(m[1]), lastId: m[2]! } : null;
}

/** Waits `ms`; resolves false at once if the client goes away meanwhile, so no timer outlives it. */
function pause(res: Response, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

export function createSimulatorServer(opts: SimulatorServerOptions): SimulatorServer {
  const { catalog } = opts;
  const faults: Faults = { ...noFaults(), ...opts.faults };
  const stats: SimulatorStats = { requests: 0, inFlight: 0, maxInFlight: 0 };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Before the counters, the token and the faults: browsers load these, and they are no part of the supplier's API.
  app.use(PICTURES_PATH, picturesRoutes());

  const sendJson = (res: Response, status: number, body: unknown): void => {
    let json = JSON.stringify(body);
    if (status === 200 && res.locals.truncate === true) json = json.slice(0, Math.floor(json.length / 2));
    res.status(status).type('application/json').send(json);
  };

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const n = ++stats.requests;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    res.once('close', () => stats.inFlight--);
    res.locals.truncate = faults.truncateEvery > 0 && n % faults.truncateEvery === 0;

    if (faults.latencyMs > 0 && !(await pause(res, faults.latencyMs))) return;
    if (opts.token !== undefined && req.get('authorization') !== `Bearer ${opts.token}`) {
      sendJson(res, 401, { error: 'missing or wrong bearer token' });
      return;
    }
    if (faults.rateLimitEvery > 0 && n % faults.rateLimitEvery === 0) {
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendJson(res, 429, { error: 'too many requests' });
      return;
    }
    next();
  });

  app.get('/categories', (_req, res) => sendJson(res, 200, { items: catalog.categories() }));
  app.get('/countries', (_req, res) => sendJson(res, 200, { items: catalog.countries() }));

  app.get('/goods', (req, res) => {
    const { cursor, limit: rawLimit } = req.query;
    if (rawLimit !== undefined && (typeof rawLimit !== 'string' || !/^\d+$/.test(rawLimit))) {
      sendJson(res, 400, { error: 'limit must be a positive integer' });
      return;
    }
    const limit = rawLimit === undefined ? DEFAULT_LIMIT : Number(rawLimit);
    if (limit < 1 || limit > MAX_LIMIT) {
      sendJson(res, 400, { error: `limit must be from 1 to ${MAX_LIMIT}` });
      return;
    }
    let position: { page: number; lastId: string | null } = { page: 0, lastId: null };
    if (cursor !== undefined) {
      const decoded = typeof cursor === 'string' ? decodeCursor(cursor) : null;
      if (!decoded) {
        sendJson(res, 400, { error: 'invalid cursor' });
        return;
      }
      position = decoded;
    }

    const fail = faults.failPage;
    if (fail && fail.cursorIndex === position.page && fail.times > 0) {
      fail.times--;
      sendJson(res, fail.status, { error: 'simulated failure' });
      return;
    }

    const { items, lastId, more } = catalog.linksAfter(position.lastId, limit);
    const served: unknown[] = items.map((link) => (faults.malformedLinkIds.includes(link.id) ? { ...link, price: Number(link.price) } : link));
    const nextCursor = more && lastId !== null ? encodeCursor(position.page + 1, lastId) : null;

    const removal = faults.removeLinkAfterPage;
    if (removal && removal.page === position.page) {
      faults.removeLinkAfterPage = null;
      catalog.removeLink(removal.linkId);
    }
    const change = faults.changeLinkAfterPage;
    if (change && change.page === position.page) {
      faults.changeLinkAfterPage = null;
      catalog.changeLink(change.linkId, change.patch);
    }
    sendJson(res, 200, { items: served, nextCursor });
  });

  app.get('/goods/:id/detail', (req, res) => {
    const id = req.params.id;
    const detail = /^\d{1,19}$/.test(id) ? catalog.detail(id) : null;
    if (!detail) {
      sendJson(res, 404, { error: `no link ${id}` });
      return;
    }
    if (faults.malformedDetailIds.includes(id)) {
      const { variants: _dropped, ...partial } = detail;
      sendJson(res, 200, partial);
      return;
    }
    sendJson(res, 200, detail);
  });

  app.use((_req: Request, res: Response) => sendJson(res, 404, { error: 'no such endpoint' }));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) });
  });

  const start = async (listen: { port?: number; host?: string; server?: Server } = {}): Promise<RunningSimulator> => {
    const host = listen.host ?? '127.0.0.1';
    let server: Server;
    if (listen.server) {
      server = listen.server;
      server.on('request', app);
    } else {
      server = createServer(app);
      server.listen(listen.port ?? 0, host);
      await once(server, 'listening');
    }
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      catalog,
      faults,
      stats,
      resetStats: () => Object.assign(stats, { requests: 0, inFlight: stats.inFlight, maxInFlight: stats.inFlight }),
      close: async () => {
        const closed = once(server, 'close');
        server.close();
        // Keep-alive and delayed requests would otherwise hold the server open.
        server.closeAllConnections();
        await closed;
      },
    };
  };

  return { app, catalog, faults, stats, start };
}
