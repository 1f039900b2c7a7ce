/** Family management (docs/api.md): CRUD, lock, members, custom members, price overrides (the history: ../history). */
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Services } from '../../main';
import { runCommand, loadStream, type Actor } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { parseWith } from '../../platform/http/errors';
import { priceField, visibleName } from '../../platform/http/fields';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { likePattern } from '../../platform/sql';
import { limitOffset, pageQuery, paged } from '../../platform/http/pagination';
import { newId, parseId, idSchema } from '../../platform/ids';
import { actorOf } from '../http';
import { validateOverrideKey } from '../domain/matrix';
import { normaliseMoney } from '../domain/money';
import { linkStream } from '../links/state';
import { familyStreamId } from './events';
import { decideAddCustomMember, decideCreate, decideDelete, decideRemoveCustomMember, decideRemoveOverride, decideSetOverride, decideUpdate, requireFamily } from './decide';
import { familyStream, type FamilyState } from './state';
import type { Organiser } from '../organisation/organise';
import { organiseStatus } from '../organisation/runs';
import type { RouteDoc } from '../../platform/http/openapi';

/** Prices an administrator sets: positive, at most two decimals (docs/domain.md, Identifiers and money). */
const money = priceField();
const values = z.array(z.string().min(1).max(50)).max(50);
const dimensionValues = z.object({ size: values, color: values, printCount: values, craft: values, logistics: values }).strict();
const overrideKey = z.object({ size: z.string(), color: z.string(), printCount: z.string(), craft: z.string(), logistics: z.string() }).strict();

const createBody = z.object({ name: visibleName(200), familyNameKey: z.string().max(300).nullable().optional() }).strict();
const patchBody = z.object({ name: visibleName(200).optional(), locked: z.boolean().optional() }).strict();
const memberBody = z.object({ originGoodId: idSchema }).strict();
const customBody = z.object({ goodId: idSchema, tags: dimensionValues, price: money }).strict();
const listQuery = pageQuery.extend({ keyword: z.string().max(100).optional(), locked: z.enum(['true', 'false']).optional() }).strict();
const setOverrideBody = overrideKey.extend({ price: money });
// docs/api.md: the same body as PUT, price optional (and ignored): a client can send back the cell it shows.
const removeOverrideBody = overrideKey.extend({ price: z.string().max(40).optional() });

interface FamilyRow {
  id: string;
  name: string;
  family_name_key: string | null;
  auto_managed: boolean;
  locked: boolean;
  member_count: number;
  good_count: number;
  representative_good_id: string | null;
  variants: unknown;
  size_chart: unknown;
  packaging_specs: unknown;
  options: unknown;
  price_matrix: Record<string, unknown>;
  conflicts: unknown;
  lowest_price: string | null;
  media_by_color: unknown;
  revision: string;
}

function familyView(f: FamilyRow, members: unknown[], customMembers: unknown[], overrides: unknown[]) {
  const { invalidOverrides, ...priceMatrix } = f.price_matrix as { invalidOverrides?: unknown };
  return {
    id: f.id,
    name: f.name,
    familyNameKey: f.family_name_key,
    autoManaged: f.auto_managed,
    locked: f.locked,
    memberCount: f.member_count,
    goodCount: f.good_count,
    representativeGoodId: f.representative_good_id,
    members,
    customMembers,
    overrides,
    lowestPrice: f.lowest_price === null ? null : normaliseMoney(f.lowest_price),
    priceMatrix,
    invalidOverrides: invalidOverrides ?? [],
    conflicts: f.conflicts,
    variants: f.variants,
    sizeChart: f.size_chart,
    packagingSpecs: f.packaging_specs,
    options: f.options,
    mediaByColor: f.media_by_color,
    revision: f.revision,
  };
}

export async function readFamily(s: Services, id: string) {
  const f = await s.pool.query<FamilyRow>(`SELECT *, lowest_price::text AS lowest_price FROM families WHERE id = $1`, [id]);
  const row = f.rows[0];
  if (!row) throw AppError.notFound('FAMILY.NOT_FOUND', `no family ${id}`);
  const [members, custom, overrides] = await Promise.all([
    s.pool.query(
      `SELECT id, name, delisted, parsed_country IS NOT NULL AS organised, tags, tags_manual AS "tagsManual", tags_missing AS missing
         FROM origin_goods WHERE family_id = $1 ORDER BY id`,
      [id],
    ),
    s.pool.query(`SELECT good_id AS "goodId", tags, price::text AS price FROM family_custom_members WHERE family_id = $1 ORDER BY good_id`, [id]),
    s.pool.query(
      `SELECT size, color, print_count AS "printCount", craft, logistics, price::text AS price FROM family_overrides WHERE family_id = $1
        ORDER BY size, color, print_count, craft, logistics`,
      [id],
    ),
  ]);
  return familyView(
    row,
    members.rows,
    custom.rows.map((c) => ({ ...c, price: normaliseMoney(c.price) })),
    overrides.rows.map((o) => ({ ...o, price: normaliseMoney(o.price) })),
  );
}

/** Moves a link into `familyId` (or out of any family when null), recording it on both families' streams. */
export async function setLinkFamily(s: Services, linkId: string, familyId: string | null, actor: Actor, why: string): Promise<string | null> {
  let previous: string | null = null;
  const r = await runCommand(s, linkStream(linkId), {
    name: why,
    actor,
    noWait: true,
    decide: (link) => {
      if (!link.exists) throw AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${linkId}`);
      previous = link.familyId;
      if (link.familyId === familyId) return [];
      const events = [];
      if (link.familyId) events.push({ type: 'LinkLeftFamily', data: { linkId, familyId: link.familyId } });
      if (familyId) events.push({ type: 'LinkJoinedFamily', data: { linkId, familyId } });
      return events;
    },
  });
  if (!r.position) return previous;
  const streams = [r.events.length ? `link-${linkId}` : ''];
  // The answer waits for the last of the appends: the family's own event comes after the link's, and a
  // read that waited only for the link's could still show the member (the admin then shows it as kept).
  let last = r.position;
  if (previous) {
    const removed = await runCommand(s, familyStream(previous), { name: why, actor, noWait: true, decide: () => [{ type: 'FamilyMemberRemoved', data: { familyId: previous!, linkId } }] });
    if (removed.position) last = removed.position;
    streams.push(familyStreamId(previous));
  }
  if (familyId) {
    const f = await runCommand(s, familyStream(familyId), { name: why, actor, noWait: true, decide: () => [{ type: 'FamilyMemberAdded', data: { familyId, linkId } }] });
    if (f.position) last = f.position;
    streams.push(familyStreamId(familyId));
  }
  await s.waitForProjections(last, streams.filter(Boolean));
  return previous;
}

export function familyRoutes(s: Services, organiser: Organiser, guard: RequestHandler): Router {
  const r = Router();
  const family = (req: { params: Record<string, unknown> }) => parseId(req.params.id);
  /** A family command; If-Match, when sent, must name the family's current revision. */
  const command = async (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1], name: string, decide: (st: FamilyState) => ReturnType<typeof decideUpdate>) => {
    const id = family(req);
    const result = await runCommand(s, familyStream(id), { name, actor: actorOf(req, res), expectedRevision: expectedRevisionOf(req), decide });
    return { id, result };
  };
  /**
   * The family as this command's own append left it (docs/http-contract.md, Revisions): the read
   * model when it shows that revision; its name, lock, custom members and overrides from the
   * command when a later write has already landed; 202 when the read model is not there yet.
   */
  const answer = async (res: Parameters<RequestHandler>[1], status: 200 | 201, id: string, result: { state: FamilyState; revision: bigint | null }) => {
    const row = await readFamily(s, id).catch((e) => (e instanceof AppError && e.status === 404 ? null : Promise.reject(e)));
    const own = result.revision ?? -1n;
    if (!row || BigInt(row.revision) < own) {
      res.status(202).json({ id, revision: result.revision?.toString() ?? null });
      return;
    }
    const st = result.state;
    const body =
      BigInt(row.revision) === own
        ? row
        : {
            ...row,
            name: st.name,
            locked: st.locked,
            customMembers: [...st.customMembers].sort((a, b) => (BigInt(a.goodId) < BigInt(b.goodId) ? -1 : 1)).map((c) => ({ ...c, price: normaliseMoney(c.price) })),
            overrides: st.overrides.map((o) => ({ ...o, price: normaliseMoney(o.price) })),
            revision: own.toString(),
          };
    setRevisionTag(res, body.revision);
    res.status(status).json(body);
  };

  // The report, and the id of the run's record (GET /product-families/organize/runs/:runId).
  r.post('/product-families/organize', guard, async (req, res) => {
    let runId: string | null = null;
    const report = await organiser.organise(actorOf(req, res).by, { onRun: (id) => (runId = id) });
    res.json({ ...report, runId });
  });
  // From the recorded runs, not this process's memory: right behind any number of API processes.
  r.get('/product-families/organize/status', guard, async (_req, res) => {
    res.json(await organiseStatus(s.pool));
  });
  r.post('/product-families/auto-group', guard, async (req, res) => {
    let runId: string | null = null;
    const report = await organiser.organise(actorOf(req, res).by, { groupOnly: true, onRun: (id) => (runId = id) });
    res.json({ ...report, runId });
  });

  r.get('/product-families', guard, async (req, res) => {
    const q = parseQuery(listQuery, req.query);
    const { limit, offset } = limitOffset(q);
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.keyword) where.push(`name ILIKE $${params.push(likePattern(q.keyword))}`);
    if (q.locked) where.push(`locked = $${params.push(q.locked === 'true')}`);
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = await s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM families ${w}`, params);
    const rows = await s.pool.query(
      `SELECT id, name, family_name_key AS "familyNameKey", auto_managed AS "autoManaged", locked, member_count AS "memberCount",
              good_count AS "goodCount", lowest_price::text AS "lowestPrice", representative_good_id AS "representativeGoodId"
         FROM families ${w} ORDER BY id LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`,
      params,
    );
    res.json(paged(rows.rows, Number(total.rows[0]!.n), q.page, q.pageSize));
  });

  r.post('/product-families', guard, async (req, res) => {
    const b = parseWith(createBody, req.body, 'body');
    const id = newId();
    const result = await runCommand(s, familyStream(id), { name: 'CreateFamily', actor: actorOf(req, res), decide: (st) => decideCreate(st, b.name, b.familyNameKey ?? null) });
    await answer(res, 201, id, result);
  });

  r.get('/product-families/:id', guard, async (req, res) => {
    const f = await readFamily(s, family(req));
    setRevisionTag(res, f.revision);
    res.json(f);
  });

  r.patch('/product-families/:id', guard, async (req, res) => {
    const b = parseWith(patchBody, req.body, 'body');
    const { id, result } = await command(req, res, 'UpdateFamily', (st) => decideUpdate(st, b));
    await answer(res, 200, id, result);
  });

  r.delete('/product-families/:id', guard, async (req, res) => {
    const id = family(req);
    const facts = await s.pool.query<{ member_count: number; good_count: number }>(`SELECT member_count, good_count FROM families WHERE id = $1`, [id]);
    const f = facts.rows[0] ?? { member_count: 0, good_count: 0 };
    await command(req, res, 'DeleteFamily', (st) => decideDelete(st, { memberCount: f.member_count, goodCount: f.good_count }));
    res.status(204).end();
  });

  r.post('/product-families/:id/members', guard, async (req, res) => {
    const id = family(req);
    const b = parseWith(memberBody, req.body, 'body');
    requireFamily((await loadStream(s, familyStream(id))).state);
    await setLinkFamily(s, b.originGoodId, id, actorOf(req, res), 'AddFamilyMember');
    res.status(201).json(await readFamily(s, id));
  });

  r.delete('/product-families/:id/members/:originGoodId', guard, async (req, res) => {
    const id = family(req);
    const linkId = parseId(req.params.originGoodId, 'originGoodId');
    const member = await s.pool.query(`SELECT 1 FROM origin_goods WHERE id = $1 AND family_id = $2`, [linkId, id]);
    if (!member.rowCount) throw AppError.notFound('FAMILY.MEMBER_NOT_FOUND', `link ${linkId} is not a member of family ${id}`);
    await setLinkFamily(s, linkId, null, actorOf(req, res), 'RemoveFamilyMember');
    res.json(await readFamily(s, id));
  });

  r.post('/product-families/:id/custom-members', guard, async (req, res) => {
    const b = parseWith(customBody, req.body, 'body');
    const good = await s.pool.query<{ origin_good_id: string | null; family_id: string | null }>(`SELECT origin_good_id, family_id FROM goods WHERE id = $1`, [b.goodId]);
    if (!good.rows[0]) throw AppError.notFound('GOOD.NOT_FOUND', `no good ${b.goodId}`);
    if (good.rows[0].origin_good_id) throw AppError.badRequest('FAMILY.NOT_A_CUSTOM_GOOD', 'only custom goods (without an origin link) can be custom members');
    const { id, result } = await command(req, res, 'AddCustomMember', (st) => decideAddCustomMember(st, b.goodId, b.tags, normaliseMoney(b.price)));
    await answer(res, 201, id, result);
  });

  r.delete('/product-families/:id/custom-members/:goodId', guard, async (req, res) => {
    const goodId = parseId(req.params.goodId, 'goodId');
    const { id, result } = await command(req, res, 'RemoveCustomMember', (st) => decideRemoveCustomMember(st, goodId));
    await answer(res, 200, id, result);
  });

  r.put('/product-families/:id/price-overrides', guard, async (req, res) => {
    const b = parseWith(setOverrideBody, req.body, 'body');
    const id = family(req);
    const current = await readFamily(s, id);
    const issues = validateOverrideKey(current.priceMatrix as Parameters<typeof validateOverrideKey>[0], b);
    const { price, ...key } = b;
    const { result } = await command(req, res, 'SetPriceOverride', (st) => decideSetOverride(st, key, normaliseMoney(price), issues));
    await answer(res, 200, id, result);
  });

  r.delete('/product-families/:id/price-overrides', guard, async (req, res) => {
    const { price: _ignored, ...key } = parseWith(removeOverrideBody, req.body, 'body');
    const { id, result } = await command(req, res, 'RemovePriceOverride', (st) => decideRemoveOverride(st, key));
    await answer(res, 200, id, result);
  });

  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const familyRouteDocs: RouteDoc[] = [
  { method: 'post', path: '/product-families/organize', summary: 'Organise: parse link names, derive tags, auto-group into families, recompute every family', auth: true, responses: { 200: 'The report (counts, the manual review list, unparseable links) and the runId of its record', 409: 'Organisation already running' } },
  { method: 'get', path: '/product-families/organize/status', summary: 'The running organisation run, or else the latest, from the records of every process', auth: true, responses: { 200: 'OrganiseRun without its report, or {state: "idle", runId: null, …}' } },
  { method: 'post', path: '/product-families/auto-group', summary: 'Only the auto-group step of organising', auth: true, responses: { 200: 'The report and the runId of its record', 409: 'Organisation already running' } },
  { method: 'get', path: '/product-families', summary: 'List families', auth: true, query: listQuery, responses: { 200: '{items, total, page, pageSize} of families' } },
  { method: 'post', path: '/product-families', summary: 'Create a family', auth: true, body: createBody, responses: { 201: 'The family created', 202: '{id, revision}: written, the read models not there yet' } },
  { method: 'get', path: '/product-families/:id', summary: 'One family: members, custom members, matrix, unions, overrides', auth: true, responses: { 200: 'The family, with its revision (also the ETag)', 404: 'No such family' } },
  { method: 'patch', path: '/product-families/:id', summary: 'Rename or lock a family', auth: true, revision: true, body: patchBody, responses: { 200: 'The family as this write left it', 202: '{id, revision}', 404: 'No such family' } },
  { method: 'delete', path: '/product-families/:id', summary: 'Delete a family without members or goods', auth: true, revision: true, responses: { 204: null, 404: 'No such family', 409: 'The family still has members or goods' } },
  { method: 'post', path: '/product-families/:id/members', summary: 'Add a link to the family (it leaves its old one)', auth: true, body: memberBody, responses: { 201: 'The family', 404: 'No such family or link' } },
  { method: 'delete', path: '/product-families/:id/members/:originGoodId', summary: 'Take a link out of the family', auth: true, responses: { 200: 'The family', 404: 'The link is not a member' } },
  { method: 'post', path: '/product-families/:id/custom-members', summary: 'Add a custom good with its tags and price', auth: true, revision: true, body: customBody, responses: { 201: 'The family as this write left it', 202: '{id, revision}', 404: 'No such family or good' } },
  { method: 'delete', path: '/product-families/:id/custom-members/:goodId', summary: 'Remove a custom member', auth: true, revision: true, responses: { 200: 'The family as this write left it', 202: '{id, revision}', 404: 'No such family or member' } },
  { method: 'put', path: '/product-families/:id/price-overrides', summary: 'Set the price of one matrix cell', auth: true, revision: true, body: setOverrideBody, responses: { 200: 'The family as this write left it', 202: '{id, revision}', 404: 'No such family' } },
  { method: 'delete', path: '/product-families/:id/price-overrides', summary: 'Remove the price override of one matrix cell', auth: true, revision: true, body: removeOverrideBody, responses: { 200: 'The family as this write left it', 202: '{id, revision}', 404: 'No such family' } },
];
