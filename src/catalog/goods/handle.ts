/**
 * Good commands: create one at a time, or many in multi-stream appends (batch create, the demo);
 * update, delete, secondary origins. Each looks up what the rules need, then load → decide → append.
 *
 * A link is the primary origin of at most one good. The claim (`LinkGoodAssigned`) goes to the link's
 * stream at the revision the link was read at, so two creates from one link cannot both win; the
 * good's `GoodCreated` goes to its new stream in the same append.
 */
import type { BatchAnswer } from '../../contract/goods';
import { randomUUID } from 'node:crypto';
import { runAcrossStreams, type Actor, type CommandResult, type AnyStreamWrite, commandRunner } from '../../platform/commands';
import { AppError, unknownReference } from '../../platform/errors';
import { eventMetadata } from '../../platform/events/registry';
import { type LogPosition, type StreamAppend, comparePositions, staleStreamsOf } from '../../platform/event-store/port';
import { newId } from '../../platform/ids';
import type { AdminDeps } from '../admin-commands';
import { decideLink } from '../links/decide';
import { dimensionTagIndex } from '../links/dimension-tags';
import { initialLinkState, linkStream } from '../links/state';
import { decideGood, requireKnownOrigins, type LinkForGood } from './decide';
import { goodStreamId } from './events';
import { dimensionTagIdsOf, knownLinkIds, placesNaming, primaryOriginOf, readLinks, type LinkRead } from './queries';
import { decideFamily } from '../families/decide';
import { familyStream } from '../families/state';
import { decidePosition } from '../positions/decide';
import { positionStream } from '../positions/handle';
import { goodReferences, referenceLock, whileUnreferenced, withCopiedReferences } from '../references';
import type { BatchGoodsBody, CreateGoodInput, UpdateGoodBody } from './requests';
import { type GoodState, goodStream, initialGoodState } from './state';

/** What the good commands need: the composition root's services satisfy it. */
export type GoodDeps = AdminDeps;

export type GoodResult = CommandResult<GoodState>;

const run = commandRunner(goodStream, decideGood);

/**
 * Creates one good: the claim on its link (decided on the link's stream) and the good, in one
 * multi-stream append, so a failure between them cannot leave the link claimed by a good that does
 * not exist. Returns the good's id and the position of its append (callers batching creates wait once).
 * Holds the reference locks of the category, country and tags it names and of those it copies from
 * its link (src/catalog/references.ts, `withCopiedReferences`).
 */
export async function createGood(
  deps: GoodDeps,
  input: CreateGoodInput,
  actor: Actor,
  noWait = false,
): Promise<{ id: string; position: LogPosition | null; state: GoodState; revision: bigint | null }> {
  const { originGoodId, ...rest } = input;
  return withCopiedReferences(
    deps.pool,
    goodReferences(rest),
    () => linksCopied(deps, originGoodId ? [originGoodId] : []),
    (links) => createGoodFrom(deps, input, originGoodId ? requireLink(links, originGoodId) : null, actor, noWait),
  );
}

async function createGoodFrom(deps: GoodDeps, input: CreateGoodInput, link: LinkForGood | null, actor: Actor, noWait: boolean) {
  const { originGoodId, ...rest } = input;
  const id = newId();
  const good = goodStream(id);
  const r = await runAcrossStreams(deps, {
    name: 'CreateGood',
    actor,
    noWait,
    decide: async (load) => {
      // The good first, then its link's claim: the log (and the audit history) reads in that order.
      const writes: AnyStreamWrite[] = [{ spec: good, events: decideGood((await load(good)).state, { type: 'CreateGood', fields: rest, link }) }];
      if (originGoodId) {
        const l = linkStream(originGoodId);
        writes.push({ spec: l, events: decideLink((await load(l)).state, { type: 'AssignGood', linkId: originGoodId, goodId: id }) });
      }
      return { writes, result: null };
    },
  });
  const own = r.streams.get(good.streamId)!;
  return { id, position: r.position, state: own.state as GoodState, revision: own.revision };
}

const latest = (a: LogPosition | null, b: LogPosition | null) => (!a ? b : !b ? a : comparePositions(a, b) >= 0 ? a : b);

/** An input no good was made from: its place among the inputs, the link it names (null: a custom good), and why. */
interface Skipped {
  index: number;
  originGoodId: string | null;
  code: string;
  message: string;
}

export interface BatchCreated {
  created: string[];
  skipped: Skipped[];
  /** the position of the last event appended (what to wait for), or null when nothing was */
  position: LogPosition | null;
}

/** Goods per multi-stream append: each takes its link's stream and its own. */
const BATCH = 500;

/**
 * Creates many goods. Links are read in one query; each good's claim and creation go into
 * multi-stream appends of BATCH goods, the claim at the revision its link was read at. A link the
 * read models show with a good already is skipped (`GOOD.EXISTS_FOR_LINK`), as is an unknown one; a
 * link whose stream moved since it was read is created alone through `createGood`, which decides on
 * the link's own stream. `created` follows the order of `inputs`. The appends hold the reference locks
 * of what the inputs name (checked live: a 400 `UNKNOWN_REFERENCE` for the whole batch) and of what
 * the goods copy from their links (src/catalog/references.ts, `withCopiedReferences`).
 */
export async function createGoods(deps: GoodDeps, inputs: readonly CreateGoodInput[], actor: Actor): Promise<BatchCreated> {
  const linkIds = [...new Set(inputs.flatMap((i) => (i.originGoodId ? [i.originGoodId] : [])))];
  const refs = inputs.flatMap(({ originGoodId: _link, ...fields }, i) => goodReferences(fields, `goods.${i}.`));
  const moved: { at: number; input: CreateGoodInput }[] = [];
  const { outcome, position: appended } = await withCopiedReferences(
    deps.pool,
    refs,
    () => linksCopied(deps, linkIds),
    (links) => appendGoods(deps, inputs, links, actor, moved),
  );
  // A link whose stream moved since it was read (another create, a sync): decided on its own stream,
  // holding its own locks once the batch's are let go.
  let position = appended;
  for (const m of moved) {
    try {
      const alone = await createGood(deps, m.input, actor, true);
      outcome[m.at] = { id: alone.id };
      position = latest(position, alone.position);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      outcome[m.at] = skip(m.at, m.input, err);
    }
  }
  return {
    created: outcome.flatMap((o) => ('id' in o ? [o.id] : [])),
    skipped: outcome.flatMap((o) => ('id' in o ? [] : [o])),
    position,
  };
}

type Outcome = ({ id: string } | Skipped)[];

const skip = (at: number, input: CreateGoodInput, e: AppError): Skipped => ({ index: at, originGoodId: input.originGoodId ?? null, code: e.code, message: e.message });

/** The batch's multi-stream appends, on the links as read under the locks; `moved` gets the goods whose link moved since. */
async function appendGoods(
  deps: GoodDeps,
  inputs: readonly CreateGoodInput[],
  links: ReadonlyMap<string, LinkRead>,
  actor: Actor,
  moved: { at: number; input: CreateGoodInput }[],
): Promise<{ outcome: Outcome; position: LogPosition | null }> {
  const meta = eventMetadata(actor.by, 'CreateGood', actor.correlationId ?? randomUUID());
  const outcome: Outcome = [];
  const planned: { at: number; input: CreateGoodInput; appends: StreamAppend[] }[] = [];
  const claimed = new Set<string>();
  for (const input of inputs) {
    const { originGoodId, ...rest } = input;
    try {
      const link = originGoodId ? links.get(originGoodId) : undefined;
      const id = newId();
      const appends: StreamAppend[] = [];
      if (originGoodId) {
        if (!link) throw unknownReference('originGoodId', [originGoodId], 'link');
        // The claim as the link's stream would decide it: the read model's good, or one this batch made from it.
        const goodId = link.goodId ?? (claimed.has(originGoodId) ? 'this batch' : null);
        const claim = decideLink({ ...initialLinkState(), exists: true, goodId }, { type: 'AssignGood', linkId: originGoodId, goodId: id });
        claimed.add(originGoodId);
        appends.push({
          streamId: linkStream(link.id).streamId,
          events: claim.map((e) => deps.registry.encode(e.type, e.data, meta)),
          expectedRevision: link.revision >= 0n ? link.revision : 'no_stream',
        });
      }
      const events = decideGood(initialGoodState(id)(), { type: 'CreateGood', fields: rest, link: link ?? null }).map((e) => deps.registry.encode(e.type, e.data, meta));
      appends.push({ streamId: goodStreamId(id), events, expectedRevision: 'no_stream' });
      planned.push({ at: outcome.length, input, appends });
      outcome.push({ id });
    } catch (e) {
      if (!(e instanceof AppError) || e.status >= 500) throw e;
      outcome.push(skip(outcome.length, input, e));
    }
  }

  let position: LogPosition | null = null;
  for (let i = 0; i < planned.length; i += BATCH) {
    let pending = planned.slice(i, i + BATCH);
    while (pending.length) {
      try {
        const results = await deps.store.appendToStreams(pending.flatMap((p) => p.appends));
        for (const r of results) position = latest(position, r.position);
        break;
      } catch (e) {
        const stale = staleStreamsOf(e);
        const movedNow = stale ? pending.filter((p) => p.appends.some((a) => stale.has(a.streamId))) : [];
        if (movedNow.length === 0) throw e;
        // Links that moved since they were read (another create, a sync), all of them named at once:
        // the caller decides each on its stream, and the rest of the batch is sent again.
        for (const m of movedNow) moved.push({ at: m.at, input: m.input });
        pending = pending.filter((p) => !movedNow.includes(p));
      }
    }
  }
  return { outcome, position };
}

/**
 * The batch of a request: from links (each once: a link named again is the first naming's), or full
 * bodies; answered once the projections reach its last append. A skipped item carries its index in
 * the request's list.
 */
export async function batchCreateGoods(deps: GoodDeps, body: BatchGoodsBody, actor: Actor): Promise<BatchAnswer> {
  let inputs: readonly CreateGoodInput[];
  // The index in the request of each input (the links' form names a link once, at its first index).
  let indexOf = (at: number) => at;
  if ('originGoodIds' in body) {
    const first = new Map<string, number>();
    body.originGoodIds.forEach((id, i) => first.has(id) || first.set(id, i));
    const links = [...first];
    inputs = links.map(([originGoodId]) => ({ originGoodId }));
    indexOf = (at) => links[at]![1];
  } else {
    inputs = body.goods;
  }
  const done = await createGoods(deps, inputs, actor);
  const { created, position } = done;
  const skipped = done.skipped.map((s) => ({ ...s, index: indexOf(s.index) }));
  // `created` follows the inputs not skipped, in order: the k-th good is the k-th of those.
  const skippedAt = new Set(done.skipped.map((s) => s.index));
  const madeAt = inputs.flatMap((_, at) => (skippedAt.has(at) ? [] : [at]));
  if (position) {
    await deps.waitForProjections(position, ['good-0', 'link-0']);
    // A batch adds up to 1 000 goods and recomputes their families: once the batches add up to a
    // large share of those tables, the planner learns what they hold (src/platform/planner-statistics.ts);
    // a client sends batch after batch, so a table is looked at no more often than autovacuum would.
    await deps.refreshStatistics?.(['good-0', 'link-0'], created.length, { repeated: true });
  }
  const families = await familiesOfLinks(
    deps.pool,
    madeAt.flatMap((at) => inputs[at]!.originGoodId ?? []),
  );
  const goods = created.map((id, k) => {
    const originGoodId = inputs[madeAt[k]!]!.originGoodId ?? null;
    return { id, index: indexOf(madeAt[k]!), originGoodId, family: (originGoodId && families.get(originGoodId)) || null };
  });
  return { created, skipped, goods };
}

/**
 * The family a good made from each link joins: the link's (src/catalog/goods/decide.ts), which making
 * a good does not move, so the links' read model says it whatever the goods' projection has reached.
 * A link in no family gives a good in none, which the shop never shows (docs/domain.md, Public catalog).
 */
async function familiesOfLinks(pool: GoodDeps['pool'], links: readonly string[]): Promise<Map<string, { id: string; name: string }>> {
  if (links.length === 0) return new Map();
  const r = await pool.query<{ id: string; familyId: string; familyName: string }>(
    `SELECT og.id::text AS id, f.id::text AS "familyId", f.name AS "familyName" FROM origin_goods og JOIN families f ON f.id = og.family_id WHERE og.id = ANY($1::bigint[])`,
    [links],
  );
  return new Map(r.rows.map((row) => [row.id, { id: row.familyId, name: row.familyName }]));
}

/**
 * A good made from a link carries that link's dimension tags whatever the patch (decide.ts), under
 * their reference locks too. `noWait`: a bulk change waits for the projections once, after its last item.
 */
export async function updateGood(
  deps: GoodDeps,
  id: string,
  changes: UpdateGoodBody,
  actor: Actor,
  expectedRevision?: bigint,
  opts: { noWait?: boolean } = {},
): Promise<GoodResult> {
  const origin = await primaryOriginOf(deps.pool, id);
  return withCopiedReferences(
    deps.pool,
    goodReferences(changes),
    () => linksCopied(deps, origin ? [origin] : []),
    async (links) => {
      const link = origin ? requireLink(links, origin) : null;
      const dimensionTagIds = link && changes.tagIds === undefined ? await dimensionTagIdsOf(deps.pool) : undefined;
      return run(deps, id, actor, { type: 'UpdateGood', changes, link, ...(dimensionTagIds ? { dimensionTagIds } : {}) }, { expectedRevision, ...opts });
    },
  );
}

/**
 * Links as a good made from them reads them, and the reference locks of what it copies from them
 * (their category, their live country and tags: decide.ts), for `withCopiedReferences`.
 */
async function linksCopied(deps: GoodDeps, ids: readonly string[]): Promise<{ value: Map<string, LinkRead>; locks: string[] }> {
  const links = ids.length ? await readLinks(deps.pool, ids, await dimensionTagIndex({ pool: deps.pool })) : new Map<string, LinkRead>();
  const locks = [...links.values()].flatMap((l) => [
    ...(l.categoryId ? [referenceLock('category', l.categoryId)] : []),
    ...(l.countryId ? [referenceLock('country', l.countryId)] : []),
    ...l.tagIds.map((t) => referenceLock('tag', t)),
  ]);
  return { value: links, locks };
}

/** The good's link as read under the locks; named by `originGoodId`, so an unknown one is a reference to nothing, not the path's resource. */
function requireLink(links: ReadonlyMap<string, LinkRead>, id: string): LinkRead {
  const link = links.get(id);
  if (!link) throw unknownReference('originGoodId', [id], 'link');
  return link;
}

/**
 * Deletes the good in one multi-stream append with everything that names it, so no read model is
 * left holding its id: its link's claim is released (a new good can be made from it), the home
 * positions that list it drop it, and the families it is a custom member of remove it. Under the
 * good's reference lock (src/catalog/references.ts), so a position or family write naming it waits,
 * then finds it gone.
 */
export async function deleteGood(deps: GoodDeps, id: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  const good = goodStream(id);
  await whileUnreferenced(deps, 'good', id, goodStreamId(id), ['good-', 'position-', 'family-'], () =>
    runAcrossStreams(deps, {
      name: 'DeleteGood',
      actor,
      ...(expectedRevision !== undefined ? { expected: { streamId: good.streamId, revision: expectedRevision } } : {}),
      decide: async (load) => {
        const g = (await load(good)).state;
        const writes: AnyStreamWrite[] = [{ spec: good, events: decideGood(g, { type: 'DeleteGood' }) }];
        if (g.originGoodId) {
          const link = linkStream(g.originGoodId);
          writes.push({ spec: link, events: decideLink((await load(link)).state, { type: 'UnassignGood', linkId: g.originGoodId, goodId: id }) });
        }
        const { positions, families } = await placesNaming(deps.pool, id);
        for (const positionId of positions) {
          const spec = positionStream(positionId);
          const p = (await load(spec)).state;
          if (p.status !== 'active' || !p.goodIds.includes(id)) continue;
          writes.push({ spec, events: decidePosition(p, { type: 'UpdatePosition', positionId, changes: { goodIds: p.goodIds.filter((x) => x !== id) } }) });
        }
        for (const familyId of families) {
          const spec = familyStream(familyId);
          const f = (await load(spec)).state;
          if (!f.customMembers.some((c) => c.goodId === id)) continue;
          writes.push({ spec, events: decideFamily(f, { type: 'RemoveCustomMember', goodId: id }) });
        }
        return { writes, result: null };
      },
    }),
  );
}

/** The good's secondary origin links, each one the read model knows. */
export async function setGoodOrigins(deps: GoodDeps, id: string, ids: readonly string[], actor: Actor, expectedRevision?: bigint): Promise<GoodResult> {
  requireKnownOrigins(ids, await knownLinkIds(deps.pool, ids));
  return run(deps, id, actor, { type: 'SetGoodOrigins', secondaryOriginGoodIds: ids }, { expectedRevision });
}

/** 上架 / 下架 (docs/domain.md, Public catalog). */
export function setGoodShelf(deps: GoodDeps, id: string, state: 'on' | 'off', actor: Actor, expectedRevision?: bigint, opts: { noWait?: boolean } = {}): Promise<GoodResult> {
  return run(deps, id, actor, { type: 'SetGoodShelf', state }, { expectedRevision, ...opts });
}
