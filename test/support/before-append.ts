/**
 * A fixed interleaving with the service's own writes: steps in once, just before the first append
 * (of anyone's) that names a stream, runs `meanwhile` with the store as it is (an administrator's
 * request, a sync's write), then lets that append go. The writes `meanwhile` makes are not stepped
 * into again. `then` is a second step, taken the same way after the first.
 */
import type { EventStore, StreamAppend } from '../../src/platform/event-store/port';

export interface Step {
  streamId: string;
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
  const step = async (ids: string[]) => {
    if (inside || !pending.length || !ids.includes(pending[0]!.streamId)) return;
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
    await step(appends.filter((a) => a.events.length).map((a) => a.streamId));
    return real.many(appends);
  };
  store.appendToStream = async (id, evs, opts) => {
    await step([id]);
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
