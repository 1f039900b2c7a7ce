/**
 * The HTTP listener, with the connection timeouts of docs/deployment.md (Keep-alive and timeouts).
 *
 * Whoever keeps connections to the service open between requests (the proxy in front of it, a load
 * balancer, a client's pool) must be the one to close an idle connection, never the service: when
 * the service closes one at the very moment the other side sends the next request on it, that request
 * fails with a reset (ECONNRESET, "other side closed"). Node's default keeps an idle connection 5 s
 * (plus a second of grace), and clients such as undici's fetch drop theirs 2 s before the server's
 * announced `Keep-Alive: timeout`: a margin a loaded machine's pauses exceed, since both clocks start
 * at different moments. So the service keeps idle connections longer than the usual proxies' idle
 * timeout (nginx's upstream `keepalive_timeout` and most load balancers: 60 s), and waits for a
 * request's headers longer still.
 */
import http from 'node:http';

export interface HttpTimeouts {
  /** how long an idle keep-alive connection is kept, announced as `Keep-Alive: timeout=` */
  keepAliveTimeoutMs: number;
  /** how long a request's headers may take to arrive; above `keepAliveTimeoutMs` */
  headersTimeoutMs: number;
}

export function createHttpServer(listener: http.RequestListener, timeouts: HttpTimeouts): http.Server {
  const server = http.createServer(listener);
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  server.headersTimeout = timeouts.headersTimeoutMs;
  return server;
}
