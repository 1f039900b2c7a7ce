import { FreshnessGate } from '../../../src/storefront/freshness';

/** A refresh whose reads the test finishes one by one. */
function controlledRefresh() {
  const reads: { started: number; finish: () => void; fail: (e: unknown) => void }[] = [];
  let clock = 0;
  const refresh = () =>
    new Promise<void>((resolve, reject) => {
      reads.push({ started: ++clock, finish: resolve, fail: reject });
    });
  return { reads, refresh, tick: () => ++clock };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('the freshness gate (read-your-writes across API processes)', () => {
  it('a request waits for a read that started after it arrived', async () => {
    const c = controlledRefresh();
    const gate = new FreshnessGate(c.refresh);
    let firstDone = false;
    void gate.fresh().then(() => (firstDone = true));
    expect(c.reads).toHaveLength(1); // started at once: it began after the request arrived
    // A second request arrives while that read is in flight: it may predate the second's write.
    let secondDone = false;
    void gate.fresh().then(() => (secondDone = true));
    expect(c.reads).toHaveLength(1);
    c.reads[0]!.finish();
    await settle();
    expect(firstDone).toBe(true);
    expect(secondDone).toBe(false);
    expect(c.reads).toHaveLength(2); // the next read started only now
    c.reads[1]!.finish();
    await settle();
    expect(secondDone).toBe(true);
  });

  it('coalesces: however many requests arrive during a read, they share one next read', async () => {
    const c = controlledRefresh();
    const gate = new FreshnessGate(c.refresh);
    const first = gate.fresh();
    const waiting = Array.from({ length: 50 }, () => gate.fresh());
    c.reads[0]!.finish();
    await first;
    await settle();
    expect(c.reads).toHaveLength(2);
    c.reads[1]!.finish();
    await Promise.all(waiting);
    expect(gate.stats()).toEqual({ requests: 51, reads: 2, failures: 0 });
    // Idle again: the next request starts its own read.
    void gate.fresh();
    expect(c.reads).toHaveLength(3);
  });

  it('a failed read does not fail the request; it is reported', async () => {
    const c = controlledRefresh();
    const errors: unknown[] = [];
    const gate = new FreshnessGate(c.refresh, (e) => errors.push(e));
    const p = gate.fresh();
    c.reads[0]!.fail(new Error('database down'));
    await expect(p).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(gate.stats().failures).toBe(1);
    void gate.fresh();
    expect(c.reads).toHaveLength(2);
  });
});
