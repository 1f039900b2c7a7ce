/**
 * GET over node:http(s) with keep-alive connections, for the supplier client. Not `fetch`: a details
 * pass makes one request per link (100 000 at a wholesaler's size), and fetch's per-request machinery
 * (streams, abort signals, header objects) cost twice the CPU of a plain request on the same socket,
 * CPU the sync shares with the database and the projections on a small machine.
 */
import http from 'node:http';
import https from 'node:https';

export interface TextResponse {
  status: number;
  /** a header's value, lower-case name */
  header(name: string): string | undefined;
  text: string;
}

/** Raised when the whole exchange (headers and body) outlasts its timeout. */
export class TransportTimeout extends Error {
  constructor(ms: number) {
    super(`timeout after ${ms} ms`);
  }
}

/** An idle connection is closed after this long, so none outlives a sync by much (nor holds a process up). */
const IDLE_MS = 2_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_MS }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_MS }),
};

/**
 * One GET. The timer covers the body too: a server that sends headers and then stalls is a timeout.
 * Network failures reject with the socket's error (its `code`, e.g. ECONNREFUSED, names the cause).
 */
export function getText(url: string, headers: Record<string, string>, timeoutMs: number): Promise<TextResponse> {
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  const agent = agents[target.protocol as keyof typeof agents];
  if (!agent) return Promise.reject(new Error(`unsupported protocol ${target.protocol}`));
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = lib.request(target, { method: 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done(() =>
          resolve({
            status: res.statusCode ?? 0,
            header: (name) => {
              const v = res.headers[name];
              return Array.isArray(v) ? v.join(', ') : v;
            },
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        ),
      );
      // A connection cut mid-body: an error, or a close without `end`.
      res.on('error', (e) => done(() => reject(e)));
      res.on('close', () => {
        if (!res.complete) done(() => reject(Object.assign(new Error('connection closed before the body ended'), { code: 'ECONNRESET' })));
      });
    });
    const timer = setTimeout(() => {
      done(() => reject(new TransportTimeout(timeoutMs)));
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => done(() => reject(e)));
    req.end();
  });
}
