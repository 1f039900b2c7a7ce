/**
 * How every command runs: load the stream, fold it with the slice's pure `evolve`, ask the slice's
 * pure `decide` for events, append them expecting the revision that was read, then wait (bounded)
 * for the projections reading that stream, so the caller's next read shows the change.
 *
 * Concurrency (docs/http-contract.md, Revisions): a client that sends the revision it saw
 * (`expectedRevision`, from If-Match) gets 409 `EVENT_STORE.WRONG_REVISION` when the stream has moved
 * since, whether it finds that out on reading or on appending. Without one, the command's decision
 * does not depend on the exact revision (last writer wins): when another append lands between its
 * read and its own append, the stream is read again and the command decided again, so no update is
 * lost and no client sees a 409 it did not ask for. The result is the state as this command's own
 * append left it, never a later writer's.
 */
import { randomUUID } from 'node:crypto';
import type { AppendResult, EventStore, EventToAppend, LogPosition } from './event-store/port';
import type { AnyEvent, DecodedEvent, EventRegistry } from './events/registry';
import { eventMetadata } from './events/registry';
import { AppError } from './errors';
import { EventStoreErrors, comparePositions, staleStreamsOf, type StaleStream } from './event-store/port';

/** How often a command without an expected revision is decided again after losing an append race. */
export const COMMAND_ATTEMPTS = 25;

/** `good-123` → `good 123`, `tagGroup-7` → `tag group 7`: the resource a client knows, not the stream it is stored in. */
export function resourceOf(streamId: string): string {
  const m = /^([A-Za-z]+)-(.*)$/.exec(streamId);
  const kind = m ? (CLIENT_NAMES[m[1]!] ?? m[1]!) : streamId;
  const words = kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return m ? `${words} ${m[2]!.replace(/-/g, ' ')}` : words.replace(/-/g, ' ');
}

/** Streams whose resource the API calls by another name (docs/api.md: links are origin goods). */
const CLIENT_NAMES: Record<string, string> = { link: 'originGood' };

/** The 409 of a stale revision, naming the resource. */
export function staleRevision(streamId: string, expected: bigint | null, actual: bigint | string | null): AppError {
  const resource = resourceOf(streamId);
  const actualText = actual === null ? 'none' : actual.toString();
  return AppError.conflict('EVENT_STORE.WRONG_REVISION', `${resource} is at revision ${actualText === 'no_stream' ? 'none' : actualText}, not ${expected ?? 'none'}`, {
    resource,
    expected: expected?.toString() ?? 'no_stream',
    actual: actual === null ? 'no_stream' : actual.toString(),
  });
}

const isWrongRevision = (e: unknown): e is AppError => e instanceof AppError && e.code === EventStoreErrors.WRONG_REVISION;

export interface Actor {
  /** a user id, or `system:…` */
  by: string;
  correlationId?: string;
}

/**
 * An event a decision asks to append. `E` is the union of the events its stream may hold (a slice's
 * `EventUnion`), so a decision that names another type, or data of the wrong shape, fails the type
 * check; without it, any type and data (checked against the registry's schema on append only).
 */
export type PendingEvent<E extends AnyEvent = AnyEvent> = E;

/** A stream: its id, and how its events fold into the state commands decide on. `E`: the events it holds. */
export interface StreamSpec<S, E extends AnyEvent = AnyEvent> {
  streamId: string;
  initial: () => S;
  evolve: (state: S, event: DecodedEvent<E>) => S;
}

export interface Loaded<S> {
  state: S;
  /** null: the stream does not exist */
  revision: bigint | null;
  /** the log position of its last event (null: the stream does not exist) */
  position?: LogPosition | null;
}

export interface CommandDeps {
  store: EventStore;
  registry: EventRegistry;
  waitForProjections(position: LogPosition, streamIds: readonly string[]): Promise<boolean>;
  /**
   * After a bulk step: refreshes the planner's statistics of the read models of these streams that
   * the step rewrote enough of (`changedRows`: what it changed, by its own count;
   * src/platform/planner-statistics.ts; `repeated`: one of many such steps in a row). Optional: tests may hand in less.
   */
  refreshStatistics?(streamIds: readonly string[], changedRows: number, opts?: { repeated?: boolean }): Promise<void>;
}

/**
 * A rule that spans streams is checked against a read model (tag names in a group, the category
 * tree): under its lock, and only once the read model shows every event of those streams, committed
 * ones a read fence still holds back included. When it cannot get there in time (its projection
 * behind or stopped, the fence held), the command is refused with a 503, never decided on stale rows.
 */
export async function readModelsCurrent(deps: Pick<CommandDeps, 'store' | 'waitForProjections'>, prefixes: readonly string[]): Promise<void> {
  const head = await deps.store.headPosition(prefixes, { committed: true });
  if (
    !(await deps.waitForProjections(
      head,
      prefixes.map((p) => `${p}0`),
    ))
  ) {
    throw AppError.unavailable('PROJECTION.BEHIND', `the read models this rule is checked against are behind (${prefixes.join(', ')}); try again shortly`);
  }
}

/**
 * A stream holds the events of its spec (only its own slice appends to it), each decoded against its
 * type's schema by the registry: what `evolve` is typed to receive.
 */
export const asStreamEvent = <E extends AnyEvent>(event: DecodedEvent): DecodedEvent<E> => event as DecodedEvent<E>;

export async function loadStream<S, E extends AnyEvent>(deps: Pick<CommandDeps, 'store' | 'registry'>, spec: StreamSpec<S, E>, until?: Date): Promise<Loaded<S>> {
  const events = await deps.store.readStream(spec.streamId, until ? { until } : {});
  let state = spec.initial();
  let revision: bigint | null = null;
  let position: LogPosition | null = null;
  for (const e of events) {
    state = spec.evolve(state, asStreamEvent<E>(deps.registry.decode(e)));
    revision = e.revision;
    position = e.position;
  }
  return { state, revision, position };
}

export interface CommandResult<S, E extends AnyEvent = AnyEvent> {
  state: S;
  revision: bigint | null;
  /** null when the decision was to append nothing */
  position: LogPosition | null;
  events: PendingEvent<E>[];
}

/** A command on one stream. Its events are the stream's (`E` is taken from the spec, never from `decide`). */
export async function runCommand<S, E extends AnyEvent = AnyEvent>(
  deps: CommandDeps,
  spec: StreamSpec<S, E>,
  command: {
    /** the command's name, recorded as the events' "why" */
    name: string;
    actor: Actor;
    /** the revision the client last saw, when it sent one */
    expectedRevision?: bigint | null;
    decide: (state: S, loaded: Loaded<S>) => PendingEvent<NoInfer<E>>[];
    /** skip the projection wait (bulk operations wait once at the end) */
    noWait?: boolean;
    /**
     * Runs the append of the events decided (again after a lost race): to hold the locks of what they
     * name while it appends, and check it (src/catalog/references.ts).
     */
    appendWith?: (events: readonly EventToAppend[], append: () => Promise<AppendResult>) => Promise<AppendResult>;
  },
): Promise<CommandResult<S, E>> {
  const expected = command.expectedRevision;
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadStream(deps, spec);
    if (expected !== undefined && expected !== loaded.revision) throw staleRevision(spec.streamId, expected, loaded.revision);
    const pending = command.decide(loaded.state, loaded);
    if (pending.length === 0) return { state: loaded.state, revision: loaded.revision, position: null, events: [] };
    const meta = eventMetadata(command.actor.by, command.name, command.actor.correlationId ?? randomUUID());
    const events = pending.map((p) => deps.registry.encode(p.type, p.data, meta));
    let result: AppendResult;
    const append = () => deps.store.appendToStream(spec.streamId, events, { expectedRevision: loaded.revision === null ? 'no_stream' : loaded.revision });
    try {
      result = await (command.appendWith ? command.appendWith(events, append) : append());
    } catch (e) {
      if (!isWrongRevision(e)) throw e;
      if (expected !== undefined) throw staleRevision(spec.streamId, expected, (e.details as { actual?: string } | undefined)?.actual ?? null);
      if (attempt >= COMMAND_ATTEMPTS) {
        throw AppError.conflict('EVENT_STORE.BUSY', `${resourceOf(spec.streamId)} is changing too often to apply this change; try again`);
      }
      // Someone else appended in between: a short, growing, jittered pause spreads the next attempts.
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 * attempt)));
      continue;
    }
    return finish(deps, spec, command, loaded, pending, events, result);
  }
}

async function finish<S, E extends AnyEvent>(
  deps: CommandDeps,
  spec: StreamSpec<S, E>,
  command: { noWait?: boolean },
  loaded: Loaded<S>,
  pending: PendingEvent<E>[],
  events: ReturnType<EventRegistry['encode']>[],
  result: Awaited<ReturnType<EventStore['appendToStream']>>,
): Promise<CommandResult<S, E>> {
  let state = loaded.state;
  events.forEach((e, i) => {
    state = spec.evolve(
      state,
      asStreamEvent<E>({
        id: e.id,
        streamId: spec.streamId,
        revision: result.nextRevision - BigInt(events.length - 1 - i),
        position: result.position,
        type: e.type,
        data: e.data,
        metadata: e.metadata,
        recordedAt: new Date(),
        storedVersion: e.version,
      }),
    );
  });
  if (!command.noWait) await deps.waitForProjections(result.position, [spec.streamId]);
  return { state, revision: result.nextRevision, position: result.position, events: pending };
}

/** One stream's part of a command that spans streams: its spec (to fold the appended events) and what to append. */
export interface StreamWrite<S = unknown, E extends AnyEvent = AnyEvent> {
  spec: StreamSpec<S, E>;
  events: PendingEvent<NoInfer<E>>[];
}

/** A write to a stream of any type: one command's writes are to streams of different types, each typed where it is made. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- no common state type: StreamSpec is invariant in it
export type AnyStreamWrite = StreamWrite<any, any>;

/** Reads a stream for a command that spans streams; the revision it answers is the one the append will expect. */
export type LoadFor = <S, E extends AnyEvent>(spec: StreamSpec<S, E>) => Promise<Loaded<S>>;

export interface SpanningResult<R> {
  /** what `decide` answered besides its writes */
  result: R;
  /**
   * Each stream the command read, by id: a written one as this command's own append left it, one it
   * read without writing as it was when decided on (revision null: it does not exist).
   */
  streams: Map<string, { state: unknown; revision: bigint | null }>;
  /** the position of the append, or null when nothing was appended */
  position: LogPosition | null;
}

/**
 * A command whose decision spans streams (a link joining a family, a good created from a link, a
 * good deleted with the positions that list it): `decide` loads what it needs through `load`, and
 * its writes go in one multi-stream append, each stream expecting the revision it was read at, so
 * the streams change together or not at all (both stores append to several streams atomically:
 * ./event-store/port.ts). When any of them moved meanwhile, everything is read and decided again, as
 * `runCommand` does for one stream; `expected` (a client's If-Match on the stream it names) makes
 * that a 409 instead.
 */
export async function runAcrossStreams<R>(
  deps: CommandDeps,
  command: {
    name: string;
    actor: Actor;
    expected?: { streamId: string; revision: bigint | null };
    decide: (load: LoadFor) => Promise<{ writes: AnyStreamWrite[]; result: R }>;
    noWait?: boolean;
  },
): Promise<SpanningResult<R>> {
  for (let attempt = 1; ; attempt++) {
    const loaded = new Map<string, Loaded<unknown>>();
    const load: LoadFor = async (spec) => {
      const l = await loadStream(deps, spec);
      if (command.expected?.streamId === spec.streamId && command.expected.revision !== l.revision) {
        throw staleRevision(spec.streamId, command.expected.revision, l.revision);
      }
      loaded.set(spec.streamId, l);
      return l;
    };
    const { writes, result } = await command.decide(load);
    const nonEmpty = writes.filter((w) => w.events.length > 0);
    const streams = new Map<string, { state: unknown; revision: bigint | null }>([...loaded].map(([id, l]) => [id, { state: l.state, revision: l.revision }]));
    if (nonEmpty.length === 0) {
      // Nothing to append (the streams already say so): the caller still answers the state decided
      // on, so wait until the read models show the streams as they were read.
      const last = [...loaded.values()].reduce<LogPosition | null>((a, l) => (!l.position ? a : !a || comparePositions(l.position, a) > 0 ? l.position : a), null);
      if (last && !command.noWait) await deps.waitForProjections(last, [...loaded.keys()]);
      return { result, streams, position: null };
    }
    const meta = eventMetadata(command.actor.by, command.name, command.actor.correlationId ?? randomUUID());
    const encoded = nonEmpty.map((w) => w.events.map((p) => deps.registry.encode(p.type, p.data, meta)));
    let results: Awaited<ReturnType<EventStore['appendToStreams']>>;
    try {
      results = await deps.store.appendToStreams(
        nonEmpty.map((w, i) => {
          const l = loaded.get(w.spec.streamId);
          if (!l) throw new Error(`${command.name}: ${w.spec.streamId} is written without being read first`);
          return { streamId: w.spec.streamId, events: encoded[i]!, expectedRevision: l.revision === null ? 'no_stream' : l.revision };
        }),
      );
    } catch (e) {
      if (!isWrongRevision(e)) throw e;
      const moved = staleStreamsOf(e)!;
      if (command.expected && (moved.size === 0 || moved.has(command.expected.streamId))) {
        const actual = (e.details as { stale?: StaleStream[] } | undefined)?.stale?.find((s) => s.streamId === command.expected!.streamId)?.actual;
        throw staleRevision(command.expected.streamId, command.expected.revision, actual ?? (e.details as { actual?: string } | undefined)?.actual ?? null);
      }
      if (attempt >= COMMAND_ATTEMPTS)
        throw AppError.conflict('EVENT_STORE.BUSY', `${resourceOf([...moved][0] ?? nonEmpty[0]!.spec.streamId)} is changing too often to apply this change; try again`);
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 * attempt)));
      continue;
    }
    let position = results[0]!.position;
    nonEmpty.forEach((w, i) => {
      const r = results[i]!;
      if (comparePositions(r.position, position) > 0) position = r.position;
      let state = loaded.get(w.spec.streamId)!.state;
      encoded[i]!.forEach((e, k) => {
        state = (w.spec.evolve as (s: unknown, e: DecodedEvent) => unknown)(state, {
          id: e.id,
          streamId: w.spec.streamId,
          revision: r.nextRevision - BigInt(encoded[i]!.length - 1 - k),
          position: r.position,
          type: e.type,
          data: e.data,
          metadata: e.metadata,
          recordedAt: new Date(),
          storedVersion: e.version,
        });
      });
      streams.set(w.spec.streamId, { state, revision: r.nextRevision });
    });
    if (!command.noWait)
      await deps.waitForProjections(
        position,
        nonEmpty.map((w) => w.spec.streamId),
      );
    return { result, streams, position };
  }
}

/**
 * The command runner of a slice: `run(deps, id, actor, command, opts)` loads the stream of `id`,
 * asks the slice's pure `decide` with the command, and appends what it answers (runCommand),
 * recorded under the command's type unless `opts.name` says otherwise. Every slice's handle.ts
 * builds its `run` with this, so they all run commands the same way.
 */
export function commandRunner<S, E extends AnyEvent, C extends { type: string }>(
  stream: (id: string) => StreamSpec<S, E>,
  decide: (state: S, command: C) => PendingEvent<NoInfer<E>>[],
) {
  return (
    deps: CommandDeps,
    id: string,
    actor: Actor,
    command: C,
    opts: { name?: string; expectedRevision?: bigint | null | undefined; noWait?: boolean } = {},
  ): Promise<CommandResult<S, E>> =>
    runCommand(deps, stream(id), {
      name: opts.name ?? command.type,
      actor,
      ...(opts.expectedRevision !== undefined ? { expectedRevision: opts.expectedRevision } : {}),
      ...(opts.noWait ? { noWait: true } : {}),
      decide: (state) => decide(state, command),
    });
}
