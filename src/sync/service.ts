/**
 * The three synchronisations. Each is a pure mirror: it compares the supplier with what the service
 * recorded and appends events only for differences, so a second run on an unchanged supplier appends
 * nothing. It never parses names and never touches families, and it files no link or subcategory
 * under a category that is not live, holding the reference locks of the categories a batch names
 * while it appends (docs/supplier.md, What the mirror does; docs/api.md, Usage).
 */
import type { Config } from '../config';
import type { AdminDeps } from '../catalog/admin-commands';
import type { Logger } from '../platform/log';
import type { Metrics } from '../platform/metrics';
import { AppError } from '../platform/errors';
import { type AppendResult, type EventStore, type LogPosition, type StreamAppend, EventStoreErrors, comparePositions, staleStreamsOf } from '../platform/event-store/port';
import { eventMetadata } from '../platform/events/registry';
import { categoryStreamId } from '../catalog/categories/events';
import { countryStreamId } from '../catalog/countries/events';
import { linkStreamId } from '../catalog/links/events';
import { SupplierClient, type InvalidItem } from './supplier/client';
import {
  type Decision,
  type LinkMirrorState,
  type MirrorFacts,
  type MirrorState,
  NO_FACTS,
  delistDecision,
  categoriesStillRemoved,
  diffCategory,
  diffCountry,
  diffDetail,
  diffLink,
  emptyLinkMirror,
  evolveLinkMirror,
  linksToDelist,
  missingFrom,
} from './diff';
import { categoryMirrorHash } from '../catalog/categories/mirror';
import { withBatchReferences } from '../catalog/references';
import { contentHash } from '../platform/content-hash';
import { syncEventId } from './event-ids';
import { type RunTracker, type SyncKind, type SyncRunView, getRun, openRun } from './runs';

export interface SyncParams {
  dryRun?: boolean;
  onlyUnsynced?: boolean;
  /**
   * details: only links never synced or whose listing entry the supplier updated after their detail
   * was synced (the scheduled details pass)
   */
  changedOnly?: boolean;
  linkId?: string;
  /** who asked: a user id, or `system:sync` for the schedule */
  by: string;
  /** a listing pass delists however many links it finds missing (past SYNC_DELIST_MAX_SHARE) */
  confirmDelist?: boolean;
}

/** What a synchronisation reads, appends and reports through; the supplier comes as its own client. */
export interface SyncDeps extends AdminDeps {
  config: Pick<Config, 'sync' | 'upstreamPageSize'>;
  log: Logger;
  metrics: Pick<Metrics, 'syncRuns'>;
}

const WHY: Record<SyncKind, string> = { categories: 'SyncCategories', origin_goods: 'SyncOriginGoods', details: 'SyncDetails' };
const PREFIXES: Record<SyncKind, string[]> = { categories: ['category-', 'country-'], origin_goods: ['link-'], details: ['link-'] };
/** Streams per multi-stream append: a page of the listing, or this many details. */
const APPEND_BATCH = 500;
const DETAILS_BATCH = 250;

/** Thrown inside a run when the process is stopping: the run ends before its next batch. */
class SyncStopped extends Error {}

export class SyncService {
  private readonly inFlight = new Map<string, Promise<SyncRunView>>();
  private stopping = false;

  constructor(
    private readonly s: SyncDeps,
    private readonly client: SupplierClient,
  ) {}

  /** Opens a run (409 when one of its kind runs) and works on it in the background. */
  async start(kind: SyncKind, params: SyncParams): Promise<{ runId: string; finished: Promise<SyncRunView> }> {
    if (params.linkId) {
      const exists = await this.s.pool.query(`SELECT 1 FROM origin_goods WHERE id = $1`, [params.linkId]);
      if (!exists.rowCount) throw AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${params.linkId}`);
    }
    const run = await openRun(this.s.pool, kind, {
      dryRun: !!params.dryRun,
      startedBy: params.by,
      params: {
        onlyUnsynced: !!params.onlyUnsynced,
        linkId: params.linkId ?? null,
        ...(params.confirmDelist ? { confirmDelist: true } : {}),
        ...(params.changedOnly ? { changedOnly: true } : {}),
      },
      abandonedAfterS: this.s.config.sync.abandonedAfterS,
    });
    const finished = this.execute(run, params).finally(() => this.inFlight.delete(run.id));
    this.inFlight.set(run.id, finished);
    return { runId: run.id, finished };
  }

  /** Waits for every run this process started. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /**
   * At shutdown: the runs under way end before their next batch (failed, saying why; what they
   * appended stays, and running them again finishes the work), then are waited for.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.drain();
  }

  private async execute(run: RunTracker, params: SyncParams): Promise<SyncRunView> {
    const log = this.s.log.child({ runId: run.id, kind: run.kind });
    const ctx = new AppendContext(this.s, run, params, () => {
      if (this.stopping) throw new SyncStopped();
    });
    let state: 'succeeded' | 'failed' | 'held' = 'succeeded';
    try {
      // Diff against read models that include everything already appended.
      await this.s.waitForProjections(
        await this.s.store.headPosition(PREFIXES[run.kind]),
        PREFIXES[run.kind].map((p) => p + '0'),
      );
      if (run.kind === 'categories') await this.syncCategories(ctx);
      else if (run.kind === 'origin_goods') await this.syncGoods(ctx, params);
      else await this.syncDetails(ctx, params);
      // Answer only once the read models show the run's changes, and the planner knows the rows it
      // rewrote (a first listing or details pass rewrites every link row).
      if (ctx.lastPosition) {
        const streams = PREFIXES[run.kind].map((p) => p + '0');
        await this.s.waitForProjections(ctx.lastPosition, streams);
        const c = run.counts;
        await this.s.refreshStatistics?.(streams, c.created + c.changed + c.delisted + c.relisted);
      }
      if (run.held) state = 'held';
    } catch (e) {
      state = 'failed';
      if (e instanceof SyncStopped) {
        run.error('the service stopped before this run finished; run it again to finish it');
      } else {
        run.error(e instanceof AppError ? `${e.code}: ${e.message}` : 'internal error');
        if (!(e instanceof AppError) || e.status >= 500) log.warn({ err: e }, 'synchronisation failed');
      }
    }
    await run.finish(state);
    this.s.metrics.syncRuns.inc({ kind: run.kind, outcome: state });
    log.info({ state, counts: run.counts }, 'synchronisation finished');
    return (await getRun(this.s.pool, run.id).catch(() => null)) ?? run.view(state, params.by, {});
  }

  private reportInvalid(run: RunTracker, invalid: InvalidItem[], what: string): void {
    for (const i of invalid) {
      run.count({ failed: 1 });
      run.error(`malformed ${what}: ${i.issues.join('; ')}`, i.id);
    }
  }

  private async syncCategories(ctx: AppendContext): Promise<void> {
    const { run } = ctx;
    const [categories, countries] = await Promise.all([this.client.categories(), this.client.countries()]);
    this.reportInvalid(run, countries.invalid, 'country');
    this.reportInvalid(run, categories.invalid, 'category');
    run.total = categories.items.length + countries.items.length;

    const knownCountries = await loadMirror(this.s, `SELECT id, revision, mirror_hash, removed FROM countries`);
    const knownCategories = await loadMirror(this.s, `SELECT id, revision, mirror_hash, removed, parent_id FROM categories`);

    const countryFold = (st: MirrorState | undefined, e: Folded) => foldMirror(st, e, (d) => contentHash(d));
    await ctx.mirrorMany<MirrorState>(
      countries.items.map((c) => ({ streamId: countryStreamId(c.id), known: knownCountries.get(c.id), decide: (st) => diffCountry(st, c), fold: countryFold })),
    );
    run.done += countries.items.length;
    void run.tick();
    // In any order: the projection recomputes levels and inherited icons over the whole tree. Each
    // category names its parent, which is held as a listing entry's category is; a parent this pass
    // brings back is live for the children appended with it.
    await ctx.mirrorMany<MirrorState>(
      categories.items.map((c) => ({
        streamId: categoryStreamId(c.id),
        known: knownCategories.get(c.id),
        decide: (st, facts) => diffCategory(st, c, facts),
        fold: categoryFold,
        ...(c.parentId !== null ? { categoryId: c.parentId } : {}),
      })),
      (removed) => categoriesStillRemoved(categories.items, knownCategories, removed),
    );
    run.done += categories.items.length;
    void run.tick();

    // Removal needs a complete listing: a malformed item without an id makes it incomplete.
    if (!countries.invalid.some((i) => !i.id)) {
      const seen = new Set([...countries.items.map((c) => c.id), ...countries.invalid.flatMap((i) => (i.id ? [i.id] : []))]);
      for (const id of missingFrom(knownCountries, seen)) {
        await ctx.mirror(
          countryStreamId(id),
          knownCountries.get(id),
          () => ({ events: [{ type: 'CountryRemovedUpstream', data: { countryId: id } }], counts: { delisted: 1 } }),
          null,
        );
      }
    }
    if (!categories.invalid.some((i) => !i.id)) {
      const seen = new Set([...categories.items.map((c) => c.id), ...categories.invalid.flatMap((i) => (i.id ? [i.id] : []))]);
      for (const id of missingFrom(knownCategories, seen)) {
        await ctx.mirror(
          categoryStreamId(id),
          knownCategories.get(id),
          () => ({ events: [{ type: 'CategoryRemovedUpstream', data: { categoryId: id } }], counts: { delisted: 1 } }),
          null,
        );
      }
    }
  }

  private async syncGoods(ctx: AppendContext, params: SyncParams): Promise<void> {
    const { run } = ctx;
    const known = await loadLinks(this.s, `SELECT id, revision, mirror_hash, delisted, detail_hash, category_id FROM origin_goods`, []);
    run.total = known.size || null;
    const seen = new Set<string>();
    let complete = true;
    // The next page is fetched while this one is appended (one append in flight): the supplier and
    // the database work at the same time.
    const fetchPage = (cursor: string | null) => quiet(this.client.goodsPage(cursor, this.s.config.upstreamPageSize));
    let next = fetchPage(null);
    let appending: Promise<void> = Promise.resolve();
    for (;;) {
      // A page that fails after the client's retries fails the run: nothing is delisted.
      const page = await next;
      this.reportInvalid(run, page.invalid, 'link');
      for (const i of page.invalid) {
        if (i.id) seen.add(i.id);
        else complete = false;
      }
      const fresh = page.items.filter((l) => !seen.has(l.id));
      for (const l of fresh) seen.add(l.id);
      if (page.nextCursor !== null) next = fetchPage(page.nextCursor);
      await appending;
      appending = quiet(
        ctx
          .mirrorMany<LinkMirrorState>(
            fresh.map((link) => ({
              streamId: linkStreamId(link.id),
              known: known.get(link.id),
              decide: (st, facts) => diffLink(st, link, facts),
              fold: linkFold,
              categoryId: link.categoryId,
            })),
          )
          .then(() => {
            run.done += fresh.length;
            if (run.total !== null && run.done > run.total) run.total = run.done;
            void run.tick();
          }),
      );
      if (page.nextCursor === null) break;
    }
    await appending;
    run.total = run.done;

    if (!complete) {
      run.error('listing pass incomplete (malformed items without an id): nothing delisted');
      return;
    }
    const gone = linksToDelist(known, seen);
    // A supplier that lost most of its listing (an empty page, a truncated export) must not empty the
    // registry: past the share, nothing is delisted until an operator confirms.
    const listed = [...known.values()].filter((k) => !k.delisted && k.mirrorHash !== null).length;
    const maxShare = this.s.config.sync.delistMaxShare;
    if (!params.confirmDelist && gone.length > 0 && gone.length > maxShare * listed) {
      run.held = { wouldDelist: gone.length, listed, maxShare };
      run.error(
        `delisting held: ${gone.length} of ${listed} listed links (${((100 * gone.length) / listed).toFixed(1)} %) are missing from the listing, ` +
          `more than SYNC_DELIST_MAX_SHARE (${(100 * maxShare).toFixed(0)} %); nothing delisted. Run it again with confirmDelist to delist them.`,
      );
      return;
    }
    for (let i = 0; i < gone.length; i += APPEND_BATCH) {
      await ctx.mirrorMany<LinkMirrorState>(
        gone.slice(i, i + APPEND_BATCH).map((id) => ({
          streamId: linkStreamId(id),
          known: known.get(id),
          decide: (st: LinkMirrorState | undefined) => (st && !st.delisted ? delistDecision(id) : { events: [], counts: {} }),
          fold: linkFold,
        })),
      );
    }
  }

  private async syncDetails(ctx: AppendContext, params: SyncParams): Promise<void> {
    const { run } = ctx;
    const where = params.linkId
      ? `id = $1`
      : params.onlyUnsynced
        ? `NOT delisted AND detail_synced_at IS NULL`
        : params.changedOnly
          ? `NOT delisted AND (detail_synced_at IS NULL OR supplier_updated_at > detail_synced_at)`
          : `NOT delisted`;
    const known = await loadLinks(
      this.s,
      `SELECT id, revision, mirror_hash, delisted, detail_hash, category_id FROM origin_goods WHERE ${where} ORDER BY id`,
      params.linkId ? [params.linkId] : [],
    );
    const ids = [...known.keys()];
    run.total = ids.length;
    // Details arrive one by one; they are appended in batches, one batch at a time, and a fetch
    // that fills a batch waits for its append (so memory stays bounded if the database is slower).
    let batch: MirrorItem<LinkMirrorState>[] = [];
    let appended: Promise<void> = Promise.resolve();
    const flush = () => {
      const items = batch;
      batch = [];
      appended = appended.then(() => ctx.mirrorMany(items));
      return appended;
    };
    const report = await this.client.details(ids, async (id, detail) => {
      if (!detail) {
        run.count({ failed: 1 });
        run.error('the supplier no longer has this link (404); the next listing pass delists it', id);
      } else {
        batch.push({ streamId: linkStreamId(id), known: known.get(id), decide: (st) => diffDetail(st ?? emptyLinkMirror(), detail), fold: linkFold });
      }
      run.done++;
      void run.tick();
      if (batch.length >= DETAILS_BATCH) await flush();
    });
    await flush();
    for (const f of report.failed) {
      run.count({ failed: 1 });
      run.error(`${f.error.code}: ${f.error.message}`, f.id);
    }
  }
}

type Folded = { type: string; data: unknown; revision: bigint };
type Fold<S> = (state: S | undefined, e: Folded) => S;

/** One stream's mirror decision: decided against what the read model knows, re-decided on a conflict. */
interface MirrorItem<S> {
  streamId: string;
  known: S | undefined;
  decide: (state: S | undefined, facts: MirrorFacts) => Decision;
  fold: Fold<S> | null;
  /** the category a listing entry files its link under, or a category its parent: held shared while it is appended */
  categoryId?: string;
}

/** Marks a promise handled now (it is awaited later), so a rejection meanwhile is not reported as unhandled. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** Appends decisions for one run: derived event ids, expected revisions, a re-read on conflict. */
class AppendContext {
  lastPosition: LogPosition | null = null;

  constructor(
    private readonly s: Pick<SyncDeps, 'store' | 'registry' | 'pool'>,
    readonly run: RunTracker,
    private readonly params: SyncParams,
    /** throws when the run must stop before its next batch */
    private readonly checkStop: () => void,
  ) {}

  /**
   * Decides against `known` and appends. When the stream moved since (`WRONG_REVISION`: the read
   * model lagged, or someone else appended), it folds the stream itself and decides again.
   */
  async mirror<S extends { revision: bigint }>(
    streamId: string,
    known: S | undefined,
    decide: MirrorItem<S>['decide'],
    fold: Fold<S> | null,
    facts: MirrorFacts = NO_FACTS,
  ): Promise<void> {
    let state = known;
    for (let attempt = 0; ; attempt++) {
      const decision = decide(state, facts);
      if (decision.events.length === 0 || this.run.dryRun) {
        this.record(streamId, decision);
        return;
      }
      const expected = state && state.revision >= 0n ? state.revision : ('no_stream' as const);
      const meta = eventMetadata(this.params.by, WHY[this.run.kind], this.run.id);
      const events = decision.events.map((e, i) => this.s.registry.encode(e.type, e.data, meta, syncEventId(streamId, expected, i, e.type, e.data, e.stable)));
      try {
        const r = await appendOnce(this.s.store, streamId, events, expected);
        this.noteAppended(r);
        this.run.count(decision.counts);
        return;
      } catch (e) {
        if (!(e instanceof AppError && e.code === EventStoreErrors.WRONG_REVISION) || attempt >= 4 || !fold) throw e;
        const stream = await this.s.store.readStream(streamId);
        state = stream.reduce<S | undefined>((st, ev) => fold(st, this.s.registry.decode(ev)), undefined);
      }
    }
  }

  /**
   * Decides every item against what the read model knows and appends all their events in one
   * multi-stream append. The items that append anything are decided again holding shared the
   * reference locks of the categories they file links under (src/catalog/references.ts), on which of
   * those are removed: a delete of one of them counts these links, or is seen here. The streams that
   * moved since (`WRONG_REVISION` names them all) leave the batch at once and each goes through
   * `mirror`, which folds it and decides again; the rest is appended again, in one more append.
   */
  async mirrorMany<S extends { revision: bigint }>(
    items: readonly MirrorItem<S>[],
    /** of the named categories not live in the read models, those still not live once these items are appended */
    stillRemoved: (removed: ReadonlySet<string>) => ReadonlySet<string> = (removed) => removed,
  ): Promise<void> {
    this.checkStop();
    // Facts only ever take events away: an item that appends nothing without them needs no lock.
    const changing: MirrorItem<S>[] = [];
    for (const item of items) {
      const decision = item.decide(item.known, NO_FACTS);
      if (decision.events.length) changing.push(item);
      else this.record(item.streamId, decision);
    }
    if (changing.length === 0) return;
    const categoryIds = changing.flatMap((item) => (item.categoryId ? [item.categoryId] : []));
    const decideAndAppend = async () => {
      const facts: MirrorFacts = { removedCategories: stillRemoved(await removedCategories(this.s.pool, categoryIds)) };
      const meta = eventMetadata(this.params.by, WHY[this.run.kind], this.run.id);
      const ready: { item: MirrorItem<S>; decision: Decision; append: StreamAppend }[] = [];
      for (const item of changing) {
        const decision = item.decide(item.known, facts);
        if (decision.events.length === 0 || this.run.dryRun) {
          this.record(item.streamId, decision);
          continue;
        }
        const expected = item.known && item.known.revision >= 0n ? item.known.revision : ('no_stream' as const);
        const events = decision.events.map((e, i) => this.s.registry.encode(e.type, e.data, meta, syncEventId(item.streamId, expected, i, e.type, e.data, e.stable)));
        ready.push({ item, decision, append: { streamId: item.streamId, events, expectedRevision: expected } });
      }
      let pending = ready;
      while (pending.length) {
        try {
          const results = await this.s.store.appendToStreams(pending.map((r) => r.append));
          for (const r of results) this.noteAppended(r);
          for (const r of pending) this.run.count(r.decision.counts);
          return;
        } catch (e) {
          const stale = staleStreamsOf(e);
          const moved = stale ? pending.filter((r) => stale.has(r.append.streamId)) : [];
          if (moved.length === 0) throw e;
          pending = pending.filter((r) => !moved.includes(r));
          for (const { item } of moved) await this.mirror(item.streamId, item.known, item.decide, item.fold, facts);
        }
      }
    };
    // A dry run appends nothing: it reads the same facts without holding anyone up.
    await (this.run.dryRun ? decideAndAppend() : withBatchReferences(this.s.pool, { categoryIds }, decideAndAppend));
  }

  /** A decision that appends nothing (or is only previewed, in a dry run): its counts, and what it left out. */
  private record(streamId: string, decision: Decision): void {
    this.run.count(decision.counts);
    if (decision.problem) this.run.error(decision.problem.message, decision.problem.item);
    if (this.run.dryRun && decision.events.length) this.run.wouldAppend(streamId, decision.events);
  }

  private noteAppended(r: AppendResult): void {
    if (!this.lastPosition || comparePositions(r.position, this.lastPosition) > 0) this.lastPosition = r.position;
  }
}

function appendOnce(store: EventStore, streamId: string, events: Parameters<EventStore['appendToStream']>[1], expected: bigint | 'no_stream') {
  return store.appendToStream(streamId, events, { expectedRevision: expected });
}

const linkFold = (st: LinkMirrorState | undefined, e: { type: string; data: unknown; revision: bigint }) => evolveLinkMirror(st ?? emptyLinkMirror(), e);

/** Removed by the supplier or deleted by an administrator, as the read model's `removed` says. */
function foldMirror(st: MirrorState | undefined, e: Folded, hash: (data: unknown) => string): MirrorState {
  const base = st ?? { revision: -1n, mirrorHash: null, removed: false };
  if (e.type.endsWith('Mirrored')) return { ...base, revision: e.revision, mirrorHash: hash(e.data), removed: false };
  if (e.type.endsWith('RemovedUpstream') || e.type.endsWith('Deleted')) return { ...base, revision: e.revision, removed: true };
  return { ...base, revision: e.revision };
}

/** A category's mirror state, with the parent the supplier or an administrator last filed it under. */
function categoryFold(st: MirrorState | undefined, e: Folded): MirrorState {
  const next = foldMirror(st, e, (d) => categoryMirrorHash(d as Parameters<typeof categoryMirrorHash>[0]));
  const parentId = (e.data as { parentId?: string | null }).parentId;
  return parentId !== undefined ? { ...next, parentId } : next;
}

async function loadMirror(s: Pick<SyncDeps, 'pool'>, sql: string): Promise<Map<string, MirrorState>> {
  const r = await s.pool.query<{ id: string; revision: string; mirror_hash: string | null; removed: boolean; parent_id?: string | null }>(sql);
  return new Map(
    r.rows.map((row) => [
      row.id,
      { revision: BigInt(row.revision), mirrorHash: row.mirror_hash, removed: row.removed, ...(row.parent_id !== undefined ? { parentId: row.parent_id } : {}) },
    ]),
  );
}

async function loadLinks(s: Pick<SyncDeps, 'pool'>, sql: string, params: unknown[]): Promise<Map<string, LinkMirrorState>> {
  const r = await s.pool.query<{ id: string; revision: string; mirror_hash: string | null; delisted: boolean; detail_hash: string | null; category_id: string | null }>(
    sql,
    params,
  );
  return new Map(
    r.rows.map((row) => [
      row.id,
      { revision: BigInt(row.revision), mirrorHash: row.mirror_hash, delisted: row.delisted, detailHash: row.detail_hash, categoryId: row.category_id },
    ]),
  );
}

/** Of these categories, those that are not live (deleted by an administrator, or removed by the supplier). */
async function removedCategories(pool: SyncDeps['pool'], ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const r = await pool.query<{ id: string }>(`SELECT id::text FROM categories WHERE id = ANY($1::bigint[]) AND removed`, [[...new Set(ids)]]);
  return new Set(r.rows.map((row) => row.id));
}

export function createSupplierClient(s: Pick<SyncDeps, 'log'>, baseUrl: string, token?: string): SupplierClient {
  return new SupplierClient({ baseUrl, token, log: s.log.child({ component: 'supplier' }) });
}
