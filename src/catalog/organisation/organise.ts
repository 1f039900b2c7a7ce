/**
 * Organisation (docs/domain.md, Organisation), as the sequence of its steps: backfill the parsed
 * columns and derive tags (never over manual ones) (./step-plan.ts), auto-group links into families
 * (./step-group.ts), consolidate pure fragment families (./step-consolidate.ts); the catalog
 * projection then recomputes every family it touched, and a full recompute checks every family
 * (./full-recompute.ts). It answers a report when it has finished. Running it twice changes nothing
 * the second time. One run at a time across processes; each run is recorded as it goes (./runs.ts).
 * Each link the run changes gets one LinkOrganised event: a link waiting for a family gets its plan
 * with its family, from the grouping step. What the steps share (the report, the counts, the
 * appends) is the run's context (./run-context.ts); what they read, ./link-reads.ts.
 */
import { AppError } from '../../platform/errors';
import { holdSessionLock } from '../../platform/locks';
import { eventMetadata } from '../../platform/events/registry';
import type { EventMetadata } from '../../platform/event-store/port';
import type { HeldLock } from '../../platform/locks';
import { DIMENSIONS } from '../domain/tags';
import { compareIds } from '../domain/matrix';
import { ensureDimensionTags } from '../links/dimension-tags';
import { recomputeAllFamilies } from './full-recompute';
import { emptyReport, type OrganiseProgress, type OrganiseReport, type OrganiseRunRecorder, type RecordedRun } from './report';
import { RunContext, WAIT_STREAMS, type OrganiseChunks, type OrganiseDeps } from './run-context';
import { ORGANISE_LOCK, PgOrganiseRuns } from './runs';
import { consolidate } from './step-consolidate';
import { groupLinks } from './step-group';
import { planLinks } from './step-plan';

export type { OrganiseProgress, OrganiseReport, OrganiseRunRecorder } from './report';
export type { OrganiseChunks, OrganiseDeps } from './run-context';

const CHUNKS: OrganiseChunks = { read: 5_000, append: 1_000 };

export class Organiser {
  progress: OrganiseProgress = { state: 'idle', phase: null, done: 0, total: 0, startedAt: null, finishedAt: null, error: null };
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
    const lock = await holdSessionLock(this.s.pool, ORGANISE_LOCK);
    if (!lock) throw AppError.conflict('ORGANISE.ALREADY_RUNNING', 'organisation is already running');
    let recorded: RecordedRun | null = null;
    try {
      this.progress = { state: 'running', phase: 'parse', done: 0, total: 0, startedAt: new Date().toISOString(), finishedAt: null, error: null };
      this.report = null;
      recorded = await this.runs.open(opts.groupOnly ? 'auto_group' : 'organise', by, () => ({ progress: this.progress, report: this.report }));
      opts.onRun?.(recorded.id);
      const report = await this.run(eventMetadata(by, opts.groupOnly ? 'AutoGroup' : 'Organise'), !!opts.groupOnly, lock);
      this.progress = { ...this.progress, state: 'succeeded', phase: null, finishedAt: new Date().toISOString() };
      return report;
    } catch (e) {
      this.progress = { ...this.progress, state: 'failed', finishedAt: new Date().toISOString(), error: e instanceof Error ? e.message : String(e) };
      throw e;
    } finally {
      // Recorded before the lock goes: a run's row reads `running` only while its lock is held.
      await recorded?.finish();
      await lock.release();
    }
  }

  /**
   * The run is a pure plan over the read models, step by step, each step waiting until the read
   * models show what the one before appended.
   */
  private async run(meta: EventMetadata, groupOnly: boolean, lock: HeldLock): Promise<OrganiseReport> {
    const report = emptyReport();
    this.report = report;
    const ctx = new RunContext(this.s, meta, this.chunks, this.progress, report, lock);
    await ctx.catchUp();
    this.progress.total = Number((await this.s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM origin_goods`)).rows[0]!.n);

    // 1–2. Parsed columns and tags, appended now for the links that have a family.
    const { waiting, values } = await planLinks(ctx, groupOnly);
    // Every derived value gets its tag (in its dimension's tag group), so administrators and the
    // storefront see link tags as tags.
    await ensureDimensionTags(this.s, Object.fromEntries(DIMENSIONS.map((d) => [d, [...values[d]]])), { by: meta.by, correlationId: meta.correlationId });

    // 3. Auto-group: the links waiting for a family get their plans with it.
    this.progress.phase = 'group';
    await groupLinks(ctx, waiting, groupOnly);

    // 4. Consolidate pure fragments into the family that has goods (whose id is public).
    this.progress.phase = 'consolidate';
    await ctx.catchUp();
    if (!groupOnly) await consolidate(ctx);

    // 5. The catalog projection recomputes each family these events touched; then every family is
    // checked against a recompute (the grouping step alone leaves that to organisation); answer once
    // the projection has recomputed what the check found.
    this.progress.phase = 'recompute';
    await ctx.catchUp();
    if (!groupOnly) {
      const full = await recomputeAllFamilies(this.s, meta, {
        progress: (done, total) => Object.assign(this.progress, { done, total }),
        beforeAppend: () => ctx.assertHeld(),
      });
      report.repaired = full.repaired.length;
      if (full.position) {
        ctx.note(full.position);
        await ctx.catchUp();
      }
    }
    report.unchanged = ctx.read - ctx.touched;
    // The run rewrote the rows of every link and family it touched: the planner learns what they hold now.
    await this.s.refreshStatistics?.(WAIT_STREAMS, ctx.appended);
    // Finished: the progress counts the run's links again (the grouping step counted its decisions).
    this.progress.done = this.progress.total = ctx.read;
    const byIdOrder = (a: { id: string }, b: { id: string }) => compareIds(a.id, b.id);
    report.unparseable.sort(byIdOrder);
    report.incomplete.sort(byIdOrder);
    report.lockedSkipped.sort(byIdOrder);
    return report;
  }
}
