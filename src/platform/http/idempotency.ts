/**
 * Idempotency-Key on admin writes. A client that sends a write again (its answer was lost, it timed
 * out) with the same key gets the first answer back and nothing is written twice; the same key with
 * another request (method, path or body) is a client bug, 422. While the first request still runs, a
 * second one with its key gets 409 and tries again later. Every answer is kept, but one that asks to
 * be tried again (503: a dependency was unavailable, the read models were behind), so that retry runs
 * again; a 503 PROJECTION.FAILED is kept, since it comes after the write. Keys are the caller's own,
 * kept a day.
 *
 * Only the administrators' JSON writes take part, and only as routed: a request that is none of the
 * documented operations that take a key (`takesIdempotencyKey`: a read, a multipart upload, whose file
 * is not read before its route, a path or method the API does not have) passes untouched, so its
 * 404 or 405 is neither kept nor replayed, and its key stays free for the request it was meant for.
 */
import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Pool } from '../db';
import { AppError } from '../errors';
import { stableJson } from '../content-hash';
import { takesIdempotencyKey, type RouteDoc } from './openapi';
import { operationsOf } from './operations';

const HEADER = 'idempotency-key';

export interface IdempotencyDeps {
  pool: Pool;
  /** identifies the caller (it leaves the route's guard nothing to redo); a caller it cannot identify goes on to that guard */
  authenticate: RequestHandler;
  userOf(res: Response): string;
  /** the operations of the router it stands in front of (their RouteDocs) */
  operations: readonly RouteDoc[];
}

export function idempotency(deps: IdempotencyDeps): RequestHandler {
  const takingKey = operationsOf(deps.operations.filter(takesIdempotencyKey));
  return (req, res, next) => {
    const key = req.headers[HEADER];
    if (key === undefined || takingKey(req.method, req.path).length === 0 || req.is('multipart/form-data')) return next();
    if (typeof key !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(key)) {
      return next(AppError.badRequest('IDEMPOTENCY.BAD_KEY', 'Idempotency-Key must be 1 to 200 visible ASCII characters'));
    }
    deps.authenticate(req, res, (unauthenticated?: unknown) => {
      if (unauthenticated) return next(); // the route's guard answers
      replayOrRecord(deps, deps.userOf(res), key, req, res).then((answered) => answered || next(), next);
    });
  };
}

async function replayOrRecord(deps: IdempotencyDeps, user: string, key: string, req: Parameters<RequestHandler>[0], res: Response): Promise<boolean> {
  const hash = createHash('sha256')
    .update(`${req.method} ${req.originalUrl}\n${stableJson(req.body ?? null)}`)
    .digest('base64url');
  // A key kept longer than a day starts afresh.
  const claimed = await deps.pool.query(
    `INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL, content_type = NULL, body = NULL, created_at = now()
       WHERE idempotency_keys.created_at < now() - interval '1 day'`,
    [user, key, hash],
  );
  if (claimed.rowCount === 0) {
    const seen = (
      await deps.pool.query<{ request_hash: string; status: number | null; content_type: string | null; body: Buffer | null }>(
        `SELECT request_hash, status, content_type, body FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
        [user, key],
      )
    ).rows[0];
    if (seen && seen.request_hash !== hash) throw new AppError('IDEMPOTENCY.KEY_REUSED', 422, 'this Idempotency-Key was used for another request');
    if (!seen || seen.status === null) throw AppError.conflict('IDEMPOTENCY.IN_PROGRESS', 'a request with this Idempotency-Key is being answered; try again shortly');
    res.setHeader('Idempotent-Replayed', 'true');
    if (seen.content_type) res.setHeader('Content-Type', seen.content_type);
    res.status(seen.status).end(seen.body ?? undefined);
    return true;
  }
  // The first request with this key: keep its answer before it goes out, so a retry right after it finds it.
  const chunks: Buffer[] = [];
  const toBuffer = (chunk: unknown) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (chunk) chunks.push(toBuffer(chunk));
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk && typeof chunk !== 'function') chunks.push(toBuffer(chunk));
    const body = Buffer.concat(chunks);
    const tryAgain = res.statusCode === 503 && !body.includes('"PROJECTION.FAILED"');
    const kept = !tryAgain
      ? deps.pool.query(`UPDATE idempotency_keys SET status = $3, content_type = $4, body = $5 WHERE user_id = $1 AND key = $2`, [
          user,
          key,
          res.statusCode,
          res.getHeader('content-type') ?? null,
          body,
        ])
      : deps.pool.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2`, [user, key]);
    const finish = () => end(chunk, ...rest);
    kept.then(finish, finish);
    return res;
  }) as Response['end'];
  if (Math.random() < 0.01) void deps.pool.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '1 day'`).catch(() => undefined);
  return false;
}
