/**
 * The one error type. Domain and platform code throw `AppError`; one HTTP middleware answers it.
 * Codes are stable strings (`FAMILY.LOCKED`) because `instanceof` does not cross a process.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest(code: string, message: string, details?: unknown): AppError {
    return new AppError(code, 400, message, details);
  }
  static notFound(code: string, message: string): AppError {
    return new AppError(code, 404, message);
  }
  static conflict(code: string, message: string, details?: unknown): AppError {
    return new AppError(code, 409, message, details);
  }
  static unavailable(code: string, message: string): AppError {
    return new AppError(code, 503, message);
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** Connection-level failures of PostgreSQL or the network: a dependency is down, not a bug. */
export function isTransientDbError(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: unknown; message?: unknown };
  const code = typeof err.code === 'string' ? err.code : '';
  if (/^08/.test(code)) return true; // connection exception class
  if (['57P01', '57P02', '57P03', '53300', '40001', '40P01'].includes(code)) return true; // shutdown, too many connections, serialization, deadlock
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
  const msg = typeof err.message === 'string' ? err.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed/i.test(msg);
}
