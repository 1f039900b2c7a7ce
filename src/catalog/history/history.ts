/**
 * The audit history of a family, a good or a link (docs/api.md, History): the story of what the
 * public saw, replayed from the event streams.
 *
 * A subject names the streams whose events can change it (for a family: its own stream, every link
 * that ever joined it, the goods made from them or added as custom members, and those goods'
 * secondary origins). Replaying them in log order through the slices' `evolve` functions gives the
 * world as it was after each event; the subject's view of that world is computed by the same pure
 * code the catalog projection runs (../domain/family-aggregates.ts). An event is listed when it is
 * the subject's own, when it changed the view (with what it changed), or when a person caused it on
 * a stream the subject reads (a member link, a good), even if nothing visible moved: an
 * administrator's tag takeover that happens to change no cell still changes how that link is
 * organised from then on, and the auditor must see it.
 */
import type { Pool } from '../../platform/db';
import type { DecodedEvent } from '../../platform/events/registry';
import { positionToString } from '../../platform/event-store/port';
import { AppError } from '../../platform/errors';
import { familyStreamId } from '../families/events';
import { goodStreamId } from '../goods/events';
import { linkStreamId } from '../links/events';
import { diffFamily, diffGood, diffLink } from './diff';
import { mergedEvents, streamEvents, type ReplayDeps } from './replay';
import { applyEvent, emptyWorld, entityOf, familyView, goodView, linkView, type World } from './world';
import type { HistoryItem } from '../../contract/history';

export type SubjectKind = 'family' | 'good' | 'link';

export interface HistoryDeps extends ReplayDeps {
  pool: Pool;
}

interface Subject {
  kind: SubjectKind;
  id: string;
  /** the subject's own stream: all its events are listed */
  own: string;
  streams: Set<string>;
  view(w: World): unknown;
  diff(a: unknown, b: unknown): Record<string, unknown> | null;
  /** Whether the event may change the view (asked before and after it is applied); when in doubt, yes. */
  touches(w: World, e: DecodedEvent): boolean;
  /** An own event that never changes the view (the family's record of a member; the link's event carries the change). */
  inert?(e: DecodedEvent): boolean;
  /**
   * In a bulk run (see `BULK_RUN`): what the event changed of its own entity, without recomputing
   * the view; `before` is read before the event is applied, `after` after. Null: not listed.
   */
  entityChange?: { before(w: World, e: DecodedEvent): unknown; after(w: World, e: DecodedEvent, before: unknown): Record<string, unknown> | null };
}

/**
 * Past this many events of one correlation id (one command or run: an organisation grouping hundreds
 * of links into a family, a synchronisation) that touch the subject, the rest of the run is not
 * viewed event by event: recomputing a family of n members for each of n joins costs n². Its events
 * are listed with what they changed of their own entity, and the run's last listed event carries
 * `runChanges`, what the rest of the run changed of the subject together.
 */
export const BULK_RUN = 50;

const NOT_FOUND = { family: ['FAMILY.NOT_FOUND', 'family'], good: ['GOOD.NOT_FOUND', 'good'], link: ['ORIGIN_GOOD.NOT_FOUND', 'origin good'] } as const;

const data = (e: DecodedEvent) => e.data as Record<string, string>;

/** The runs a person may start whose events the supplier or the rules decide, not the person. */
const RUNS = new Set(['SyncCategories', 'SyncOriginGoods', 'SyncDetails', 'Organise', 'AutoGroup']);

/**
 * Decided by a person's own command (a user id's tag takeover, a good's edit), not by the service
 * (`system:sync`, `system:organise`, …) nor by a run a person started, whose events the supplier or
 * the rules decide and which the history shows where they changed something.
 */
const byPerson = (e: DecodedEvent) => !e.metadata.by.startsWith('system:') && !RUNS.has(e.metadata.why);

/** The family a link event joined the link to: an administrator's move, or an organisation run's. */
const joinedFamily = (e: DecodedEvent): string | undefined =>
  e.type === 'LinkJoinedFamily' || e.type === 'LinkOrganised' ? (e.data as { familyId?: string }).familyId : undefined;

/** The streams a family's view reads, found by reading its stream, its links' and its goods' (a page at a time). */
async function discoverFamily(deps: ReplayDeps, familyId: string, streams: Set<string>, secondaries: Set<string>): Promise<void> {
  streams.add(familyStreamId(familyId));
  const links = new Set<string>();
  const goods = new Set<string>();
  for await (const e of streamEvents(deps, familyStreamId(familyId))) {
    if (e.type === 'FamilyMemberAdded' || e.type === 'FamilyMemberRemoved') links.add(data(e).linkId!);
    if (e.type === 'FamilyMembersAdded') for (const linkId of (e.data as { linkIds: string[] }).linkIds) links.add(linkId);
    if (e.type === 'FamilyCustomMemberAdded') goods.add(data(e).goodId!);
  }
  for (const linkId of links) {
    let joined = false;
    const made: string[] = [];
    for await (const e of streamEvents(deps, linkStreamId(linkId))) {
      if (joinedFamily(e) === familyId) joined = true;
      if (e.type === 'LinkGoodAssigned') made.push(data(e).goodId!);
    }
    if (!joined) continue;
    streams.add(linkStreamId(linkId));
    for (const g of made) goods.add(g);
  }
  for (const goodId of goods) await discoverGoodOrigins(deps, goodId, streams, secondaries);
}

async function discoverGoodOrigins(deps: ReplayDeps, goodId: string, streams: Set<string>, secondaries: Set<string>): Promise<string | null> {
  streams.add(goodStreamId(goodId));
  let origin: string | null = null;
  for await (const e of streamEvents(deps, goodStreamId(goodId))) {
    if (e.type === 'GoodCreated') origin = (e.data as { originGoodId: string | null }).originGoodId;
    if (e.type === 'GoodOriginsSet') {
      for (const id of (e.data as { secondaryOriginGoodIds: string[] }).secondaryOriginGoodIds) {
        secondaries.add(id);
        streams.add(linkStreamId(id));
      }
    }
  }
  return origin;
}

async function familySubject(deps: ReplayDeps, id: string): Promise<Subject> {
  const streams = new Set<string>();
  const secondaries = new Set<string>();
  await discoverFamily(deps, id, streams, secondaries);
  return {
    kind: 'family',
    id,
    own: familyStreamId(id),
    streams,
    view: (w) => familyView(w, id),
    diff: (a, b) => diffFamily(a as never, b as never),
    touches: (w, e) => {
      const entity = entityOf(e.streamId);
      if (!entity || entity.kind === 'good') return true;
      if (entity.kind === 'family') return entity.id === id;
      return w.links.get(entity.id)?.familyId === id || secondaries.has(entity.id);
    },
    // The family's record of members (the link's own event carries the change), and a recompute that
    // only repaired the read model: what the events say the family was does not move.
    inert: (e) => e.type === 'FamilyMemberAdded' || e.type === 'FamilyMembersAdded' || e.type === 'FamilyMemberRemoved' || e.type === 'FamilyRecomputed',
    entityChange: linkEntityChange((w, linkId) => w.links.get(linkId)?.familyId === id || secondaries.has(linkId), id),
  };
}

/** A link event's change of the link itself, and the membership it changed, for links `follows` says the subject reads. */
function linkEntityChange(follows: (w: World, linkId: string) => boolean, familyId: string | null): NonNullable<Subject['entityChange']> {
  return {
    before: (w, e) => {
      const entity = entityOf(e.streamId);
      return entity?.kind === 'link' ? { follows: follows(w, entity.id), view: linkView(w, entity.id) } : null;
    },
    after: (w, e, before) => {
      const entity = entityOf(e.streamId);
      const b = before as { follows: boolean; view: ReturnType<typeof linkView> } | null;
      if (!entity || entity.kind !== 'link' || !b || !(b.follows || follows(w, entity.id))) return null;
      const after = linkView(w, entity.id);
      const link = diffLink(b.view, after);
      if (!link) return null;
      const was = b.view?.familyId === familyId;
      const is = after?.familyId === familyId;
      const members = familyId && was !== is ? { members: { added: is ? [entity.id] : [], removed: was ? [entity.id] : [] } } : {};
      return { ...members, link };
    },
  };
}

async function goodSubject(deps: HistoryDeps, id: string): Promise<Subject> {
  const streams = new Set<string>();
  const secondaries = new Set<string>();
  const origin = await discoverGoodOrigins(deps, id, streams, secondaries);
  // Its family, for whether it was public and the family's representative: every family its primary
  // link joined; a custom good's, as the read model holds it now.
  const families = new Set<string>();
  if (origin) {
    streams.add(linkStreamId(origin));
    for await (const e of streamEvents(deps, linkStreamId(origin))) {
      const joined = joinedFamily(e);
      if (joined) families.add(joined);
    }
  }
  const current = await deps.pool.query<{ family_id: string }>(
    `SELECT family_id FROM goods WHERE id = $1 AND family_id IS NOT NULL UNION SELECT family_id FROM family_custom_members WHERE good_id = $1`,
    [id],
  );
  for (const r of current.rows) families.add(r.family_id);
  for (const f of families) await discoverFamily(deps, f, streams, secondaries);
  return {
    kind: 'good',
    id,
    own: goodStreamId(id),
    streams,
    view: (w) => goodView(w, id),
    diff: (a, b) => diffGood(a as never, b as never),
    touches: () => true,
    entityChange: linkEntityChange((_w, linkId) => linkId === origin || secondaries.has(linkId), null),
  };
}

function linkSubject(id: string): Subject {
  const own = linkStreamId(id);
  return { kind: 'link', id, own, streams: new Set([own]), view: (w) => linkView(w, id), diff: (a, b) => diffLink(a as never, b as never), touches: (_w, e) => e.streamId === own };
}

async function subjectOf(deps: HistoryDeps, kind: SubjectKind, id: string): Promise<Subject> {
  if ((await deps.store.streamRevision(ownStream(kind, id))) === null) {
    const [code, name] = NOT_FOUND[kind];
    throw AppError.notFound(code, `no ${name} ${id}`);
  }
  return kind === 'family' ? familySubject(deps, id) : kind === 'good' ? goodSubject(deps, id) : linkSubject(id);
}

const ownStream = (kind: SubjectKind, id: string) => (kind === 'family' ? familyStreamId(id) : kind === 'good' ? goodStreamId(id) : linkStreamId(id));

// One event as the history answers it, declared once for the service and the admin client.
export type { HistoryItem };

export interface HistoryOptions {
  /** list only events recorded after this time */
  from?: Date;
  /** replay only events recorded at or before this time */
  to?: Date;
  /** 1-based; with `pageSize`, only that page of the items is kept */
  page?: number;
  pageSize?: number;
}

/** The subject's history: every own event, every other event that changed its view or that a person caused, oldest first. */
async function listHistory(deps: HistoryDeps, subject: Subject, opts: HistoryOptions): Promise<{ items: HistoryItem[]; total: number }> {
  const w = emptyWorld();
  let current: unknown = null;
  const items: HistoryItem[] = [];
  let total = 0;
  const first = opts.pageSize ? ((opts.page ?? 1) - 1) * opts.pageSize : 0;
  const last = opts.pageSize ? first + opts.pageSize : Infinity;
  let run: { correlationId: string; touching: number; bulk: boolean; last: HistoryItem | null } = { correlationId: '', touching: 0, bulk: false, last: null };
  /** A bulk run ends: its last listed item says what the run changed of the subject together. */
  const endRun = () => {
    if (!run.bulk) return;
    const next = subject.view(w);
    const changes = subject.diff(current, next);
    current = next;
    if (run.last) run.last.runChanges = changes;
  };
  const list = (e: DecodedEvent, changes: Record<string, unknown> | null): HistoryItem | null => {
    if (opts.from && e.recordedAt <= opts.from) return null;
    total++;
    if (total - 1 < first || total - 1 >= last) return null;
    const item: HistoryItem = {
      position: positionToString(e.position),
      stream: e.streamId,
      version: e.revision.toString(),
      type: e.type,
      at: e.recordedAt.toISOString(),
      by: e.metadata.by,
      why: e.metadata.why,
      correlationId: e.metadata.correlationId,
      data: e.data,
      changes,
    };
    items.push(item);
    return item;
  };
  for await (const e of mergedEvents(deps, subject.streams, opts.to)) {
    if (e.metadata.correlationId !== run.correlationId) {
      endRun();
      run = { correlationId: e.metadata.correlationId, touching: 0, bulk: false, last: null };
    }
    const own = e.streamId === subject.own;
    const touchedBefore = own || subject.touches(w, e);
    const entityBefore = subject.entityChange?.before(w, e);
    applyEvent(w, e);
    if (!touchedBefore && !subject.touches(w, e)) continue;
    if (own && subject.inert?.(e)) {
      list(e, null);
      continue;
    }
    if (++run.touching > BULK_RUN && !own && subject.entityChange) run.bulk = true;
    if (run.bulk) {
      const changes = own ? null : subject.entityChange!.after(w, e, entityBefore);
      // The run's last listed event, or null when that one falls outside the page asked for.
      if (own || changes || byPerson(e)) run.last = list(e, changes);
      continue;
    }
    const next = subject.view(w);
    const changes = subject.diff(current, next);
    current = next;
    if (!own && !changes && !byPerson(e)) continue;
    list(e, changes);
  }
  endRun();
  return { items, total };
}

/** The subject's view folded from every event recorded at or before `at` (null: it did not exist then). */
async function viewAt(deps: HistoryDeps, subject: Subject, at: Date): Promise<unknown> {
  const w = emptyWorld();
  for await (const e of mergedEvents(deps, subject.streams, at)) applyEvent(w, e);
  return subject.view(w);
}

export async function history(deps: HistoryDeps, kind: SubjectKind, id: string, opts: Pick<HistoryOptions, 'page' | 'pageSize'> = {}) {
  const subject = await subjectOf(deps, kind, id);
  const { items, total } = await listHistory(deps, subject, opts);
  return { items, total, ...(opts.pageSize ? { page: opts.page ?? 1, pageSize: opts.pageSize } : {}) };
}

export async function historyAt(deps: HistoryDeps, kind: SubjectKind, id: string, at: Date) {
  const subject = await subjectOf(deps, kind, id);
  const view = await viewAt(deps, subject, at);
  if (view === null) {
    const [code, name] = NOT_FOUND[kind];
    throw AppError.notFound(code, `${name} ${id} did not exist at ${at.toISOString()}`);
  }
  return view;
}

/** What changed between two moments: the two views' difference, and the events that made it. */
export async function historyBetween(deps: HistoryDeps, kind: SubjectKind, id: string, from: Date, to: Date) {
  if (from > to) throw AppError.badRequest('HISTORY.RANGE_INVALID', '`from` must not be after `to`');
  const subject = await subjectOf(deps, kind, id);
  const [before, after] = [await viewAt(deps, subject, from), await viewAt(deps, subject, to)];
  const { items } = await listHistory(deps, subject, { from, to });
  return { from: from.toISOString(), to: to.toISOString(), changes: subject.diff(before, after), items };
}
