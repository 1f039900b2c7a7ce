/**
 * Reading the streams an audit needs in the order they were written, a page at a time: each stream
 * through a cursor of a few events, merged by global log position. Memory holds the pages and the
 * folded states, never a stream's whole event list, however many members a family has.
 */
import type { EventStore, RecordedEvent } from '../../platform/event-store/port';
import { comparePositions } from '../../platform/event-store/port';
import type { DecodedEvent, EventRegistry } from '../../platform/events/registry';

export interface ReplayDeps {
  store: EventStore;
  registry: EventRegistry;
}

/** Events buffered across all cursors at once; a page per stream is this divided among them. */
const BUFFER_EVENTS = 4000;
const MIN_PAGE = 8;
const MAX_PAGE = 500;

class Cursor {
  private buffer: RecordedEvent[] = [];
  private next = 0n;
  private done = false;
  constructor(
    readonly streamId: string,
    private readonly store: EventStore,
    private readonly pageSize: number,
    private readonly until?: Date,
  ) {}

  /** The next event, reading a page when the buffer is empty; null at the end. */
  async head(): Promise<RecordedEvent | null> {
    if (this.buffer.length === 0 && !this.done) {
      const page = await this.store.readStream(this.streamId, { fromRevision: this.next, maxCount: this.pageSize, ...(this.until ? { until: this.until } : {}) });
      if (page.length < this.pageSize) this.done = true;
      if (page.length) this.next = page[page.length - 1]!.revision + 1n;
      this.buffer = page;
    }
    return this.buffer[0] ?? null;
  }

  take(): void {
    this.buffer.shift();
  }
}

const pageFor = (streams: number) => Math.max(MIN_PAGE, Math.min(MAX_PAGE, Math.floor(BUFFER_EVENTS / Math.max(1, streams))));

/** One stream's events in order, a page at a time. */
export async function* streamEvents(deps: ReplayDeps, streamId: string, until?: Date): AsyncGenerator<DecodedEvent> {
  const c = new Cursor(streamId, deps.store, MAX_PAGE, until);
  for (let e = await c.head(); e; e = await c.head()) {
    c.take();
    yield deps.registry.decode(e);
  }
}

/**
 * The events of `streamIds` (recorded at or before `until`, when given) in global log order: a
 * k-way merge over a binary heap of the cursors' heads.
 */
export async function* mergedEvents(deps: ReplayDeps, streamIds: Iterable<string>, until?: Date): AsyncGenerator<DecodedEvent> {
  const ids = [...new Set(streamIds)];
  const page = pageFor(ids.length);
  const heap: { cursor: Cursor; event: RecordedEvent }[] = [];
  const less = (i: number, j: number) => comparePositions(heap[i]!.event.position, heap[j]!.event.position) < 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(i, p)) return;
      swap(i, p);
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const id of ids) {
    const cursor = new Cursor(id, deps.store, page, until);
    const event = await cursor.head();
    if (event) {
      heap.push({ cursor, event });
      up(heap.length - 1);
    }
  }
  while (heap.length) {
    const top = heap[0]!;
    top.cursor.take();
    yield deps.registry.decode(top.event);
    const event = await top.cursor.head();
    if (event) {
      top.event = event;
      down(0);
    } else {
      const last = heap.pop()!;
      if (heap.length) {
        heap[0] = last;
        down(0);
      }
    }
  }
}
