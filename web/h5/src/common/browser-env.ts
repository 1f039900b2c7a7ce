import type { RetryEnv } from './retrier';

/** The page's timers and network state, for the retries (./retrier.ts). */
export const browserEnv: RetryEnv = {
  setTimer: (run, ms) => window.setTimeout(run, ms),
  clearTimer: (t) => window.clearTimeout(t as number),
  online: () => navigator.onLine,
  onOnline(run) {
    window.addEventListener('online', run);
    return () => window.removeEventListener('online', run);
  },
  random: Math.random,
};
