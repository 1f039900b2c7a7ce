/**
 * The storefront's retries (web/h5/src/common/retrier.ts) on a fake clock: a passing failure is
 * tried again after a growing, capped delay and then waits for the shopper; a refusal (4xx) is not
 * tried again; offline, nothing runs until the network returns; an eager caller cannot add reads.
 */
import { FIRST_RETRY_MS, MAX_AUTO_RETRIES, MAX_RETRY_MS, failureOf, retryDelayMs } from '../../../web/h5/src/common/failure';
import { Retrier, type RetryEnv, type Waiting } from '../../../web/h5/src/common/retrier';

class FakeEnv implements RetryEnv {
  now = 0;
  isOnline = true;
  private timers: { at: number; run: () => void; id: number }[] = [];
  private nextId = 1;
  private listeners: (() => void)[] = [];
  setTimer = (run: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.push({ at: this.now + ms, run, id });
    return id;
  };
  clearTimer = (id: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== id);
  };
  online = () => this.isOnline;
  onOnline = (run: () => void) => {
    this.listeners.push(run);
    return () => (this.listeners = this.listeners.filter((l) => l !== run));
  };
  random = () => 0.5;
  /** Moves the clock on, running what falls due (and letting each read settle). */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.now = due.at;
      due.run();
      await settle();
    }
    this.now = end;
  }
  goOnline(): void {
    this.isOnline = true;
    for (const l of [...this.listeners]) l();
  }
  pending = () => this.timers.length;
}

const settle = () => new Promise((r) => setImmediate(r));
const serverError = Object.assign(new Error('internal error'), { status: 500, code: 'INTERNAL' });
const refused = Object.assign(new Error('query is invalid'), { status: 400, code: 'VALIDATION_FAILED' });

function harness(outcome: () => unknown) {
  const env = new FakeEnv();
  const reads: number[] = [];
  const events: { ok?: unknown; waiting?: Waiting; kind?: string }[] = [];
  const r = new Retrier<string>(
    async () => {
      reads.push(env.now);
      const o = outcome();
      if (o instanceof Error) throw o;
      return String(o);
    },
    { started: () => undefined, succeeded: (v) => events.push({ ok: v }), failed: (f, waiting) => events.push({ waiting, kind: f.kind }) },
    env,
  );
  return { env, reads, events, r };
}

describe('the storefront retrier', () => {
  it('retries a 500 after 1, 2, 4, 8 s, then waits for the shopper', async () => {
    const { env, reads, events, r } = harness(() => serverError);
    r.request();
    await settle();
    await env.advance(10_000);
    expect(reads).toEqual([0, 1_000, 3_000, 7_000]);
    await env.advance(10 * 60_000);
    expect(reads).toEqual([0, 1_000, 3_000, 7_000, 15_000]);
    expect(reads.length).toBe(1 + MAX_AUTO_RETRIES);
    expect(events.at(-1)).toEqual({ waiting: 'shopper', kind: 'server' });
    expect(env.pending()).toBe(0);
    r.retryNow();
    await settle();
    expect(reads.length).toBe(2 + MAX_AUTO_RETRIES);
    expect(events.at(-1)).toEqual({ waiting: 'timer', kind: 'server' });
  });

  it('never asks again on a 4xx until the shopper does', async () => {
    const { env, reads, events, r } = harness(() => refused);
    r.request();
    await settle();
    for (let i = 0; i < 20; i++) r.request();
    await env.advance(60 * 60_000);
    env.goOnline();
    await settle();
    expect(reads).toEqual([0]);
    expect(events).toEqual([{ waiting: 'shopper', kind: 'invalid' }]);
    r.retryNow();
    await settle();
    expect(reads.length).toBe(2);
  });

  it('offline, sets no timer and reads again as soon as the network returns', async () => {
    let down = true;
    const { env, reads, events, r } = harness(() => (down ? new TypeError('Failed to fetch') : 'ok'));
    env.isOnline = false;
    r.request();
    await settle();
    expect(events).toEqual([{ waiting: 'network', kind: 'offline' }]);
    expect(env.pending()).toBe(0);
    await env.advance(60_000);
    expect(reads).toEqual([0]);
    down = false;
    env.goOnline();
    await settle();
    expect(reads).toEqual([0, 60_000]);
    expect(events.at(-1)).toEqual({ ok: 'ok' });
  });

  it('ignores requests while a read runs or a failure waits, so an eager caller adds nothing', async () => {
    let release!: () => void;
    const { env, reads, r } = harness(() => serverError);
    const slow = new Retrier<void>(
      () =>
        new Promise<void>((res) => {
          reads.push(env.now);
          release = res;
        }),
      { started: () => undefined, succeeded: () => undefined, failed: () => undefined },
      env,
    );
    slow.request();
    slow.request();
    slow.request();
    expect(reads).toEqual([0]);
    release();
    await settle();
    r.request();
    await settle();
    for (let i = 0; i < 100; i++) r.request();
    expect(reads).toEqual([0, 0]);
  });

  it('after dispose, neither reads nor reports', async () => {
    const { env, reads, events, r } = harness(() => serverError);
    r.request();
    await settle();
    r.dispose();
    await env.advance(60_000);
    env.goOnline();
    expect(reads).toEqual([0]);
    expect(events).toHaveLength(1);
  });
});

describe('retry delays', () => {
  const f = failureOf(serverError, true);
  it('double from about a second up to the cap, spread by at most a fifth', () => {
    for (const random of [0, 0.5, 0.999]) {
      const delays = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1, f, () => random));
      for (const [i, d] of delays.entries()) {
        const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** i);
        expect(d).toBeGreaterThanOrEqual(Math.min(base * 0.8, MAX_RETRY_MS));
        expect(d).toBeLessThanOrEqual(Math.min(base * 1.2, MAX_RETRY_MS));
      }
      expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_RETRY_MS);
    }
  });
  it("wait at least as long as the server's Retry-After", () => {
    const busy = failureOf(Object.assign(new Error('busy'), { status: 503, code: 'X', retryAfterMs: 5_000 }), true);
    expect(busy.kind).toBe('busy');
    expect(retryDelayMs(1, busy, () => 0.5)).toBe(5_000);
  });
});

describe('failures', () => {
  it.each([
    [404, 'notFound'],
    [400, 'invalid'],
    [422, 'invalid'],
    [429, 'busy'],
    [503, 'busy'],
    [500, 'server'],
    [502, 'server'],
  ])('a %i is %s', (status, kind) => {
    expect(failureOf(Object.assign(new Error('x'), { status }), true).kind).toBe(kind);
  });
  it('no answer is a network failure online, offline otherwise', () => {
    expect(failureOf(new TypeError('Failed to fetch'), true).kind).toBe('network');
    expect(failureOf(new TypeError('Failed to fetch'), false).kind).toBe('offline');
  });
});
