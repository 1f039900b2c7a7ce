/**
 * A fixed interleaving with the service's own writes: steps in once, just before the first append
 * (of anyone's) that names a stream (and, with `carrying`, appends one of those event types to it),
 * runs `meanwhile` with the store as it is (an administrator's request, a sync's write), then lets
 * that append go. The writes `meanwhile` makes are not stepped into again. Further steps are taken
 * the same way, in order, after the first.
 */
import type { EventStore, StreamAppend } from '../../src/platform/event-store/port';

export interface Step {
  streamId: string;
  /** only an append of one of these event types to the stream */
  carrying?: readonly string[];
  meanwhile: () => Promise<void>;
}

export interface AppendHook {
  /** puts the store's own append functions back */
  restore(): void;
  /** how many of the steps have been taken */
  taken(): number;
}

export function beforeAppendTo(store: EventStore, ...steps: Step[]): AppendHook {
  const real = { one: store.appendToStream.bind(store), many: store.appendToStreams.bind(store) };
  let pending = [...steps];
  let inside = false;
  const step = async (appends: readonly StreamAppend[]) => {
    const next = pending[0];
    if (inside || !next) return;
    const named = appends.some((a) => a.streamId === next.streamId && a.events.length && (!next.carrying || a.events.some((e) => next.carrying!.includes(e.type))));
    if (!named) return;
    const [current, ...rest] = pending;
    pending = rest;
    inside = true;
    try {
      await current!.meanwhile();
    } finally {
      inside = false;
    }
  };
  store.appendToStreams = async (appends: readonly StreamAppend[]) => {
    await step(appends);
    return real.many(appends);
  };
  store.appendToStream = async (id, evs, opts) => {
    await step([{ streamId: id, events: evs, expectedRevision: opts?.expectedRevision ?? 'any' }]);
    return real.one(id, evs, opts);
  };
  return {
    restore() {
      store.appendToStreams = real.many;
      store.appendToStream = real.one;
    },
    taken: () => steps.length - pending.length,
  };
}

/** Records the streams of each multi-stream append made through the store's port, until `restore`. */
export function recordAppends(store: EventStore): { appends: string[][]; restore(): void } {
  const real = store.appendToStreams.bind(store);
  const appends: string[][] = [];
  store.appendToStreams = async (batch: readonly StreamAppend[]) => {
    appends.push(batch.map((a) => a.streamId));
    return real(batch);
  };
  return {
    appends,
    restore() {
      store.appendToStreams = real;
    },
  };
}
