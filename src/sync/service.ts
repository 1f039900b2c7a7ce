/**
 * The three synchronisations. Each is a pure mirror: it compares the supplier with what the service
 * recorded and appends events only for differences, so a second run on an unchanged supplier appends
 * nothing. It never parses names and never touches families (specification §1, §3).
 */
import type { Services } from '../main';
import { forEachLimit } from '../platform/concurrency';
import { AppError } from '../platform/errors';
import { type AppendResult, type EventStore, type LogPosition, EventStoreErrors, comparePositions } from '../platform/event-store/port';
import { eventMetadata } from '../platform/events/catalogue';
import { categoryStreamId } from '../catalog/categories/events';
import { countryStreamId } from '../catalog/countries/events';
import { linkStreamId } from '../catalog/links/events';
import { SupplierClient, type InvalidItem } from './supplier/client';
import {
  type Decision,
  type LinkMirrorState,
  type MirrorState,
  categoryMirrorHash,
  delistDecision,
  diffCategory,
  diffCountry,
  diffDetail,
  diffLink,
  emptyLinkMirror,
  evolveLinkMirror,
  linksToDelist,
  missingFrom,
} from './diff';
import { contentHash, syncEventId } from './event-ids';
import { type RunTracker, type SyncKind, type SyncRunView, getRun, openRun } from './runs';

export interface SyncParams {
  dryRun?: boolean;
  onlyUnsynced?: boolean;
  linkId?: string;
  /** who asked: a user id, or `system:sync` for the schedule */
  by: string;
}

const WHY: Record<SyncKind, string> = { categories: 'SyncCategories', origin_goods: 'SyncOriginGoods', details: 'SyncDetails' };
const PREFIXES: Record<SyncKind, string[]> = { categories: ['category-', 'country-'], origin_goods: ['link-'], details: ['link-'] };
const APPEND_CONCURRENCY = 8;

export class SyncService {
  private readonly inFlight = new Map<string, Promise<SyncRunView>>();

  constructor(
    private readonly s: Services,
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
      params: { onlyUnsynced: !!params.onlyUnsynced, linkId: params.linkId ?? null },
    });
    const finished = this.execute(run, params).finally(() => this.inFlight.delete(run.id));
    this.inFlight.set(run.id, finished);
    return { runId: run.id, finished };
  }

  /** Waits for every run this process started (used at shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private async execute(run: RunTracker, params: SyncParams): Promise<SyncRunView> {
    const log = this.s.log.child({ runId: run.id, kind: run.kind });
    const ctx = new AppendContext(this.s, run, params);
    let state: 'succeeded' | 'failed' = 'succeeded';
    try {
      // Diff against read models that include everything already appended.
      await this.s.waitForProjections(await this.s.store.headPosition(PREFIXES[run.kind]), PREFIXES[run.kind].map((p) => p + '0'));
      if (run.kind === 'categories') await this.syncCategories(ctx);
      else if (run.kind === 'origin_goods') await this.syncGoods(ctx);
      else await this.syncDetails(ctx, params);
      // Answer only once the read models show the run's changes.
      if (ctx.lastPosition) await this.s.waitForProjections(ctx.lastPosition, PREFIXES[run.kind].map((p) => p + '0'));
    } catch (e) {
      state = 'failed';
      run.error(e instanceof AppError ? `${e.code}: ${e.message}` : 'internal error');
      if (!(e instanceof AppError) || e.status >= 500) log.warn({ err: e }, 'synchronisation failed');
    }
    await run.flush(state);
    log.info({ state, counts: run.counts }, 'synchronisation finished');
    return (await getRun(this.s.pool, run.id))!;
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
    const knownCategories = await loadMirror(this.s, `SELECT id, revision, mirror_hash, removed FROM categories`);

    await forEachLimit(countries.items, APPEND_CONCURRENCY, async (c) => {
      await ctx.mirror(countryStreamId(c.id), knownCountries.get(c.id), (st) => diffCountry(st, c), (st, e) => foldMirror(st, e, (d) => contentHash(d)));
      run.done++;
      void run.tick();
    });
    // In any order: the projection recomputes levels and inherited icons over the whole tree.
    await forEachLimit(categories.items, APPEND_CONCURRENCY, async (c) => {
      await ctx.mirror(categoryStreamId(c.id), knownCategories.get(c.id), (st) => diffCategory(st, c), (st, e) =>
        foldMirror(st, e, (d) => categoryMirrorHash(d as Parameters<typeof categoryMirrorHash>[0])),
      );
      run.done++;
      void run.tick();
    });

    // Removal needs a complete listing: a malformed item without an id makes it incomplete.
    if (!countries.invalid.some((i) => !i.id)) {
      const seen = new Set([...countries.items.map((c) => c.id), ...countries.invalid.flatMap((i) => (i.id ? [i.id] : []))]);
      for (const id of missingFrom(knownCountries, seen)) {
        await ctx.mirror(countryStreamId(id), knownCountries.get(id), () => ({ events: [{ type: 'CountryRemovedUpstream', data: { countryId: id } }], counts: { delisted: 1 } }), null);
      }
    }
    if (!categories.invalid.some((i) => !i.id)) {
      const seen = new Set([...categories.items.map((c) => c.id), ...categories.invalid.flatMap((i) => (i.id ? [i.id] : []))]);
      for (const id of missingFrom(knownCategories, seen)) {
        await ctx.mirror(categoryStreamId(id), knownCategories.get(id), () => ({ events: [{ type: 'CategoryRemovedUpstream', data: { categoryId: id } }], counts: { delisted: 1 } }), null);
      }
    }
  }

  private async syncGoods(ctx: AppendContext): Promise<void> {
    const { run } = ctx;
    const known = await loadLinks(this.s, `SELECT id, revision, mirror_hash, delisted, detail_hash FROM origin_goods`, []);
    run.total = known.size || null;
    const seen = new Set<string>();
    let complete = true;
    let cursor: string | null = null;
    do {
      // A page that fails after the client's retries fails the run: nothing is delisted.
      const page = await this.client.goodsPage(cursor, this.s.config.upstreamPageSize);
      this.reportInvalid(run, page.invalid, 'link');
      for (const i of page.invalid) {
        if (i.id) seen.add(i.id);
        else complete = false;
      }
      const fresh = page.items.filter((l) => !seen.has(l.id));
      for (const l of fresh) seen.add(l.id);
      await forEachLimit(fresh, APPEND_CONCURRENCY, async (link) => {
        await ctx.mirror(linkStreamId(link.id), known.get(link.id), (st) => diffLink(st, link), linkFold);
        run.done++;
      });
      if (run.total !== null && run.done > run.total) run.total = run.done;
      void run.tick();
      cursor = page.nextCursor;
    } while (cursor !== null);
    run.total = run.done;

    if (!complete) {
      run.error('listing pass incomplete (malformed items without an id): nothing delisted');
      return;
    }
    const gone = linksToDelist(known, seen);
    await forEachLimit(gone, APPEND_CONCURRENCY, async (id) => {
      await ctx.mirror(linkStreamId(id), known.get(id), (st) => (st && !st.delisted ? delistDecision(id) : { events: [], counts: {} }), linkFold);
    });
  }

  private async syncDetails(ctx: AppendContext, params: SyncParams): Promise<void> {
    const { run } = ctx;
    const where = params.linkId ? `id = $1` : params.onlyUnsynced ? `NOT delisted AND detail_synced_at IS NULL` : `NOT delisted`;
    const known = await loadLinks(this.s, `SELECT id, revision, mirror_hash, delisted, detail_hash FROM origin_goods WHERE ${where} ORDER BY id`, params.linkId ? [params.linkId] : []);
    const ids = [...known.keys()];
    run.total = ids.length;
    const report = await this.client.details(ids, async (id, detail) => {
      if (!detail) {
        run.count({ failed: 1 });
        run.error('the supplier no longer has this link (404); the next listing pass delists it', id);
      } else {
        await ctx.mirror(linkStreamId(id), known.get(id), (st) => diffDetail(st ?? emptyLinkMirror(), detail), linkFold);
      }
      run.done++;
      void run.tick();
    });
    for (const f of report.failed) {
      run.count({ failed: 1 });
      run.error(`${f.error.code}: ${f.error.message}`, f.id);
    }
  }
}

/** Appends decisions for one run: derived event ids, expected revisions, a re-read on conflict. */
class AppendContext {
  lastPosition: LogPosition | null = null;

  constructor(
    private readonly s: Services,
    readonly run: RunTracker,
    private readonly params: SyncParams,
  ) {}

  /**
   * Decides against `known` and appends. When the stream moved since (`WRONG_REVISION`: the read
   * model lagged, or someone else appended), it folds the stream itself and decides again.
   */
  async mirror<S extends { revision: bigint }>(
    streamId: string,
    known: S | undefined,
    decide: (state: S | undefined) => Decision,
    fold: ((state: S | undefined, e: { type: string; data: unknown; revision: bigint }) => S) | null,
  ): Promise<void> {
    let state = known;
    for (let attempt = 0; ; attempt++) {
      const decision = decide(state);
      if (decision.events.length === 0) {
        this.run.count(decision.counts);
        return;
      }
      if (this.run.dryRun) {
        this.run.count(decision.counts);
        this.run.wouldAppend(streamId, decision.events);
        return;
      }
      const expected = state && state.revision >= 0n ? state.revision : ('no_stream' as const);
      const meta = eventMetadata(this.params.by, WHY[this.run.kind], this.run.id);
      const events = decision.events.map((e, i) => this.s.catalogue.encode(e.type, e.data, meta, syncEventId(streamId, expected, i, e.type, e.data)));
      try {
        const r = await appendOnce(this.s.store, streamId, events, expected);
        this.noteAppended(r);
        this.run.count(decision.counts);
        return;
      } catch (e) {
        if (!(e instanceof AppError && e.code === EventStoreErrors.WRONG_REVISION) || attempt >= 4 || !fold) throw e;
        const stream = await this.s.store.readStream(streamId);
        state = stream.reduce<S | undefined>((st, ev) => fold(st, this.s.catalogue.decode(ev)), undefined);
      }
    }
  }

  private noteAppended(r: AppendResult): void {
    if (!this.lastPosition || comparePositions(r.position, this.lastPosition) > 0) this.lastPosition = r.position;
  }
}

function appendOnce(store: EventStore, streamId: string, events: Parameters<EventStore['appendToStream']>[1], expected: bigint | 'no_stream') {
  return store.appendToStream(streamId, events, { expectedRevision: expected });
}

const linkFold = (st: LinkMirrorState | undefined, e: { type: string; data: unknown; revision: bigint }) => evolveLinkMirror(st ?? emptyLinkMirror(), e);

function foldMirror(st: MirrorState | undefined, e: { type: string; data: unknown; revision: bigint }, hash: (data: unknown) => string): MirrorState {
  const base = st ?? { revision: -1n, mirrorHash: null, removed: false };
  if (e.type.endsWith('Mirrored')) return { revision: e.revision, mirrorHash: hash(e.data), removed: false };
  if (e.type.endsWith('RemovedUpstream')) return { ...base, revision: e.revision, removed: true };
  return { ...base, revision: e.revision };
}

async function loadMirror(s: Services, sql: string): Promise<Map<string, MirrorState>> {
  const r = await s.pool.query<{ id: string; revision: string; mirror_hash: string | null; removed: boolean }>(sql);
  return new Map(r.rows.map((row) => [row.id, { revision: BigInt(row.revision), mirrorHash: row.mirror_hash, removed: row.removed }]));
}

async function loadLinks(s: Services, sql: string, params: unknown[]): Promise<Map<string, LinkMirrorState>> {
  const r = await s.pool.query<{ id: string; revision: string; mirror_hash: string | null; delisted: boolean; detail_hash: string | null }>(sql, params);
  return new Map(
    r.rows.map((row) => [row.id, { revision: BigInt(row.revision), mirrorHash: row.mirror_hash, delisted: row.delisted, detailHash: row.detail_hash }]),
  );
}

export function createSupplierClient(s: Services, baseUrl: string, token?: string): SupplierClient {
  return new SupplierClient({ baseUrl, token, log: s.log.child({ component: 'supplier' }) });
}
