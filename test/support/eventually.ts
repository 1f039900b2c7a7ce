/** Polls until `check` returns a truthy value (or stops throwing); fails with the last error after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      last = new Error('condition still false');
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw last;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
