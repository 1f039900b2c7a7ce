/**
 * Idle connections (docs/deployment.md, Keep-alive and timeouts): the side that keeps connections to
 * the service (a proxy, a load balancer, a client's pool) is the one that closes an idle one, so the
 * service never closes a connection at the moment the other side reuses it. With Node's defaults
 * (5 s, plus a second's grace) it did, and a loaded machine's requests failed with ECONNRESET.
 */
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { startTestService, type TestService } from '../../support/service';

/** One GET through `agent`: its status, the Keep-Alive header, and whether it went over a kept socket. */
function get(url: string, agent: http.Agent): Promise<{ status: number; keepAlive: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, keepAlive: res.headers['keep-alive'] as string | undefined, reused: req.reusedSocket }));
    });
    req.on('error', reject);
  });
}

describe('keep-alive connections', () => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it('keeps an idle connection past the old default, for a client that keeps its connections', async () => {
    svc = await startTestService({ workers: false, login: false });
    // A client that keeps its connections as long as the service announces (Node's agent keeps
    // them to a second before the announced timeout).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(`${svc.url}/healthz`, agent);
      expect(first).toEqual({ status: 200, keepAlive: 'timeout=65', reused: false });
      // Idle longer than Node's default keep-alive (5 s) and its grace second: the service closed
      // the connection by then, and the next request went over a new one (or, sent just as the
      // service closed it, failed with a reset).
      await new Promise((r) => setTimeout(r, 7_000));
      expect(await get(`${svc.url}/healthz`, agent)).toEqual({ status: 200, keepAlive: 'timeout=65', reused: true });
    } finally {
      agent.destroy();
    }
  }, 30_000);

  it('closes an idle connection itself after HTTP_KEEP_ALIVE_TIMEOUT_MS, and announces it', async () => {
    svc = await startTestService({ workers: false, login: false, env: { HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '2000' } });
    const { port } = new URL(svc.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const ended = once(socket, 'end');
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    // The client stays silent: the service, not the client, ends the idle connection.
    await ended;
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
  }, 30_000);
});
