/**
 * Read-your-writes across API processes for the public cache.
 *
 * A write bumps the cache domains in `cache_domains` in the projection's transaction, and NOTIFYs
 * every process. The process that ran the command hears the notice before it answers (see
 * ProjectionNotifications), but another API process hears it whenever its listener connection gets
 * there: a client that wrote through process A and then reads through process B could be served B's
 * stale entry in between. So before serving from the cache, a request waits until the domain
 * versions have been read from the database by a query that *started after the request arrived*;
 * any commit an earlier answer depended on is then visible, and `cache.syncVersions` has voided the
 * entries it made stale.
 *
 * Cost: one tiny primary-key read (`cache_domains` has three rows), coalesced: at most one read is in
 * flight; requests arriving meanwhile share the next one, which starts as soon as it ends. Under
 * load many requests share one read; an idle process pays one round trip per request. (The
 * alternative, "at most once every N ms", is cheaper but leaves an N ms window in which process B
 * still serves what process A's answer already replaced; the storefront bench measures this gate.)
 *
 * A failed read does not fail the request: the notifications and the cache's time-to-live still
 * bound staleness, and a public page that answers beats one that does not.
 */
export class FreshnessGate {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private readonly counters = { requests: 0, reads: 0, failures: 0 };

  constructor(
    /** reads the current versions (e.g. `SELECT domain, version FROM cache_domains`) and applies them */
    private readonly refresh: () => Promise<void>,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  /** Resolves once versions read by a query started after this call have been applied. */
  fresh(): Promise<void> {
    this.counters.requests++;
    if (!this.running) return this.start();
    // The read in flight may have started before this request's write committed: wait for the next.
    return (this.queued ??= this.running.then(() => {
      this.queued = null;
      // Someone may have started a read after the previous one ended: it started after we arrived too.
      return this.running ?? this.start();
    }));
  }

  stats(): { requests: number; reads: number; failures: number } {
    return { ...this.counters };
  }

  private start(): Promise<void> {
    this.counters.reads++;
    const read: Promise<void> = this.refresh()
      .catch((e: unknown) => {
        this.counters.failures++;
        this.onError(e);
      })
      .finally(() => {
        if (this.running === read) this.running = null;
      });
    this.running = read;
    return read;
  }
}
