/**
 * One storefront read and its retries. A failed read is tried again only for a passing failure
 * (./failure.ts), after a growing, capped delay, at most MAX_AUTO_RETRIES times in a row; then, and
 * after any refusal (4xx), it waits for the shopper (`retryNow`, their 重试) or, for a passing
 * failure, for the network to come back. While offline it sets no timer at all: the `online` event
 * starts it again. `request` never starts a read while one is running or while a failure waits, so
 * an eager caller (the list's infinite scroll asks on every intersection) cannot turn a server's
 * hiccup into a flood.
 *
 * No DOM here: the timers, the online state and its event come from a `RetryEnv` (./browser-env.ts
 * in the page, fake ones in the unit tests).
 */
import { failureOf, isPassing, MAX_AUTO_RETRIES, retryDelayMs, type Failure } from './failure';

export interface RetryEnv {
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
  online(): boolean;
  /** Calls `run` when the network comes back; answers the unsubscribe. */
  onOnline(run: () => void): () => void;
  random(): number;
}

/** What a failed read waits for: its timer, the network, or the shopper. */
export type Waiting = 'timer' | 'network' | 'shopper';

export interface RetryHandlers<T> {
  started(): void;
  succeeded(value: T): void;
  failed(failure: Failure, waiting: Waiting): void;
}

export class Retrier<T> {
  private running = false;
  private waiting: Waiting | null = null;
  private failure: Failure | null = null;
  /** failed attempts since the last success or the shopper's retry */
  private failures = 0;
  private timer: unknown = null;
  private disposed = false;
  private readonly offOnline: () => void;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly on: RetryHandlers<T>,
    private readonly env: RetryEnv,
  ) {
    this.offOnline = env.onOnline(() => {
      // The network is back: a read that failed for a passing reason goes again at once, as a new round.
      if (this.failure && isPassing(this.failure) && !this.running) this.retryNow();
    });
  }

  /** Reads, unless a read is running or a failure is waiting (for its timer, the network or the shopper). */
  request(): void {
    if (this.running || this.waiting || this.disposed) return;
    void this.attempt();
  }

  /** The shopper asks (重试): reads now, whatever the last failure was, with a fresh round of retries. */
  retryNow(): void {
    if (this.running || this.disposed) return;
    this.clearWait();
    this.failures = 0;
    void this.attempt();
  }

  /** After this, nothing runs and no handler is called. */
  dispose(): void {
    this.disposed = true;
    this.clearWait();
    this.offOnline();
  }

  private clearWait(): void {
    if (this.timer !== null) this.env.clearTimer(this.timer);
    this.timer = null;
    this.waiting = null;
  }

  private async attempt(): Promise<void> {
    this.running = true;
    this.waiting = null;
    this.on.started();
    let value: T;
    try {
      value = await this.read();
    } catch (e) {
      if (this.disposed) return;
      this.running = false;
      this.failed(failureOf(e, this.env.online()));
      return;
    }
    if (this.disposed) return;
    this.running = false;
    this.failures = 0;
    this.failure = null;
    this.on.succeeded(value);
  }

  private failed(f: Failure): void {
    this.failure = f;
    this.failures++;
    if (!isPassing(f) || this.failures > MAX_AUTO_RETRIES) this.waiting = 'shopper';
    else if (f.kind === 'offline') this.waiting = 'network';
    else {
      this.waiting = 'timer';
      this.timer = this.env.setTimer(
        () => {
          this.timer = null;
          this.waiting = null;
          if (!this.disposed) void this.attempt();
        },
        retryDelayMs(this.failures, f, this.env.random),
      );
    }
    this.on.failed(f, this.waiting);
  }
}
