/**
 * A background step run again while it is refused with a 503: the read models it checks against are
 * behind on a busy machine, a lock is held, the database is briefly unavailable. A person would try
 * again in a moment; a background job (the start-up demo, src/sync/demo.ts) that gave up instead
 * would leave its work undone until the next start. Any other error ends it at once.
 */
import { isAppError } from './errors';
import type { Logger } from './log';

/** The waits between attempts, the last repeated. */
const DELAYS_MS = [1_000, 2_000, 5_000, 10_000];

/**
 * Runs `step` until it does not fail with a 503, at most `attempts` times (the last failure is
 * thrown). Null when `stopping()` turns true while it waits (the process is shutting down).
 */
export async function whileUnavailable<T>(
  step: () => Promise<T>,
  opts: { stopping?: () => boolean; log?: Logger; attempts?: number; delaysMs?: readonly number[] } = {},
): Promise<T | null> {
  const delays = opts.delaysMs ?? DELAYS_MS;
  const attempts = opts.attempts ?? 30;
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (e) {
      if (!isAppError(e) || e.status !== 503 || attempt >= attempts) throw e;
      const ms = delays[Math.min(attempt - 1, delays.length - 1)]!;
      opts.log?.warn({ code: e.code, attempt, retryInMs: ms }, 'refused for now (503); trying again');
      await new Promise((r) => setTimeout(r, ms));
      if (opts.stopping?.()) return null;
    }
  }
}
