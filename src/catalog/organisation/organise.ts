/**
 * Organisation (specification §3, in its order): backfill the parsed columns, derive tags (never
 * over manual ones), auto-group links into families, consolidate pure fragment families; the catalog
 * projection then recomputes every family it touched. It answers a report when it has finished.
 * Running it twice changes nothing the second time. One run at a time across processes.
 */
import type { Services } from '../../main';
import { forEachLimit } from '../../platform/concurrency';
import type { Pool } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { eventMetadata } from '../../platform/events/catalogue';
import { type LogPosition, type EventMetadata, EventStoreErrors, comparePositions } from '../../platform/event-store/port';
import { newId } from '../../platform/ids';
import type { PendingEvent } from '../../platform/commands';
import { familyStreamId } from '../families/events';
import { linkStreamId, type DimensionValues, type LinkDetail } from '../links/events';
import { evolveLink, initialLinkState } from '../links/state';
import type { Dimension } from '../domain/tags';
import { ensureDimensionTags } from '../links/dimension-tags';
import { decideConsolidation, decideGrouping, type FamilyFacts } from './group';
import { planLink, type LinkFacts } from './plan';

export interface OrganiseReport {
  parsed: number;
  derived: number;
  attached: number;
  created: number;
  merged: number;
  unchanged: number;
  unparseable: { id: string; name: string }[];
  incomplete: { id: string; name: string; missing: Dimension[] }[];
  lockedSkipped: { id: string; familyId: string }[];
  review: { familyId: string; reason: string }[];
}

export interface OrganiseProgress {
  state: 'idle' | 'running' | 'succeeded' | 'failed';
  phase: 'parse' | 'group' | 'consolidate' | 'recompute' | null;
  done: number;
  total: number;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

const LOCK: [number, number] = [72_002, 1]; // advisory lock: "organisation running"
const CONCURRENCY = 8;
const PREFIXES = ['link-', 'family-', 'good-'];
const WAIT_STREAMS = ['link-0', 'family-0', 'good-0'];

interface LinkRow extends LinkFacts {
  revision: bigint;
  familyId: string | null;
}

export class Organiser {
  progress: OrganiseProgress = { state: 'idle', phase: null, done: 0, total: 0, startedAt: null, finishedAt: null, error: null };
  private last: LogPosition | null = null;

  constructor(private readonly s: Services) {}

  /** `groupOnly`: the auto-group step alone, over links organisation has already parsed. */
  async organise(by: string, opts: { groupOnly?: boolean } = {}): Promise<OrganiseReport> {
    const lock = await this.s.pool.connect();
    try {
      const got = await lock.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock($1, $2) AS ok`, LOCK);
      if (!got.rows[0]!.ok) throw AppError.conflict('ORGANISE.ALREADY_RUNNING', 'organisation is already running');
      try {
        this.progress = { state: 'running', phase: 'parse', done: 0, total: 0, startedAt: new Date().toISOString(), finishedAt: null, error: null };
        const report = await this.run(eventMetadata(by, opts.groupOnly ? 'AutoGroup' : 'Organise'), !!opts.groupOnly);
        this.progress = { ...this.progress, state: 'succeeded', phase: null, finishedAt: new Date().toISOString() };
        return report;
      } catch (e) {
        this.progress = { ...this.progress, state: 'failed', finishedAt: new Date().toISOString(), error: e instanceof Error ? e.message : String(e) };
        throw e;
      } finally {
        await lock.query(`SELECT pg_advisory_unlock($1, $2)`, LOCK);
      }
    } finally {
      lock.release();
    }
  }

  private async catchUp(): Promise<void> {
    const head = this.last ?? (await this.s.store.headPosition(PREFIXES));
    await this.s.waitForProjections(head, WAIT_STREAMS);
  }

  private note(p: LogPosition): void {
    if (!this.last || comparePositions(p, this.last) > 0) this.last = p;
  }

  private async run(meta: EventMetadata, groupOnly: boolean): Promise<OrganiseReport> {
    const report: OrganiseReport = { parsed: 0, derived: 0, attached: 0, created: 0, merged: 0, unchanged: 0, unparseable: [], incomplete: [], lockedSkipped: [], review: [] };
    this.last = null;
    await this.catchUp();
    const links = await loadLinks(this.s.pool);
    const touched = new Set<string>();
    this.progress.total = links.length;

    // 1–2. Parsed columns and tags, one append per link.
    const organised: { id: string; familyNameKey: string; productName: string; sku: string }[] = [];
    await forEachLimit(links, CONCURRENCY, async (link) => {
      if (groupOnly) {
        if (link.parsed && !link.familyId) organised.push({ id: link.id, ...link.parsed });
        this.progress.done++;
        return;
      }
      const plan = await this.appendPlanned(link, meta, (facts) => planLink(facts));
      if (plan.parsedChanged) report.parsed++;
      if (plan.derivedChanged) report.derived++;
      if (plan.events.length) touched.add(link.id);
      link.tags = plan.tags;
      if (!plan.parsed) report.unparseable.push({ id: link.id, name: link.name });
      else {
        if (plan.missing.length) report.incomplete.push({ id: link.id, name: link.name, missing: plan.missing });
        if (!link.familyId) organised.push({ id: link.id, ...plan.parsed });
      }
      this.progress.done++;
    });

    // Every derived value gets its tag (in its dimension's tag group), so administrators and the
    // storefront see link tags as tags.
    const seen: Partial<Record<Dimension, string[]>> = {};
    for (const l of links) for (const d of ['size', 'color', 'printCount', 'craft', 'logistics'] as const) (seen[d] ??= []).push(...(l.tags?.[d] ?? []));
    await ensureDimensionTags(this.s, seen, { by: meta.by, correlationId: meta.correlationId });

    // 3. Auto-group.
    this.progress.phase = 'group';
    const families = await loadFamilies(this.s.pool);
    const decisions = decideGrouping(organised, families);
    const created = new Map<string, string>(); // key → new family id
    for (const d of decisions) {
      if (d.kind !== 'create') continue;
      const id = newId();
      created.set(d.key, id);
      const r = await this.s.store.appendToStream(
        familyStreamId(id),
        [this.s.catalogue.encode('FamilyCreated', { familyId: id, name: d.name, familyNameKey: d.key, autoManaged: true, locked: false }, meta)],
        { expectedRevision: 'no_stream' },
      );
      this.note(r.position);
      report.created++;
    }
    const joins = new Map<string, string[]>(); // family → links joining it
    for (const d of decisions) {
      if (d.kind === 'lockedSkipped') {
        report.lockedSkipped.push({ id: d.linkId, familyId: d.familyId });
        continue;
      }
      const familyId = d.kind === 'create' ? created.get(d.key)! : d.familyId.startsWith('new:') ? created.get(d.familyId.slice(4))! : d.familyId;
      if (d.kind === 'join' && !d.familyId.startsWith('new:')) report.attached++;
      let list = joins.get(familyId);
      if (!list) joins.set(familyId, (list = []));
      list.push(d.linkId);
    }
    const byId = new Map(links.map((l) => [l.id, l]));
    const moves = [...joins].flatMap(([familyId, ids]) => ids.map((linkId) => ({ linkId, familyId })));
    await forEachLimit(moves, CONCURRENCY, async ({ linkId, familyId }) => {
      await this.moveLink(byId.get(linkId)!, familyId, meta);
      touched.add(linkId);
    });
    await forEachLimit([...joins], CONCURRENCY, async ([familyId, ids]) => {
      await this.recordMembers(familyId, ids, meta);
    });

    // 4. Consolidate pure fragments into the family that has goods (whose id is public).
    this.progress.phase = 'consolidate';
    await this.catchUp();
    for (const c of groupOnly ? [] : decideConsolidation(await loadFamilies(this.s.pool))) {
      if (c.kind === 'review') {
        report.review.push({ familyId: c.familyId, reason: c.reason });
        continue;
      }
      const members = (await loadLinks(this.s.pool, c.fragmentId)).filter((l) => l.familyId === c.fragmentId);
      for (const link of members) await this.moveLink(link, c.intoFamilyId, meta);
      await this.recordMembers(c.intoFamilyId, members.map((l) => l.id), meta);
      const r = await this.s.store.appendToStream(familyStreamId(c.fragmentId), [
        this.s.catalogue.encode('FamilyMergedInto', { familyId: c.fragmentId, intoFamilyId: c.intoFamilyId }, meta),
      ]);
      this.note(r.position);
      for (const l of members) touched.add(l.id);
      report.merged++;
    }

    // 5. The catalog projection recomputes each family these events touched; answer once it has.
    this.progress.phase = 'recompute';
    await this.catchUp();
    report.unchanged = links.length - touched.size;
    const byIdOrder = (a: { id: string }, b: { id: string }) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
    report.unparseable.sort(byIdOrder);
    report.incomplete.sort(byIdOrder);
    report.lockedSkipped.sort(byIdOrder);
    return report;
  }

  /** Appends a link's planned events expecting its revision; on a conflict re-reads the stream and plans again. */
  private async appendPlanned<P extends { events: PendingEvent[] }>(link: LinkRow, meta: EventMetadata, plan: (facts: LinkFacts) => P): Promise<P> {
    let facts: LinkRow = link;
    for (let attempt = 0; ; attempt++) {
      const p = plan(facts);
      if (p.events.length === 0) return p;
      try {
        const r = await this.s.store.appendToStream(
          linkStreamId(link.id),
          p.events.map((e) => this.s.catalogue.encode(e.type, e.data, meta)),
          { expectedRevision: facts.revision },
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

  private async moveLink(link: LinkRow, familyId: string, meta: EventMetadata): Promise<void> {
    await this.appendPlanned(link, meta, (facts) => {
      const current = (facts as LinkRow).familyId;
      if (current === familyId) return { events: [] };
      const events: PendingEvent[] = [];
      if (current) events.push({ type: 'LinkLeftFamily', data: { linkId: link.id, familyId: current } });
      events.push({ type: 'LinkJoinedFamily', data: { linkId: link.id, familyId } });
      return { events };
    });
    link.familyId = familyId;
  }

  /** The family's own record of who joined (for its history); the link streams hold the membership. */
  private async recordMembers(familyId: string, linkIds: string[], meta: EventMetadata): Promise<void> {
    if (linkIds.length === 0) return;
    const r = await this.s.store.appendToStream(
      familyStreamId(familyId),
      linkIds.map((linkId) => this.s.catalogue.encode('FamilyMemberAdded', { familyId, linkId }, meta)),
    );
    this.note(r.position);
  }

  private async reload(linkId: string): Promise<LinkRow> {
    const events = await this.s.store.readStream(linkStreamId(linkId));
    let st = initialLinkState();
    for (const e of events) st = evolveLink(st, this.s.catalogue.decode(e));
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

async function loadLinks(pool: Pool, familyId?: string): Promise<LinkRow[]> {
  const r = await pool.query<{
    id: string;
    name: string;
    revision: string;
    detail: LinkDetail | null;
    parsed_country: string | null;
    parsed_logistics: string;
    parsed_product_name: string;
    parsed_sku: string;
    family_name_key: string;
    tags: DimensionValues | null;
    tags_manual: boolean;
    family_id: string | null;
  }>(
    `SELECT id, name, revision, detail, parsed_country, parsed_logistics, parsed_product_name, parsed_sku, family_name_key, tags, tags_manual, family_id
       FROM origin_goods ${familyId ? 'WHERE family_id = $1' : ''} ORDER BY id`,
    familyId ? [familyId] : [],
  );
  return r.rows.map((row) => ({
    id: row.id,
    name: row.name,
    revision: BigInt(row.revision),
    detail: row.detail,
    parsed: row.parsed_country
      ? { country: row.parsed_country, logistics: row.parsed_logistics, productName: row.parsed_product_name, sku: row.parsed_sku, familyNameKey: row.family_name_key }
      : null,
    tags: row.tags,
    tagsManual: row.tags_manual,
    familyId: row.family_id,
  }));
}

async function loadFamilies(pool: Pool): Promise<FamilyFacts[]> {
  const r = await pool.query<{ id: string; family_name_key: string | null; auto_managed: boolean; locked: boolean; good_count: number; overrides: string }>(
    `SELECT f.id, f.family_name_key, f.auto_managed, f.locked, f.good_count,
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
  }));
}
