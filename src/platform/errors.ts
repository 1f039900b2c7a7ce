import type { ErrorCode } from './error-codes';

export type { ErrorCode } from './error-codes';

/**
 * The one error type. Domain and platform code throw `AppError`; one HTTP middleware answers it.
 * Codes are stable strings (`FAMILY.NOT_FOUND`) because `instanceof` does not cross a process; each
 * is registered, with its status and meaning, in ./error-codes.ts (a code not there does not compile).
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest(code: ErrorCode, message: string, details?: unknown): AppError {
    return new AppError(code, 400, message, details);
  }
  static notFound(code: ErrorCode, message: string): AppError {
    return new AppError(code, 404, message);
  }
  static conflict(code: ErrorCode, message: string, details?: unknown): AppError {
    return new AppError(code, 409, message, details);
  }
  static unavailable(code: ErrorCode, message: string): AppError {
    return new AppError(code, 503, message);
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/**
 * 400 `UNKNOWN_REFERENCE`: the request's `field` names ids of `what` that exist nowhere (or no longer).
 * One answer for every reference a request makes (docs/http-contract.md, References); a 404 is only
 * for the resource the path names.
 */
export function unknownReference(field: string, missing: readonly string[], what: string): AppError {
  return AppError.badRequest('UNKNOWN_REFERENCE', `${field} names no existing ${what}: ${missing.slice(0, 10).join(', ')}`, { field, missing: [...missing] });
}

const sqlState = (e: unknown) => {
  const code = e && typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
};

/** The connection is gone (PostgreSQL's or the network's fault): reconnect, then try again. */
export function isConnectionError(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const code = sqlState(e);
  if (/^08/.test(code)) return true; // connection exception class
  if (['57P01', '57P02', '57P03'].includes(code)) return true; // admin shutdown, crash shutdown, cannot connect now
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
  const msg = (e as { message?: unknown }).message;
  return typeof msg === 'string' && /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed|Connection closed/i.test(msg);
}

/**
 * Failures that trying again later can cure, as opposed to a bug or bad data: a lost connection, a
 * cancelled or timed-out statement (57014), a lock not available (55P03), a serialization failure or
 * deadlock (40001, 40P01), insufficient resources (53xxx: disk full, out of memory, too many
 * connections). A dependency is unavailable, not broken.
 */
export function isTransientDbError(e: unknown): boolean {
  const code = sqlState(e);
  return isConnectionError(e) || ['57014', '55P03', '40001', '40P01'].includes(code) || /^53/.test(code);
}
