/**
 * The messages between a serving process's main thread and its jobs thread (./client.ts and
 * ../jobs-thread.ts). Structured-clone data only: errors travel as their code, status, message and
 * details, and are AppErrors again on the other side, so the HTTP answer is the same as in process.
 */
import type { Config } from '../config';
import { AppError, type ErrorCode } from '../platform/errors';

export interface ThreadStart {
  config: Config;
  databaseUrl: string;
  /** also run the worker role here: the projections, the schedules, the demo seeding */
  worker: boolean;
  /** seed the demo catalog (no UPSTREAM_URL: the main thread's simulator serves it) */
  seedDemo: boolean;
}

export type Call =
  | { kind: 'call'; id: number; op: 'organise'; by: string; groupOnly: boolean }
  | { kind: 'call'; id: number; op: 'startSync'; syncKind: string; params: unknown }
  | { kind: 'call'; id: number; op: 'batchCreateGoods'; body: unknown; actor: unknown }
  | { kind: 'call'; id: number; op: 'metrics' }
  | { kind: 'close' };

export interface WireError {
  /** a registered code (src/platform/error-codes.ts): both ends are this service */
  code: ErrorCode;
  status: number;
  message: string;
  details?: unknown;
  /** not an AppError: its stack, for the log */
  stack?: string;
}

export type Reply =
  | { kind: 'ready' }
  | { kind: 'failed'; error: WireError }
  | { kind: 'result'; id: number; ok: true; value: unknown }
  | { kind: 'result'; id: number; ok: false; error: WireError }
  /** organisation wrote its run's record (the caller's onRun) */
  | { kind: 'run'; id: number; runId: string }
  /** a synchronisation started by call `id` has finished */
  | { kind: 'finished'; id: number; ok: true; value: unknown }
  | { kind: 'finished'; id: number; ok: false; error: WireError }
  | { kind: 'closed' };

export function toWire(e: unknown): WireError {
  if (e instanceof AppError) return { code: e.code, status: e.status, message: e.message, ...(e.details !== undefined ? { details: e.details } : {}) };
  const err = e instanceof Error ? e : new Error(String(e));
  return { code: 'INTERNAL', status: 500, message: err.message, ...(err.stack ? { stack: err.stack } : {}) };
}

export function fromWire(w: WireError): Error {
  if (w.code === 'INTERNAL' && w.status === 500) {
    const e = new Error(w.message);
    if (w.stack) e.stack = w.stack;
    return e;
  }
  return new AppError(w.code, w.status, w.message, w.details);
}
