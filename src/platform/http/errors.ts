/**
 * The one place errors become HTTP answers: `{"error": {"code", "message", "details?"}}`.
 * A 500 says nothing about internals; the log has the detail, keyed by the request id.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError, z } from 'zod';
import { resourceOf } from '../commands';
import { AppError, isTransientDbError, type ErrorCode } from '../errors';
import type { Logger } from '../log';

export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** Body-parser, multer and friends signal client faults with `status`/`type`; they are 4xx, not 500. */
function clientFault(err: { type?: string; status?: number; statusCode?: number; message?: string }): AppError | null {
  if (err.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 413, 'request body too large');
  if (err.type === 'entity.parse.failed') return new AppError('MALFORMED_JSON', 400, 'request body is not valid JSON');
  if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') return new AppError('UNSUPPORTED_ENCODING', 415, err.message ?? 'unsupported encoding');
  const status = err.status ?? err.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new AppError('BAD_REQUEST', status, err.message ?? 'bad request');
  return null;
}

export function zodDetails(e: ZodError) {
  return e.issues.map((i) => ({ path: i.path.join('.'), message: i.message, code: i.code }));
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let e: AppError;
    if (err instanceof AppError) e = err.code === 'EVENT_STORE.WRONG_REVISION' ? staleAnswer(err) : err;
    else if (err instanceof ZodError) e = AppError.badRequest('VALIDATION_FAILED', 'request is invalid', zodDetails(err));
    else if (isTransientDbError(err)) e = AppError.unavailable('DEPENDENCY_UNAVAILABLE', 'a dependency is unavailable; try again shortly');
    else e = clientFault(err ?? {}) ?? new AppError('INTERNAL', 500, 'internal error');
    const reqLog = (req as { log?: Logger }).log ?? log;
    if (e.status >= 500) reqLog.error({ err }, 'request failed');
    if (e.status === 503) res.setHeader('Retry-After', '5');
    if (res.headersSent) return;
    // A 500 is a defect whatever raised it (an event that does not match its schema, …): its code and
    // detail stay in the log, the client gets INTERNAL (docs/api.md, Errors). Other 5xx keep their
    // code (a dependency unavailable, the supplier's answer), without internal details.
    if (e.status === 500) res.status(500).json(errorBody('INTERNAL', 'internal error'));
    else res.status(e.status).json(errorBody(e.code, e.message, e.status > 500 && e.status !== 503 ? undefined : e.details));
  };
}

/** A conflict raised by the store names its stream; the client is told the resource instead. */
function staleAnswer(err: AppError): AppError {
  const d = err.details as { streamId?: unknown; expected?: unknown; actual?: unknown } | undefined;
  if (!d || typeof d.streamId !== 'string') return err;
  const resource = resourceOf(d.streamId);
  return AppError.conflict(err.code, `${resource} changed meanwhile (revision ${String(d.actual)})`, { resource, expected: d.expected, actual: d.actual });
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(errorBody('NOT_FOUND', `no route for ${req.method} ${req.path}`));
};

/** Parses with a zod schema; a failure is a 400 listing the issues. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = 'request'): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw AppError.badRequest('VALIDATION_FAILED', `${what} is invalid`, zodDetails(r.error));
  return r.data;
}
