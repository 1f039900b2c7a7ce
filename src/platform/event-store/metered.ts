/**
 * An event store that counts what is appended through it, whichever adapter it wraps (the count
 * feeds catalog_events_appended_total). Everything else goes straight to the adapter.
 */
import type { AppendResult, EventStore, EventToAppend, ExpectedRevision, StreamAppend } from './port';

export class MeteredEventStore implements EventStore {
  readonly kind: EventStore['kind'];

  constructor(
    /** the adapter: postgres or eventstoredb */
    readonly inner: EventStore,
    private readonly appended: (events: number) => void,
  ) {
    this.kind = inner.kind;
    if (inner.fence) this.fence = () => inner.fence!();
    if (inner.refreshStatistics) this.refreshStatistics = (opts) => inner.refreshStatistics!(opts);
  }

  async appendToStream(streamId: string, events: readonly EventToAppend[], opts?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    const r = await this.inner.appendToStream(streamId, events, opts);
    this.appended(events.length);
    return r;
  }

  async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const r = await this.inner.appendToStreams(appends);
    this.appended(appends.reduce((n, a) => n + a.events.length, 0));
    return r;
  }

  fence?: EventStore['fence'];
  refreshStatistics?: EventStore['refreshStatistics'];
  streamRevision: EventStore['streamRevision'] = (streamId) => this.inner.streamRevision(streamId);
  readStream: EventStore['readStream'] = (streamId, opts) => this.inner.readStream(streamId, opts);
  readAll: EventStore['readAll'] = (opts) => this.inner.readAll(opts);
  headPosition: EventStore['headPosition'] = (prefixes, opts) => this.inner.headPosition(prefixes, opts);
  lagAfter: EventStore['lagAfter'] = (after, prefixes, cap) => this.inner.lagAfter(after, prefixes, cap);
  watch: EventStore['watch'] = (onAppend, prefixes) => this.inner.watch(onAppend, prefixes);
  ping: EventStore['ping'] = () => this.inner.ping();
  close: EventStore['close'] = () => this.inner.close();
}
