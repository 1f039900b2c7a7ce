/**
 * Creating goods: one at a time, or many in multi-stream appends (batch create, the demo).
 *
 * A link is the primary origin of at most one good. The claim (`LinkGoodAssigned`) goes to the link's
 * stream at the revision the link was read at, so two creates from one link cannot both win; the
 * good's `GoodCreated` goes to its new stream in the same append.
 */
import { randomUUID } from 'node:crypto';
import type { Services } from '../../main';
import { runCommand, type Actor } from '../../platform/commands';
import type { Pool } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { eventMetadata } from '../../platform/events/catalogue';
import { type LogPosition, type StreamAppend, EventStoreErrors, comparePositions } from '../../platform/event-store/port';
import { newId } from '../../platform/ids';
import { goodNameFromLink } from '../domain/names';
import { dimensionTagIndex, tagsIn, type DimensionTagIndex } from '../links/dimension-tags';
import type { DimensionValues } from '../links/events';
import { linkStream } from '../links/state';
import { decideCreateGood, type LinkForGood } from './decide';
import { goodStreamId } from './events';
import { type GoodFields, type GoodState, goodStream, initialGoodState } from './state';

export type CreateGoodInput = Partial<GoodFields> & { originGoodId?: string };

/** A link as a good made from it needs it, with the revision it was read at and the good it already has. */
interface LinkRead extends LinkForGood {
  revision: bigint;
  goodId: string | null;
}

/** The links of `ids` that exist, in one query. */
async function readLinks(pool: Pool, ids: readonly string[], index: DimensionTagIndex): Promise<Map<string, LinkRead>> {
  if (ids.length === 0) return new Map();
  const r = await pool.query<{
    id: string;
    name: string;
    image: string | null;
    category_id: string | null;
    category_name: string | null;
    parsed_product_name: string | null;
    parsed_sku: string | null;
    country_id: string | null;
    tags: DimensionValues | null;
    revision: string;
    good_id: string | null;
  }>(
    `SELECT og.id, og.name, og.image, og.category_id, c.name AS category_name, og.parsed_product_name, og.parsed_sku, og.tags, og.revision,
            (SELECT co.id FROM countries co WHERE co.name = og.parsed_country AND NOT co.removed ORDER BY co.id LIMIT 1) AS country_id,
            (SELECT g.id FROM goods g WHERE g.origin_good_id = og.id ORDER BY g.id LIMIT 1) AS good_id
       FROM origin_goods og LEFT JOIN categories c ON c.id = og.category_id WHERE og.id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(
    r.rows.map((l) => {
      const parsed = l.parsed_product_name && l.parsed_sku ? { productName: l.parsed_product_name, sku: l.parsed_sku } : null;
      const link: LinkRead = {
        id: l.id,
        derivedName: goodNameFromLink({ name: l.name, parsed, categoryName: l.category_name }),
        categoryName: l.category_name,
        categoryId: l.category_id,
        countryId: l.country_id,
        image: l.image,
        tagIds: tagsIn(index, l.tags).map((t) => t.id),
        revision: BigInt(l.revision),
        goodId: l.good_id,
      };
      return [l.id, link];
    }),
  );
}

export async function linkForGood(pool: Pool, linkId: string): Promise<LinkForGood> {
  const link = (await readLinks(pool, [linkId], await dimensionTagIndex({ pool }))).get(linkId);
  if (!link) throw AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${linkId}`);
  return link;
}

/**
 * Creates one good: the claim on its link first (folded from the link's stream), then the good.
 * Returns the good's id and the position of its last event (callers batching creates wait once).
 */
export async function createGood(
  s: Services,
  input: CreateGoodInput,
  actor: Actor,
  noWait = false,
): Promise<{ id: string; position: LogPosition | null; state: GoodState; revision: bigint | null }> {
  const { originGoodId, ...rest } = input;
  const id = newId();
  let link: LinkForGood | null = null;
  let claimed: LogPosition | null = null;
  if (originGoodId) {
    link = await linkForGood(s.pool, originGoodId);
    const claim = await runCommand(s, linkStream(originGoodId), {
      name: 'CreateGood',
      actor,
      noWait: true,
      decide: (l) => {
        if (l.goodId) throw AppError.conflict('GOOD.EXISTS_FOR_LINK', `link ${originGoodId} already has good ${l.goodId}`, { goodId: l.goodId });
        return [{ type: 'LinkGoodAssigned', data: { linkId: originGoodId, goodId: id } }];
      },
    });
    claimed = claim.position;
  }
  const r = await runCommand(s, goodStream(id), { name: 'CreateGood', actor, noWait, decide: (st) => decideCreateGood(st, rest, link) });
  if (!noWait && claimed) await s.waitForProjections(claimed, [linkStream(originGoodId!).streamId]);
  return { id, position: latest(claimed, r.position), state: r.state, revision: r.revision };
}

const latest = (a: LogPosition | null, b: LogPosition | null) => (!a ? b : !b ? a : comparePositions(a, b) >= 0 ? a : b);

export interface BatchCreated {
  created: string[];
  skipped: { originGoodId?: string; code: string; message: string }[];
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
 * the link's own stream. `created` follows the order of `inputs`.
 */
export async function createGoods(s: Services, inputs: readonly CreateGoodInput[], actor: Actor): Promise<BatchCreated> {
  const index = await dimensionTagIndex({ pool: s.pool });
  const links = await readLinks(s.pool, [...new Set(inputs.flatMap((i) => (i.originGoodId ? [i.originGoodId] : [])))], index);
  const meta = eventMetadata(actor.by, 'CreateGood', actor.correlationId ?? randomUUID());
  const outcome: ({ id: string } | BatchCreated['skipped'][number])[] = [];
  const planned: { at: number; input: CreateGoodInput; appends: StreamAppend[] }[] = [];
  const claimed = new Set<string>();
  for (const input of inputs) {
    const { originGoodId, ...rest } = input;
    try {
      const link = originGoodId ? links.get(originGoodId) : undefined;
      if (originGoodId) {
        if (!link) throw AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${originGoodId}`);
        const has = link.goodId ?? (claimed.has(originGoodId) ? 'this batch' : null);
        if (has) throw AppError.conflict('GOOD.EXISTS_FOR_LINK', `link ${originGoodId} already has good ${has}`, { goodId: has });
        claimed.add(originGoodId);
      }
      const id = newId();
      const events = decideCreateGood(initialGoodState(id)(), rest, link ?? null).map((e) => s.catalogue.encode(e.type, e.data, meta));
      const appends: StreamAppend[] = [{ streamId: goodStreamId(id), events, expectedRevision: 'no_stream' }];
      if (link) {
        appends.unshift({
          streamId: linkStream(link.id).streamId,
          events: [s.catalogue.encode('LinkGoodAssigned', { linkId: link.id, goodId: id }, meta)],
          expectedRevision: link.revision >= 0n ? link.revision : 'no_stream',
        });
      }
      planned.push({ at: outcome.length, input, appends });
      outcome.push({ id });
    } catch (e) {
      if (!(e instanceof AppError) || e.status >= 500) throw e;
      outcome.push({ ...(originGoodId ? { originGoodId } : {}), code: e.code, message: e.message });
    }
  }

  let position: LogPosition | null = null;
  for (let i = 0; i < planned.length; i += BATCH) {
    let pending = planned.slice(i, i + BATCH);
    while (pending.length) {
      try {
        const results = await s.store.appendToStreams(pending.flatMap((p) => p.appends));
        for (const r of results) position = latest(position, r.position);
        break;
      } catch (e) {
        const streamId = e instanceof AppError && e.code === EventStoreErrors.WRONG_REVISION ? (e.details as { streamId?: string } | undefined)?.streamId : undefined;
        const k = pending.findIndex((p) => p.appends.some((a) => a.streamId === streamId));
        if (k < 0) throw e;
        // The link moved since it was read (another create, a sync): decide on its stream instead.
        const moved = pending[k]!;
        pending = pending.filter((_, j) => j !== k);
        try {
          const alone = await createGood(s, moved.input, actor, true);
          outcome[moved.at] = { id: alone.id };
          position = latest(position, alone.position);
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          outcome[moved.at] = { ...(moved.input.originGoodId ? { originGoodId: moved.input.originGoodId } : {}), code: err.code, message: err.message };
        }
      }
    }
  }
  return {
    created: outcome.flatMap((o) => ('id' in o ? [o.id] : [])),
    skipped: outcome.flatMap((o) => ('id' in o ? [] : [o])),
    position,
  };
}
