/**
 * Organisation (docs/domain.md, Organisation; in that order): backfill the parsed columns, derive tags (never
 * over manual ones), auto-group links into families, consolidate pure fragment families; the catalog
 * projection then recomputes every family it touched, and a full recompute checks every family
 * (./full-recompute.ts). It answers a report when it has finished. Running it twice changes nothing
 * the second time. One run at a time across processes; each run is recorded as it goes (./runs.ts).
 */
import type { AdminDeps } from '../commands';
import type { Pool } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { holdSessionLock, type HeldLock } from '../../platform/locks';
import { eventMetadata } from '../../platform/events/registry';
import { type AppendResult, type EventMetadata, type LogPosition, type StreamAppend, EventStoreErrors, comparePositions } from '../../platform/event-store/port';
import { newId } from '../../platform/ids';
import { asStreamEvent, loadStream, type PendingEvent } from '../../platform/commands';
import { familyStreamId } from '../families/events';
import { familyStream } from '../families/state';
import { linkStreamId, type DimensionValues, type LinkDetail, type LinkEvent } from '../links/events';
import { evolveLink, initialLinkState } from '../links/state';
import { DIMENSIONS, type Dimension } from '../domain/tags';
import { compareIds } from '../domain/matrix';
import { linkNameProblem } from '../domain/names';
import { ensureDimensionTags } from '../links/dimension-tags';
import { decideConsolidation, decideGrouping, type FamilyFacts, type GroupingLink } from './group';
import { LINK_PLAN_RULES, missingForMatrix, planLink, type LinkFacts, type LinkPlan } from './plan';
import { recomputeAllFamilies } from './full-recompute';
import { ORGANISE_LOCK, PgOrganiseRuns } from './runs';
import type { OrganiseKind, OrganiseProgress, OrganiseReport as SharedOrganiseReport } from '../../../web/shared/responses/organise';

// What the status and runs endpoints answer, declared once for the service and the admin client.
export type OrganiseReport = SharedOrganiseReport<Dimension>;
export type { OrganiseKind, OrganiseProgress };

const LOCK = ORGANISE_LOCK;

/** Where runs are recorded as they go (./runs.ts keeps them in the database, for every process to read). */
export interface OrganiseRunRecorder {
  /** A run starts, under the organisation lock; `read` says where it is at any time. */
  open(kind: OrganiseKind, by: string, read: () => { progress: OrganiseProgress; report: OrganiseReport | null }): Promise<RecordedRun>;
}

export interface RecordedRun {
  readonly id: string;
  /** Records how the run ended (as `read` says); called before the lock is let go. */
  finish(): Promise<void>;
}

const PREFIXES = ['link-', 'family-', 'good-'];
const WAIT_STREAMS = ['link-0', 'family-0', 'good-0'];
const CATCH_UP_LIMIT_MS = 30 * 60_000;
/** Links read per query, and streams per multi-stream append (tests make them small). */
export interface OrganiseChunks {
  read: number;
  append: number;
}
const CHUNKS: OrganiseChunks = { read: 5_000, append: 1_000 };

interface LinkRow extends LinkFacts {
  revision: bigint;
  familyId: string | null;
}

/** A link as `readLinks` reads it: whether its stamp holds, and the hash of its inputs to stamp it with. */
interface ReadLink extends LinkRow {
  /**
   * Its stamp matches: this step already left its parsed columns and tags as the present rules make
   * them from its present inputs, and it has a family (so grouping needs nothing of it). Its detail
   * is not read and it is not planned again.
   */
  settled: boolean;
  planInputs: string;
}

/** One stream's part of a multi-stream append, and what to do when its stream moved meanwhile. */
interface Planned {
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

/** What a run decides and reports as it goes. */
interface RunState {
  report: OrganiseReport;
  touched: Set<string>;
  links: Map<string, { revision: bigint; familyId: string | null }>;
  meta: EventMetadata;
}

/** A family that moved after the run read it is decided on again this many times, then left alone. */
const FAMILY_ATTEMPTS = 3;

/** What organising reads and appends through: the read models, the store, the wait for the projections. */
export type OrganiseDeps = AdminDeps;

export class Organiser {
  /** events this run appended (the rows it rewrote, roughly), for the planner statistics' refresh */
  private appended = 0;
  progress: OrganiseProgress = { state: 'idle', phase: null, done: 0, total: 0, startedAt: null, finishedAt: null, error: null };
  private last: LogPosition | null = null;
  private lock: HeldLock | null = null;
  /** the running run's report as far as it has got, for its record */
  private report: OrganiseReport | null = null;

  constructor(
    private readonly s: OrganiseDeps,
    private readonly chunks: OrganiseChunks = CHUNKS,
    private readonly runs: OrganiseRunRecorder = new PgOrganiseRuns(s.pool),
  ) {}

  /**
   * `groupOnly`: the auto-group step alone, over links organisation has already parsed. `onRun`
   * hears the id of the run's record (./runs.ts) once it is written. One run at a time across
   * processes (a session lock); a run whose lock connection is lost stops before its next append,
   * since another run may have started.
   */
  async organise(by: string, opts: { groupOnly?: boolean; onRun?: (runId: string) => void } = {}): Promise<OrganiseReport> {
    const lock = await holdSessionLock(this.s.pool, LOCK);
    if (!lock) throw AppError.conflict('ORGANISE.ALREADY_RUNNING', 'organisation is already running');
    this.lock = lock;
    let recorded: RecordedRun | null = null;
    try {
      this.progress = { state: 'running', phase: 'parse', done: 0, total: 0, startedAt: new Date().toISOString(), finishedAt: null, error: null };
      this.report = null;
      recorded = await this.runs.open(opts.groupOnly ? 'auto_group' : 'organise', by, () => ({ progress: this.progress, report: this.report }));
      opts.onRun?.(recorded.id);
      const report = await this.run(eventMetadata(by, opts.groupOnly ? 'AutoGroup' : 'Organise'), !!opts.groupOnly);
      this.progress = { ...this.progress, state: 'succeeded', phase: null, finishedAt: new Date().toISOString() };
      return report;
    } catch (e) {
      this.progress = { ...this.progress, state: 'failed', finishedAt: new Date().toISOString(), error: e instanceof Error ? e.message : String(e) };
      throw e;
    } finally {
      // Recorded before the lock goes: a run's row reads `running` only while its lock is held.
      await recorded?.finish();
      this.lock = null;
      await lock.release();
    }
  }

  /**
   * Organisation decides on the read models, so each step waits until they show everything appended
   * so far, however long that takes (a command's wait is bounded; a large organisation's catch-up can
   * outlast it). It gives up with a 503 only after CATCH_UP_LIMIT_MS.
   */
  private async catchUp(): Promise<void> {
    const head = this.last ?? (await this.s.store.headPosition(PREFIXES));
    const deadline = Date.now() + CATCH_UP_LIMIT_MS;
    while (!(await this.s.waitForProjections(head, WAIT_STREAMS))) {
      if (Date.now() > deadline) throw AppError.unavailable('ORGANISE.PROJECTIONS_BEHIND', 'the catalog projection did not catch up; organisation stopped');
    }
  }

  private note(p: LogPosition): void {
    if (!this.last || comparePositions(p, this.last) > 0) this.last = p;
  }

  /**
   * The run is a pure plan over the read models, appended in multi-stream appends of `chunks.append`
   * streams, each stream at the revision the plan was made against (a link or family that moved
   * meanwhile is re-read and planned again alone: never a lost update). Links are read in chunks,
   * and only what planning needs of them (the variants of their detail, not the detail).
   */
  private async run(meta: EventMetadata, groupOnly: boolean): Promise<OrganiseReport> {
    const report: OrganiseReport = { parsed: 0, derived: 0, attached: 0, created: 0, merged: 0, unchanged: 0, repaired: 0, unparseable: [], incomplete: [], lockedSkipped: [], review: [] };
    this.report = report;
    this.last = null;
    this.appended = 0;
    await this.catchUp();
    this.progress.total = Number((await this.s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM origin_goods`)).rows[0]!.n);
    const touched = new Set<string>();
    /** what the later steps need of every link: its revision and family, as this run leaves them */
    const links = new Map<string, { revision: bigint; familyId: string | null }>();
    const organised: GroupingLink[] = [];
    const values: Record<Dimension, Set<string>> = { size: new Set(), color: new Set(), printCount: new Set(), craft: new Set(), logistics: new Set() };

    // 1–2. Parsed columns and tags.
    /** the links planned this run whose names parse, with their inputs as read: stamped at the end */
    const toStamp: { id: string; inputs: string }[] = [];
    for await (const chunk of readLinks(this.s.pool, this.chunks.read)) {
      const planned: Planned[] = [];
      const plans = new Map<string, LinkPlan>();
      for (const link of chunk) {
        links.set(link.id, { revision: link.revision, familyId: link.familyId });
        if (groupOnly) {
          if (link.parsed && !link.familyId) organised.push({ id: link.id, ...link.parsed });
          for (const d of DIMENSIONS) for (const v of link.tags?.[d] ?? []) values[d].add(v);
          continue;
        }
        if (link.settled) continue;
        const plan = planLink(link);
        if (plan.parsed) toStamp.push({ id: link.id, inputs: link.planInputs });
        plans.set(link.id, plan);
        if (plan.events.length) {
          planned.push({
            append: this.linkAppend(link.id, plan.events, link.revision, meta),
            done: (r) => (links.get(link.id)!.revision = r.nextRevision),
            conflict: async () => {
              const again = await this.appendPlanned(link, meta, (facts) => planLink(facts));
              plans.set(link.id, again);
              links.set(link.id, { revision: link.revision, familyId: link.familyId });
            },
          });
        }
      }
      await this.appendAll(planned);
      for (const link of chunk) {
        if (link.settled && !groupOnly) {
          // As planLink would answer: no events, its stored tags, its name parsed into its family.
          for (const d of DIMENSIONS) for (const v of link.tags?.[d] ?? []) values[d].add(v);
          const missing = missingForMatrix(link.tags);
          if (missing.length) report.incomplete.push({ id: link.id, name: link.name, missing });
          continue;
        }
        const plan = plans.get(link.id);
        if (!plan) continue;
        if (plan.parsedChanged) report.parsed++;
        if (plan.derivedChanged) report.derived++;
        if (plan.events.length) touched.add(link.id);
        for (const d of DIMENSIONS) for (const v of plan.tags?.[d] ?? []) values[d].add(v);
        if (!plan.parsed) report.unparseable.push({ id: link.id, name: link.name, problem: linkNameProblem(link.name) ?? undefined });
        else {
          if (plan.missing.length) report.incomplete.push({ id: link.id, name: link.name, missing: plan.missing });
          if (!links.get(link.id)!.familyId) organised.push({ id: link.id, ...plan.parsed });
        }
      }
      this.progress.done += chunk.length;
    }

    // Every derived value gets its tag (in its dimension's tag group), so administrators and the
    // storefront see link tags as tags.
    await ensureDimensionTags(this.s, Object.fromEntries(DIMENSIONS.map((d) => [d, [...values[d]]])), { by: meta.by, correlationId: meta.correlationId });

    // 3. Auto-group: new families, and each family's joining links, appended together, an existing
    // family at the revision it was decided on (one locked meanwhile is left alone and reported).
    this.progress.phase = 'group';
    const run: RunState = { report, touched, links, meta };
    const families = await loadFamilies(this.s.pool);
    const revisions = new Map(families.map((f) => [f.id, f.revision]));
    const decisions = decideGrouping(organised, families);
    const created = new Map<string, { id: string; name: string }>(); // key → new family
    const joins = new Map<string, string[]>(); // family → links joining it
    for (const d of decisions) {
      if (d.kind === 'lockedSkipped') {
        report.lockedSkipped.push({ id: d.linkId, familyId: d.familyId });
        continue;
      }
      if (d.kind === 'create') {
        created.set(d.key, { id: newId(), name: d.name });
        report.created++;
      } else if (!d.familyId.startsWith('new:')) report.attached++;
      const familyId = d.kind === 'create' ? created.get(d.key)!.id : d.familyId.startsWith('new:') ? created.get(d.familyId.slice(4))!.id : d.familyId;
      let list = joins.get(familyId);
      if (!list) joins.set(familyId, (list = []));
      list.push(d.linkId);
    }
    const newFamilies = new Map([...created].map(([key, f]) => [f.id, { ...f, key }]));
    this.progress.done = 0;
    this.progress.total = decisions.length;
    let batch: Planned[] = [];
    let batchLinks = 0;
    for (const [familyId, ids] of joins) {
      const fresh = newFamilies.get(familyId);
      batch.push(
        ...this.joinPlanned(run, familyId, ids, fresh ? { create: { name: fresh.name, key: fresh.key } } : { revision: revisions.get(familyId)! }, 1),
      );
      batchLinks += ids.length;
      if (batch.length >= this.chunks.append) {
        await this.appendAll(batch);
        this.progress.done += batchLinks;
        batch = [];
        batchLinks = 0;
      }
    }
    await this.appendAll(batch);
    this.progress.done += batchLinks + report.lockedSkipped.length;

    // 4. Consolidate pure fragments into the family that has goods (whose id is public).
    this.progress.phase = 'consolidate';
    await this.catchUp();
    const settled = groupOnly ? [] : await loadFamilies(this.s.pool);
    const settledRevisions = new Map(settled.map((f) => [f.id, f.revision]));
    for (const c of decideConsolidation(settled)) {
      if (c.kind === 'review') {
        report.review.push({ familyId: c.familyId, reason: c.reason });
        continue;
      }
      const members = (await this.s.pool.query<{ id: string }>(`SELECT id FROM origin_goods WHERE family_id = $1 ORDER BY id`, [c.fragmentId])).rows.map((r) => r.id);
      const merged = await this.merge(run, c.fragmentId, c.intoFamilyId, members, settledRevisions, 1);
      if (!merged) continue;
      for (const l of merged) touched.add(l);
      report.merged++;
    }

    // 5. The catalog projection recomputes each family these events touched; then every family is
    // checked against a recompute (the grouping step alone leaves that to organisation); answer once
    // the projection has recomputed what the check found.
    this.progress.phase = 'recompute';
    await this.catchUp();
    // The projection now shows what this run appended: stamp the links planned from what they still hold.
    await stampLinks(this.s.pool, toStamp);
    if (!groupOnly) {
      const full = await recomputeAllFamilies(this.s, meta, {
        progress: (done, total) => Object.assign(this.progress, { done, total }),
        beforeAppend: () => this.lock?.assertHeld(),
      });
      report.repaired = full.repaired.length;
      if (full.position) {
        this.note(full.position);
        await this.catchUp();
      }
    }
    report.unchanged = links.size - touched.size;
    // The run rewrote the rows of every link and family it touched: the planner learns what they hold now.
    await this.s.refreshStatistics?.(WAIT_STREAMS, this.appended);
    // Finished: the progress counts the run's links again (the grouping step counted its decisions).
    this.progress.done = this.progress.total = links.size;
    const byIdOrder = (a: { id: string }, b: { id: string }) => compareIds(a.id, b.id);
    report.unparseable.sort(byIdOrder);
    report.incomplete.sort(byIdOrder);
    report.lockedSkipped.sort(byIdOrder);
    return report;
  }

  private linkAppend(linkId: string, events: readonly PendingEvent[], revision: bigint, meta: EventMetadata): StreamAppend {
    return {
      streamId: linkStreamId(linkId),
      events: events.map((e) => this.s.registry.encode(e.type, e.data, meta)),
      expectedRevision: revision >= 0n ? revision : 'no_stream',
    };
  }

  /**
   * A family's record of its new members (created first, for a new family) and its links' moves, as
   * one group: an existing family at the revision the decision was made on, each link at the
   * revision this run knows it at. If any of them moved meanwhile, the group is decided again on
   * what the streams say now (`rejoin`).
   */
  private joinPlanned(run: RunState, familyId: string, ids: readonly string[], family: { create: { name: string; key: string } } | { revision: bigint }, attempt: number): Planned[] {
    const { meta } = run;
    const events = [
      ...('create' in family
        ? [this.s.registry.encode('FamilyCreated', { familyId, name: family.create.name, familyNameKey: family.create.key, autoManaged: true, locked: false }, meta)]
        : []),
      // The family's own record of who joined (for its history); the link streams hold the membership.
      ...ids.map((linkId) => this.s.registry.encode('FamilyMemberAdded', { familyId, linkId }, meta)),
    ];
    const group = { key: `join:${familyId}`, conflict: () => this.rejoin(run, familyId, ids, family, attempt) };
    for (const linkId of ids) run.touched.add(linkId);
    return [
      { append: { streamId: familyStreamId(familyId), events, expectedRevision: 'create' in family ? 'no_stream' : family.revision }, group },
      ...ids.map((linkId) => ({ ...this.movePlanned(linkId, run.links, familyId, run.meta), group })),
    ];
  }

  /**
   * A join group one of whose streams moved: each link is read again, and one that is no longer
   * where this run read it (an administrator moved it meanwhile) is left alone and listed for
   * review; the family is read again, and while it still takes links the rest join it at the
   * revisions read now. A family locked, merged or deleted meanwhile (or still moving after
   * FAMILY_ATTEMPTS) takes none of them: they are reported as skipped.
   */
  private async rejoin(run: RunState, familyId: string, ids: readonly string[], family: { create: { name: string; key: string } } | { revision: bigint }, attempt: number): Promise<void> {
    const still = await this.stillWhereRead(run, ids, (id) => run.links.get(id)!.familyId);
    const left = ids.filter((id) => !still.includes(id));
    for (const id of left) run.touched.delete(id);
    if (!('create' in family)) run.report.attached -= left.length;
    const f = await loadStream(this.s, familyStream(familyId));
    const exists = 'create' in family ? f.revision !== null : true;
    const takesLinks = !exists || (f.state.exists && !f.state.gone && f.state.autoManaged && !f.state.locked);
    if (still.length && takesLinks && attempt < FAMILY_ATTEMPTS) {
      // A new family that was not created yet is created now; one that was is joined at its revision.
      const next = exists && f.revision !== null ? { revision: f.revision } : family;
      await this.appendAll(this.joinPlanned(run, familyId, still, next, attempt + 1));
      return;
    }
    for (const id of still) {
      run.touched.delete(id);
      run.report.lockedSkipped.push({ id, familyId });
    }
    if ('create' in family && !exists) run.report.created--; // never created: no link is left to found it
    else if (!('create' in family)) run.report.attached -= still.length;
  }

  /**
   * Of `ids`, those whose family is still the one `assumed` says this run read (their revisions
   * brought up to date); each other one is listed for review with where it is now. Organisation
   * never overrides a membership that changed after it read it.
   */
  private async stillWhereRead(run: RunState, ids: readonly string[], assumed: (id: string) => string | null): Promise<string[]> {
    const still: string[] = [];
    for (const id of ids) {
      const now = await this.reload(id);
      if (now.familyId !== assumed(id)) {
        run.report.review.push({ linkId: id, familyId: now.familyId, reason: 'MEMBERSHIP_CHANGED' });
        continue;
      }
      run.links.set(id, { revision: now.revision, familyId: now.familyId });
      still.push(id);
    }
    return still;
  }

  /**
   * Merges a fragment into the family that keeps its id: the fragment's members move, the target
   * records them, the fragment records the merge, as one group, both families at the revisions the
   * consolidation was decided on (`revisions`, advanced by each merge this run appends, so a second
   * fragment merges into the same target in the same run). If either family moved meanwhile (locked,
   * given goods or prices, merged), the fragment is left for review (`CHANGED`); if only a member
   * link moved, that link is left alone and listed, and the rest merge. Answers the links moved, or
   * null when nothing was merged.
   */
  private async merge(run: RunState, fragmentId: string, intoFamilyId: string, members: readonly string[], revisions: Map<string, bigint>, attempt: number): Promise<string[] | null> {
    const { meta } = run;
    let outcome: string[] | null = [...members];
    const group = {
      key: `merge:${fragmentId}`,
      conflict: async () => {
        outcome = null;
        const [fragment, into] = [await this.s.store.streamRevision(familyStreamId(fragmentId)), await this.s.store.streamRevision(familyStreamId(intoFamilyId))];
        if (fragment !== revisions.get(fragmentId) || into !== revisions.get(intoFamilyId) || attempt >= FAMILY_ATTEMPTS) {
          run.report.review.push({ familyId: fragmentId, reason: 'CHANGED' });
          return;
        }
        const still = await this.stillWhereRead(run, members, () => fragmentId);
        outcome = await this.merge(run, fragmentId, intoFamilyId, still, revisions, attempt + 1);
      },
    };
    await this.appendAll([
      ...members.map((linkId) => ({ ...this.movePlanned(linkId, run.links, intoFamilyId, meta, fragmentId), group })),
      {
        append: {
          streamId: familyStreamId(intoFamilyId),
          events: members.map((linkId) => this.s.registry.encode('FamilyMemberAdded', { familyId: intoFamilyId, linkId }, meta)),
          expectedRevision: revisions.get(intoFamilyId)!,
        },
        done: (r) => revisions.set(intoFamilyId, r.nextRevision),
        group,
      },
      {
        append: {
          streamId: familyStreamId(fragmentId),
          events: [this.s.registry.encode('FamilyMergedInto', { familyId: fragmentId, intoFamilyId }, meta)],
          expectedRevision: revisions.get(fragmentId)!,
        },
        done: (r) => revisions.set(fragmentId, r.nextRevision),
        group,
      },
    ]);
    return outcome;
  }

  /**
   * A link leaves its family (if any) and joins `familyId`, at the revision this run knows it at;
   * `from`: the family it is in as the decision read it (by default, as this run read it).
   */
  private movePlanned(linkId: string, links: Map<string, { revision: bigint; familyId: string | null }>, familyId: string, meta: EventMetadata, from?: string): Planned {
    const known = links.get(linkId)!;
    const events = moveEvents(linkId, from !== undefined ? from : known.familyId, familyId);
    return {
      append: this.linkAppend(linkId, events, known.revision, meta),
      done: (r) => links.set(linkId, { revision: r.nextRevision, familyId }),
    };
  }

  /**
   * Appends every planned stream, about `chunks.append` streams per multi-stream append, a group
   * never split between two appends (it stands or falls whole). A stream that moved since it was
   * planned (`WRONG_REVISION` naming it) leaves the append with its whole group, which its `conflict`
   * decides again, or alone, done again by its own `conflict`; the others are appended again (a
   * store that appends stream by stream kept those before the conflict, and their events sent again
   * are a no-op).
   */
  private async appendAll(planned: readonly Planned[]): Promise<void> {
    for (const chunk of chunksOfWholeGroups(planned.filter((p) => p.append.events.length > 0), this.chunks.append)) {
      this.lock?.assertHeld();
      let pending = chunk;
      while (pending.length) {
        try {
          const results = await this.s.store.appendToStreams(pending.map((p) => p.append));
          this.appended += pending.reduce((n, p) => n + p.append.events.length, 0);
          results.forEach((r, k) => {
            this.note(r.position);
            pending[k]!.done?.(r);
          });
          break;
        } catch (e) {
          const streamId = e instanceof AppError && e.code === EventStoreErrors.WRONG_REVISION ? (e.details as { streamId?: string } | undefined)?.streamId : undefined;
          const moved = pending.find((p) => p.append.streamId === streamId);
          if (!moved || !(moved.group || moved.conflict)) throw e;
          if (moved.group) {
            const { key, conflict } = moved.group;
            pending = pending.filter((p) => p.group?.key !== key);
            await conflict();
          } else {
            pending = pending.filter((p) => p !== moved);
            await moved.conflict!();
          }
        }
      }
    }
  }

  /** Appends a link's planned events expecting its revision; on a conflict re-reads the stream and plans again. */
  private async appendPlanned<P extends { events: PendingEvent[] }>(link: LinkRow, meta: EventMetadata, plan: (facts: LinkFacts) => P): Promise<P> {
    let facts: LinkRow = link;
    for (let attempt = 0; ; attempt++) {
      const p = plan(facts);
      if (p.events.length === 0) return p;
      this.lock?.assertHeld();
      try {
        const r = await this.s.store.appendToStream(
          linkStreamId(link.id),
          p.events.map((e) => this.s.registry.encode(e.type, e.data, meta)),
          { expectedRevision: facts.revision >= 0n ? facts.revision : 'no_stream' },
        );
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
  private async reload(linkId: string): Promise<LinkRow> {
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
  for (let i = 0; i < planned.length; ) {
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

/**
 * What the per-link step left in a link's row (its parsed columns and tags), as text: with
 * `plan_inputs_md5` (migration 029), what a link's stamp hashes.
 */
const PLAN_OUTPUTS = `quote_nullable(og.parsed_country) || quote_nullable(og.parsed_logistics) || quote_nullable(og.parsed_product_name) ||
  quote_nullable(og.parsed_sku) || quote_nullable(og.family_name_key) || '|' || coalesce(og.tags::text, '')`;
const LINK_STAMP = `md5($3::text || '#' || og.plan_inputs_md5 || '#' || ${PLAN_OUTPUTS})`;

/**
 * Every link, `chunk` at a time in id order, with what planning needs (of the detail: the variants'
 * sizes and colours, and only for links whose stamp does not hold: reading every detail was most of
 * a run with nothing to do).
 */
async function* readLinks(pool: Pool, chunk: number): AsyncGenerator<ReadLink[]> {
  for (let after = '-1'; ; ) {
    const r = await pool.query<{
      id: string;
      name: string;
      revision: string;
      has_detail: boolean;
      sizes: string[];
      colors: string[];
      parsed_country: string | null;
      parsed_logistics: string;
      parsed_product_name: string;
      parsed_sku: string;
      family_name_key: string;
      tags: DimensionValues | null;
      tags_manual: boolean;
      family_id: string | null;
      plan_inputs_md5: string;
      settled: boolean;
    }>(
      // The stamp compared once per link; the variants read (in one pass) only where it does not hold.
      `SELECT og.id, og.name, og.revision, og.detail IS NOT NULL AS has_detail, coalesce(d.sizes, '{}') AS sizes, coalesce(d.colors, '{}') AS colors,
              og.parsed_country, og.parsed_logistics, og.parsed_product_name, og.parsed_sku, og.family_name_key, og.tags, og.tags_manual, f.id AS family_id,
              og.plan_inputs_md5, st.settled
         FROM origin_goods og
         LEFT JOIN link_plan_stamps ps ON ps.link_id = og.id
         -- A family deleted or merged away is no family: its link is grouped again like any other.
         LEFT JOIN families f ON f.id = og.family_id
        CROSS JOIN LATERAL (SELECT coalesce(ps.stamp = ${LINK_STAMP} AND og.parsed_country IS NOT NULL AND f.id IS NOT NULL, false) AS settled) st
         LEFT JOIN LATERAL (SELECT array_agg(v.x->>'size' ORDER BY v.n) AS sizes, array_agg(v.x->>'color' ORDER BY v.n) AS colors
                              FROM jsonb_array_elements(og.detail->'variants') WITH ORDINALITY AS v(x, n) WHERE NOT st.settled) d ON true
        WHERE og.id > $1 ORDER BY og.id LIMIT $2`,
      [after, chunk, LINK_PLAN_RULES],
    );
    if (r.rows.length === 0) return;
    after = r.rows[r.rows.length - 1]!.id;
    yield r.rows.map((row) => ({
      id: row.id,
      name: row.name,
      revision: BigInt(row.revision),
      detail: row.has_detail ? { variants: row.sizes.map((size, i) => ({ size, color: row.colors[i]! })) } : null,
      parsed: row.parsed_country
        ? { country: row.parsed_country, logistics: row.parsed_logistics, productName: row.parsed_product_name, sku: row.parsed_sku, familyNameKey: row.family_name_key }
        : null,
      tags: row.tags,
      tagsManual: row.tags_manual,
      familyId: row.family_id,
      settled: row.settled,
      planInputs: row.plan_inputs_md5,
    }));
  }
}

/**
 * Stamps links this run planned, once the projection shows what it appended: each only if its inputs
 * are still the ones it was planned from (a link changed meanwhile is planned again next time). Its
 * parsed columns and tags are then what the plan made of them, since only organisation writes them.
 */
async function stampLinks(pool: Pool, planned: readonly { id: string; inputs: string }[]): Promise<void> {
  for (let i = 0; i < planned.length; i += STAMP_CHUNK) {
    const part = planned.slice(i, i + STAMP_CHUNK);
    await pool.query(
      `INSERT INTO link_plan_stamps (link_id, stamp)
       SELECT og.id, ${LINK_STAMP}
         FROM unnest($1::bigint[], $2::text[]) AS p(id, inputs) JOIN origin_goods og ON og.id = p.id AND og.plan_inputs_md5 = p.inputs
       ON CONFLICT (link_id) DO UPDATE SET stamp = EXCLUDED.stamp WHERE link_plan_stamps.stamp IS DISTINCT FROM EXCLUDED.stamp`,
      [part.map((p) => p.id), part.map((p) => p.inputs), LINK_PLAN_RULES],
    );
  }
}
const STAMP_CHUNK = 10_000;

/** The families as the read model shows them, with their stream revisions (the row's revision is its stream's). */
async function loadFamilies(pool: Pool): Promise<(FamilyFacts & { revision: bigint })[]> {
  const r = await pool.query<{ id: string; family_name_key: string | null; auto_managed: boolean; locked: boolean; good_count: number; overrides: string; revision: string }>(
    `SELECT f.id, f.family_name_key, f.auto_managed, f.locked, f.good_count, f.revision,
            (SELECT count(*) FROM family_overrides o WHERE o.family_id = f.id) AS overrides
       FROM families f ORDER BY f.id`,
  );
  return r.rows.map((f) => ({
    id: f.id,
    familyNameKey: f.family_name_key,
    autoManaged: f.auto_managed,
    locked: f.locked,
    goodCount: f.good_count,
    overrideCount: Number(f.overrides),
    revision: BigInt(f.revision),
  }));
}
