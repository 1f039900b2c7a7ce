/**
 * What the steps of one organisation run share (./organise.ts): the report as it grows, the counts
 * of links read and changed, and the appends. Every stream is appended at
 * the revision the run read it at, in multi-stream appends of about `chunks.append` streams; a
 * stream that moved meanwhile is decided again on what it says now (never a lost update, never an
 * administrator's move undone: docs/domain.md, Families). An append that parses links' countries or
 * derives their tags holds the reference locks of the live countries and tags it names shared
 * (src/catalog/references.ts), so a delete of one of them counts these links.
 */
import type { AdminDeps } from '../admin-commands';
import { linkEventReferences } from '../links/references';
import { withBatchReferences } from '../references';
import { AppError } from '../../platform/errors';
import type { HeldLock } from '../../platform/locks';
import { type AppendResult, type EventMetadata, type LogPosition, type StreamAppend, EventStoreErrors, comparePositions, staleStreamsOf } from '../../platform/event-store/port';
import { asStreamEvent, type PendingEvent } from '../../platform/commands';
import { linkStreamId, type LinkEvent } from '../links/events';
import { evolveLink, initialLinkState } from '../links/state';
import type { LinkRow } from './link-reads';
import type { LinkFacts } from './plan';
import type { OrganiseProgress, OrganiseReport } from './report';

/** What organising reads and appends through: the read models, the store, the wait for the projections. */
export type OrganiseDeps = AdminDeps;

/** Links read per query, and streams per multi-stream append (tests make them small). */
export interface OrganiseChunks {
  read: number;
  append: number;
}

/** One stream's part of a multi-stream append, and what to do when its stream moved meanwhile. */
export interface Planned {
  append: StreamAppend;
  /** appended: the stream's new revision */
  done?: (r: AppendResult) => void;
  /** the stream moved since it was read: re-read it and do it alone */
  conflict?: () => Promise<void>;
  /**
   * Appends that stand or fall together: a family's record of new members and their links' moves,
   * or a merge. When any of their streams moved meanwhile, all of them leave the append and the
   * group's `conflict` decides again on what the streams say now (never one of them alone: a link
   * moved without its family's record, or into a family that no longer takes it, is what an
   * administrator would have to undo).
   */
  group?: { key: string; conflict: () => Promise<void> };
}

/** A link's revision and family, as the run knows them. */
export type KnownLink = { id: string; revision: bigint; familyId: string | null };

const PREFIXES = ['link-', 'family-', 'good-'];
export const WAIT_STREAMS = ['link-0', 'family-0', 'good-0'];
const CATCH_UP_LIMIT_MS = 30 * 60_000;

export class RunContext {
  readonly report: OrganiseReport;
  /**
   * Links read, and links this run appended to, each counted once (the rest count as unchanged).
   * Counts, not sets of ids: the run keeps nothing per link beyond the chunk it works on and the
   * ids waiting to be grouped (docs/domain.md, Organisation).
   */
  read = 0;
  touched = 0;
  /**
   * Links waiting for a family that the run has already appended to and reported (rare: one whose
   * family went while the run appended its plan): the grouping step does not count them again.
   */
  readonly reported = new Set<string>();
  /** events this run appended (the rows it rewrote, roughly), for the planner statistics' refresh */
  appended = 0;
  private last: LogPosition | null = null;

  constructor(
    readonly s: OrganiseDeps,
    readonly meta: EventMetadata,
    readonly chunks: OrganiseChunks,
    readonly progress: OrganiseProgress,
    report: OrganiseReport,
    private readonly lock: HeldLock | null,
  ) {
    this.report = report;
  }

  /** Stops a run whose lock connection was lost before its next append: another run may have started. */
  assertHeld(): void {
    this.lock?.assertHeld();
  }

  /**
   * Organisation decides on the read models, so each step waits until they show everything appended
   * so far, however long that takes (a command's wait is bounded; a large organisation's catch-up can
   * outlast it). It gives up with a 503 only after CATCH_UP_LIMIT_MS.
   */
  async catchUp(): Promise<void> {
    const head = this.last ?? (await this.s.store.headPosition(PREFIXES));
    const deadline = Date.now() + CATCH_UP_LIMIT_MS;
    while (!(await this.s.waitForProjections(head, WAIT_STREAMS))) {
      if (Date.now() > deadline) throw AppError.unavailable('ORGANISE.PROJECTIONS_BEHIND', 'the catalog projection did not catch up; organisation stopped');
    }
  }

  /** Something appended at `p`: the next catch-up waits for it. */
  note(p: LogPosition): void {
    if (!this.last || comparePositions(p, this.last) > 0) this.last = p;
  }

  linkAppend(linkId: string, events: readonly PendingEvent[], revision: bigint): StreamAppend {
    return {
      streamId: linkStreamId(linkId),
      events: events.map((e) => this.s.registry.encode(e.type, e.data, this.meta)),
      expectedRevision: revision >= 0n ? revision : 'no_stream',
    };
  }

  /** A link leaves the family it is in as the decision read it (if any) and joins `familyId`, at the revision the decision read it at. */
  movePlanned(link: KnownLink, familyId: string): Planned {
    return { append: this.linkAppend(link.id, moveEvents(link.id, link.familyId, familyId), link.revision) };
  }

  /**
   * Of `ids`, those whose family is still `assumed` (the one this run read), as their streams say
   * now; each other one is listed for review with where it is now. Organisation never overrides a
   * membership that changed after it read it.
   */
  async stillWhereRead(ids: readonly string[], assumed: string | null): Promise<LinkRow[]> {
    const still: LinkRow[] = [];
    for (const id of ids) {
      const now = await this.reload(id);
      if (now.familyId !== assumed) {
        this.report.review.push({ linkId: id, familyId: now.familyId, reason: 'MEMBERSHIP_CHANGED' });
        continue;
      }
      still.push(now);
    }
    return still;
  }

  /** Whether this run appended to the link (its stream holds an event of the run's correlation id). */
  async appendedTo(linkId: string): Promise<boolean> {
    const events = await this.s.store.readStream(linkStreamId(linkId));
    return events.some((e) => e.metadata.correlationId === this.meta.correlationId);
  }

  /**
   * Appends every planned stream, about `chunks.append` streams per multi-stream append, a group
   * never split between two appends (it stands or falls whole). The streams that moved since they
   * were planned (`WRONG_REVISION` names them all) leave the append at once, each with its whole
   * group, which its `conflict` decides again, or alone, done again by its own `conflict`; the
   * others are appended again, in one more append.
   */
  async appendAll(planned: readonly Planned[]): Promise<void> {
    for (const chunk of chunksOfWholeGroups(
      planned.filter((p) => p.append.events.length > 0),
      this.chunks.append,
    )) {
      this.assertHeld();
      let pending = chunk;
      while (pending.length) {
        try {
          const appends = pending.map((p) => p.append);
          const results = await withBatchReferences(this.s.pool, linkEventReferences(appends.flatMap((a) => a.events)), () => this.s.store.appendToStreams(appends));
          this.appended += pending.reduce((n, p) => n + p.append.events.length, 0);
          results.forEach((r, k) => {
            this.note(r.position);
            pending[k]!.done?.(r);
          });
          break;
        } catch (e) {
          const stale = staleStreamsOf(e);
          const moved = stale ? pending.filter((p) => stale.has(p.append.streamId)) : [];
          if (moved.length === 0 || moved.some((p) => !(p.group || p.conflict))) throw e;
          // Each group once, however many of its streams moved; then each stream planned alone.
          const groups = new Map(moved.flatMap((p) => (p.group ? [[p.group.key, p.group.conflict] as const] : [])));
          const alone = moved.filter((p) => !p.group);
          pending = pending.filter((p) => !(p.group ? groups.has(p.group.key) : alone.includes(p)));
          for (const conflict of groups.values()) await conflict();
          for (const p of alone) await p.conflict!();
        }
      }
    }
  }

  /** Appends a link's planned events expecting its revision; on a conflict re-reads the stream and plans again. */
  async appendPlanned<P extends { events: PendingEvent[] }>(link: LinkRow, plan: (facts: LinkFacts) => P): Promise<P> {
    let facts: LinkRow = link;
    for (let attempt = 0; ; attempt++) {
      const p = plan(facts);
      if (p.events.length === 0) return p;
      this.assertHeld();
      try {
        const events = p.events.map((e) => this.s.registry.encode(e.type, e.data, this.meta));
        const expectedRevision = facts.revision >= 0n ? facts.revision : 'no_stream';
        const r = await withBatchReferences(this.s.pool, linkEventReferences(events), () => this.s.store.appendToStream(linkStreamId(link.id), events, { expectedRevision }));
        this.appended += p.events.length;
        this.note(r.position);
        link.revision = r.nextRevision;
        return p;
      } catch (e) {
        if (!(e instanceof AppError && e.code === EventStoreErrors.WRONG_REVISION) || attempt >= 3) throw e;
        facts = await this.reload(link.id);
        link.revision = facts.revision;
        link.familyId = facts.familyId;
      }
    }
  }

  /** A link as its stream says now; a family the read models no longer hold (deleted or merged away) counts as none. */
  async reload(linkId: string): Promise<LinkRow> {
    const events = await this.s.store.readStream(linkStreamId(linkId));
    let st = initialLinkState();
    for (const e of events) st = evolveLink(st, asStreamEvent<LinkEvent>(this.s.registry.decode(e)));
    if (st.familyId && (await this.s.pool.query(`SELECT 1 FROM families WHERE id = $1`, [st.familyId])).rowCount === 0) st = { ...st, familyId: null };
    return {
      id: linkId,
      name: st.name,
      detail: st.detail,
      parsed: st.parsed,
      tags: st.tags,
      tagsManual: st.tagsManual,
      familyId: st.familyId,
      revision: events.length ? events[events.length - 1]!.revision : -1n,
    };
  }
}

/** Consecutive chunks of about `size` streams; a group's streams (adjacent, as planned) stay in one chunk. */
function chunksOfWholeGroups(planned: readonly Planned[], size: number): Planned[][] {
  const chunks: Planned[][] = [];
  let current: Planned[] = [];
  for (let i = 0; i < planned.length;) {
    const key = planned[i]!.group?.key;
    let j = i + 1;
    if (key !== undefined) while (j < planned.length && planned[j]!.group?.key === key) j++;
    if (current.length > 0 && current.length + (j - i) > size) {
      chunks.push(current);
      current = [];
    }
    current.push(...planned.slice(i, j));
    i = j;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

function moveEvents(linkId: string, current: string | null, familyId: string): PendingEvent[] {
  if (current === familyId) return [];
  const events: PendingEvent[] = [];
  if (current) events.push({ type: 'LinkLeftFamily', data: { linkId, familyId: current } });
  events.push({ type: 'LinkJoinedFamily', data: { linkId, familyId } });
  return events;
}
