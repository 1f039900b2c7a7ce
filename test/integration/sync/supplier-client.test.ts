/**
 * The supplier client against the simulator over real HTTP on 127.0.0.1, each fault produced by the
 * simulator (or, for answers the simulator never gives, by a bare node:http server).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../../src/platform/errors';
import { noFaults, startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { SupplierClient, type SupplierClientOptions } from '../../../src/sync/supplier/client';
import type { Link } from '../../../src/sync/supplier/schemas';

/** Records the waits the client asks for and returns at once, so no test waits for real backoff. */
function recordingSleep() {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number): Promise<void> => void sleeps.push(ms) };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected the promise to reject');
}

async function pageAll(client: SupplierClient, limit: number): Promise<{ links: Link[]; pages: number }> {
  const links: Link[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await client.goodsPage(cursor, limit);
    links.push(...page.items);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== null);
  return { links, pages };
}

/** A bare HTTP server answering requests in turn from `answers`, for responses the simulator never gives. */
async function scriptedServer(answers: ((res: ServerResponse) => void)[]): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)]!;
    answer(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('SupplierClient against the simulator', () => {
  let sim: RunningSimulator;
  let sleeps: number[];
  const client = (opts: Partial<SupplierClientOptions> = {}): SupplierClient => {
    const recorder = recordingSleep();
    sleeps = recorder.sleeps;
    return new SupplierClient({ baseUrl: sim.url, sleep: recorder.sleep, ...opts });
  };

  beforeAll(async () => {
    sim = await startSimulator({ links: 1234, seed: 11 });
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => {
    Object.assign(sim.faults, noFaults());
    sim.resetStats();
  });

  it('pages through the whole listing and reads categories and countries', async () => {
    const c = client();
    const { links, pages } = await pageAll(c, 100);
    expect(pages).toBe(13);
    expect(links).toEqual(sim.catalog.links());
    expect(await c.categories()).toEqual({ items: sim.catalog.categories(), invalid: [] });
    expect(await c.countries()).toEqual({ items: sim.catalog.countries(), invalid: [] });
    expect(sleeps).toEqual([]);
  });

  it('retries 429 after the Retry-After the supplier asked for', async () => {
    sim.faults.rateLimitEvery = 3;
    const { links } = await pageAll(client(), 200);
    expect(links).toEqual(sim.catalog.links());
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.every((ms) => ms === 1000)).toBe(true);
  });

  it('retries a page that fails with 500 until it succeeds', async () => {
    sim.faults.failPage = { cursorIndex: 1, status: 500, times: 2 };
    const { links } = await pageAll(client(), 500);
    expect(links).toEqual(sim.catalog.links());
    expect(sleeps).toHaveLength(2);
    expect(sim.stats.requests).toBe(3 + 2); // three pages, page 1 twice more
  });

  it('gives up with UPSTREAM.UNAVAILABLE (503) once the retries are spent', async () => {
    sim.faults.failPage = { cursorIndex: 0, status: 503, times: 99 };
    const error = await rejection(client({ maxRetries: 2 }).goodsPage(null, 100));
    expect(error).toMatchObject({ code: 'UPSTREAM.UNAVAILABLE', status: 503, details: { attempts: 3, last: 'HTTP 503' } });
    expect(sim.stats.requests).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('retries a truncated JSON body as a transport fault', async () => {
    sim.faults.truncateEvery = 2;
    const c = client();
    await c.categories(); // request 1: whole
    const countries = await c.countries(); // request 2: truncated, request 3: whole
    expect(countries.items).toEqual(sim.catalog.countries());
    expect(sim.stats.requests).toBe(3);
    expect(sleeps).toHaveLength(1);
  });

  it('fails with UPSTREAM.MALFORMED (502) when the JSON keeps coming truncated', async () => {
    sim.faults.truncateEvery = 1;
    const error = await rejection(client({ maxRetries: 4 }).goodsPage(null, 50));
    expect(error).toMatchObject({ code: 'UPSTREAM.MALFORMED', status: 502 });
    // Two retries only: a supplier that keeps sending broken JSON is broken, not busy.
    expect(sim.stats.requests).toBe(3);
  });

  it('skips a malformed item and reports it, keeping the rest of the page', async () => {
    sim.faults.malformedLinkIds = ['100003'];
    const page = await client().goodsPage(null, 10);
    expect(page.items.map((l) => l.id)).toEqual(['100001', '100002', '100004', '100005', '100006', '100007', '100008', '100009', '100010']);
    expect(page.invalid).toEqual([{ index: 2, id: '100003', issues: [expect.stringMatching(/^price: /)] }]);
    expect(page.nextCursor).not.toBeNull();
  });

  it('answers null for the detail of a link the supplier no longer has', async () => {
    const c = client();
    expect(await c.detail('999999')).toBeNull();
    expect((await c.detail('100001'))?.id).toBe('100001');
    expect(sleeps).toEqual([]);
  });

  it('fails a malformed detail with UPSTREAM.MALFORMED (502) without retrying it', async () => {
    sim.faults.malformedDetailIds = ['100002'];
    const error = await rejection(client().detail('100002'));
    expect(error).toMatchObject({ code: 'UPSTREAM.MALFORMED', status: 502 });
    expect(sim.stats.requests).toBe(1);
  });

  it('runs at most `concurrency` detail requests at once', async () => {
    sim.faults.latencyMs = 100; // long enough for the requests of one round to overlap
    const ids = sim.catalog
      .links()
      .slice(0, 24)
      .map((l) => l.id);
    const seen: string[] = [];
    const report = await client({ concurrency: 4 }).details(ids, (id, detail) => {
      expect(detail?.id).toBe(id);
      seen.push(id);
    });
    expect(sim.stats.maxInFlight).toBe(4);
    expect([...seen].sort()).toEqual(ids);
    expect(report).toEqual({ fetched: 24, gone: [], failed: [] });
  });

  it('reports gone and malformed details and goes on with the others', async () => {
    sim.faults.malformedDetailIds = ['100004'];
    const seen = new Map<string, boolean>();
    const report = await client({ concurrency: 2 }).details(['100001', '999999', '100004', '100005'], (id, detail) => {
      seen.set(id, detail !== null);
    });
    expect(report.fetched).toBe(2);
    expect(report.gone).toEqual(['999999']);
    expect(report.failed).toEqual([{ id: '100004', error: expect.objectContaining({ code: 'UPSTREAM.MALFORMED' }) }]);
    expect(Object.fromEntries(seen)).toEqual({ '100001': true, '999999': false, '100005': true });
  });

  it('stops the detail run when onEach throws, and throws that error', async () => {
    const ids = sim.catalog
      .links()
      .slice(0, 50)
      .map((l) => l.id);
    let calls = 0;
    const failure = new Error('database down');
    await expect(
      client({ concurrency: 2 }).details(ids, () => {
        calls++;
        if (calls === 3) throw failure;
      }),
    ).rejects.toBe(failure);
    // The other worker's request in flight may finish, but no new ones start.
    expect(sim.stats.requests).toBeLessThanOrEqual(4);
  });

  it('times out a stalled request and retries it', async () => {
    sim.faults.latencyMs = 60_000;
    const error = await rejection(client({ timeoutMs: 50, maxRetries: 1 }).categories());
    expect(error).toMatchObject({ code: 'UPSTREAM.UNAVAILABLE', status: 503, details: { attempts: 2, last: expect.stringMatching(/timeout/) } });
    expect(sim.stats.requests).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it('keeps paging correctly when a link is removed or changed between pages', async () => {
    const removed = '100150'; // on the second page of 100
    const changed = '100250'; // on the third page
    sim.faults.removeLinkAfterPage = { page: 0, linkId: removed };
    sim.faults.changeLinkAfterPage = { page: 1, linkId: changed, patch: { price: '99.00' } };
    const before = sim.catalog.links();
    const { links } = await pageAll(client(), 100);
    expect(links.map((l) => l.id)).toEqual(before.map((l) => l.id).filter((id) => id !== removed));
    expect(links.find((l) => l.id === changed)!.price).toBe('99.00');
    sim.catalog.relistLink(removed);
  });

  it('refuses a page limit the contract does not allow, as the simulator does', async () => {
    await expect(client().goodsPage(null, 501)).rejects.toMatchObject({ code: 'UPSTREAM.PAGE_LIMIT', status: 400 });
    expect(sim.stats.requests).toBe(0);
    const res = await fetch(`${sim.url}/goods?limit=501`);
    expect(res.status).toBe(400);
  });
});

describe('SupplierClient authentication', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ links: 20, seed: 5, token: 's3cret' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('sends the bearer token', async () => {
    const { items } = await new SupplierClient({ baseUrl: sim.url, token: 's3cret' }).countries();
    expect(items).toHaveLength(sim.catalog.countries().length);
  });

  it('does not retry a rejection: UPSTREAM.REJECTED (502)', async () => {
    sim.resetStats();
    const error = await rejection(new SupplierClient({ baseUrl: sim.url, token: 'wrong', sleep: async () => undefined }).countries());
    expect(error).toMatchObject({ code: 'UPSTREAM.REJECTED', status: 502, details: { status: 401 } });
    expect(sim.stats.requests).toBe(1);
  });
});

describe('SupplierClient against answers the simulator never gives', () => {
  it('honours Retry-After as an HTTP date and caps a long one at 30 s', async () => {
    const server = await scriptedServer([
      (res) => res.writeHead(503, { 'retry-after': new Date(Date.now() + 3000).toUTCString() }).end(),
      (res) => res.writeHead(429, { 'retry-after': '3600' }).end(),
      (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'),
    ]);
    try {
      const { sleeps, sleep } = recordingSleep();
      expect(await new SupplierClient({ baseUrl: server.url, sleep }).countries()).toEqual({ items: [], invalid: [] });
      expect(sleeps).toHaveLength(2);
      // An HTTP date has whole seconds, so the wait is a little under three seconds.
      expect(sleeps[0]).toBeGreaterThan(1000);
      expect(sleeps[0]).toBeLessThanOrEqual(3000);
      expect(sleeps[1]).toBe(30_000);
    } finally {
      await server.close();
    }
  });

  it('fails a page with the wrong envelope at once with UPSTREAM.MALFORMED (502)', async () => {
    const server = await scriptedServer([(res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"next":null}')]);
    try {
      const error = await rejection(new SupplierClient({ baseUrl: server.url }).goodsPage(null, 10));
      expect(error).toMatchObject({ code: 'UPSTREAM.MALFORMED', status: 502 });
      expect(server.requests).toEqual(['/goods?limit=10']);
    } finally {
      await server.close();
    }
  });

  it('treats a missing nextCursor as a malformed page, not as the last page', async () => {
    const server = await scriptedServer([(res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}')]);
    try {
      await expect(new SupplierClient({ baseUrl: server.url }).goodsPage(null, 10)).rejects.toMatchObject({ code: 'UPSTREAM.MALFORMED' });
    } finally {
      await server.close();
    }
  });

  it('retries network errors and then reports the supplier unavailable', async () => {
    const server = await scriptedServer([(res) => res.end()]);
    const url = server.url;
    await server.close(); // nothing listens on the port any more
    const { sleeps, sleep } = recordingSleep();
    const error = await rejection(new SupplierClient({ baseUrl: url, maxRetries: 2, sleep }).categories());
    expect(error).toMatchObject({ code: 'UPSTREAM.UNAVAILABLE', status: 503, details: { attempts: 3, last: expect.stringMatching(/ECONNREFUSED/) } });
    // Exponential backoff with jitter: each wait within [ceiling / 2, ceiling], the ceiling doubling.
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(125);
    expect(sleeps[0]).toBeLessThanOrEqual(250);
    expect(sleeps[1]).toBeGreaterThanOrEqual(250);
    expect(sleeps[1]).toBeLessThanOrEqual(500);
  });
});
