/**
 * A fixed interleaving with the service's own writes: steps in once, just before the first append
 * (of anyone's) that names a stream (and, with `carrying`, appends one of those event types to it),
 * runs `meanwhile` with the store as it is (an administrator's request, a sync's write), then lets
 * that append go. The writes `meanwhile` makes are not stepped into again. Further steps are taken
 * the same way, in order, after the first.
 *
 * `beforeAppendTo` steps in at the port, before the adapter; `beforeWriteTo` where the store
 * receives the write: for a service on the KurrentDB adapter over its fake client, inside the
 * adapter, as each write reaches the server (an adapter that appended several streams one by one
 * would be stepped into between them); on postgres, whose append is one statement, at the port.
 */
import type { EventStore, StreamAppend } from '../../src/platform/event-store/port';
import type { TestService } from './service';

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

type Write = { streamId: string; events: readonly { type: string }[] };

/** Takes the next step when a write names its stream, once, and not within a step. */
function stepper(steps: readonly Step[]) {
  let pending = [...steps];
  let inside = false;
  return {
    async step(writes: readonly Write[]) {
      const next = pending[0];
      if (inside || !next) return;
      const named = writes.some((a) => a.streamId === next.streamId && a.events.length && (!next.carrying || a.events.some((e) => next.carrying!.includes(e.type))));
      if (!named) return;
      const [current, ...rest] = pending;
      pending = rest;
      inside = true;
      try {
        await current!.meanwhile();
      } finally {
        inside = false;
      }
    },
    taken: () => steps.length - pending.length,
  };
}

export function beforeAppendTo(store: EventStore, ...steps: Step[]): AppendHook {
  const real = { one: store.appendToStream.bind(store), many: store.appendToStreams.bind(store) };
  const s = stepper(steps);
  store.appendToStreams = async (appends: readonly StreamAppend[]) => {
    await s.step(appends);
    return real.many(appends);
  };
  store.appendToStream = async (id, evs, opts) => {
    await s.step([{ streamId: id, events: evs }]);
    return real.one(id, evs, opts);
  };
  return {
    restore() {
      store.appendToStreams = real.many;
      store.appendToStream = real.one;
    },
    taken: s.taken,
  };
}

export function beforeWriteTo(svc: TestService, ...steps: Step[]): AppendHook {
  const client = svc.kurrent;
  if (!client) return beforeAppendTo(svc.services.store, ...steps);
  const s = stepper(steps);
  const before = client.beforeWrite;
  client.beforeWrite = async (writes) => {
    await before?.(writes);
    await s.step(writes.map((w) => ({ streamId: w.streamName, events: w.events })));
  };
  return {
    restore() {
      client.beforeWrite = before;
    },
    taken: s.taken,
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

export interface HeldAppend {
  /** resolves once the held append has arrived */
  reached: Promise<void>;
  /** lets the held append go (and any later one through) */
  release(): void;
  /** puts the store's append functions back as they were when held */
  restore(): void;
}

/**
 * Holds the first append (of anyone's) that names a stream, with `carrying` one of those event
 * types, until released: for a race whose other side has decided and is about to append (a delete
 * that has counted the uses).
 */
export function holdAppendTo(store: EventStore, streamId: string, carrying: readonly string[]): HeldAppend {
  const before = { one: store.appendToStream, many: store.appendToStreams };
  let arrived!: () => void;
  const reached = new Promise<void>((r) => (arrived = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let holding = true;
  const hold = async (appends: readonly StreamAppend[]) => {
    if (!holding || !appends.some((a) => a.streamId === streamId && a.events.some((e) => carrying.includes(e.type)))) return;
    holding = false;
    arrived();
    await released;
  };
  store.appendToStreams = async (appends: readonly StreamAppend[]) => {
    await hold(appends);
    return before.many.call(store, appends);
  };
  store.appendToStream = async (id, evs, opts) => {
    await hold([{ streamId: id, events: evs, expectedRevision: opts?.expectedRevision ?? 'any' }]);
    return before.one.call(store, id, evs, opts);
  };
  return {
    reached,
    release,
    restore() {
      store.appendToStreams = before.many;
      store.appendToStream = before.one;
    },
  };
}
