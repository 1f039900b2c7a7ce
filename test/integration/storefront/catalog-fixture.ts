/**
 * A populated catalog the way an operator makes one (test/integration/catalog/organisation.test.ts):
 * supplier simulator → sync categories, links, details → organise → goods for the organised links.
 * The links of one family get no goods, so that family is not public; and the storefront's reference
 * answers are computed here straight from the read models with the docs/domain.md rules written as SQL,
 * independently of src/storefront.
 */
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

export interface Catalog {
  sim: RunningSimulator;
  svc: TestService;
  /** a family with member links but no goods: not public */
  hiddenFamilyId: string;
  close(): Promise<void>;
}

export async function populatedCatalog(opts: { links?: number; seed?: number; env?: Record<string, string> } = {}): Promise<Catalog> {
  const sim = await startSimulator({ links: opts.links ?? 300, seed: opts.seed ?? 11 });
  const svc = await startTestService({ env: { UPSTREAM_URL: sim.url, ...opts.env } });
  const sync = async (path: string) => {
    const started = await svc.request('POST', path);
    const run = await eventually(async () => {
      const r = await svc.request('GET', `/sync/runs/${started.body.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
    if (run.state !== 'succeeded') throw new Error(`${path}: ${JSON.stringify(run)}`);
  };
  for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) await sync(p);
  const organised = await svc.request('POST', '/product-families/organize');
  if (organised.status !== 200) throw new Error(`organise: ${organised.status}`);

  const families = await svc.db.pool.query<{ family_id: string; links: string[] }>(
    `SELECT family_id, array_agg(id::text ORDER BY id) AS links FROM origin_goods WHERE family_id IS NOT NULL GROUP BY family_id ORDER BY family_id`,
  );
  const hidden = families.rows[families.rows.length - 1]!;
  const links = families.rows.filter((f) => f !== hidden).flatMap((f) => f.links);
  for (let i = 0; i < links.length; i += 1000) {
    const b = await svc.request('POST', '/goods/batch', { originGoodIds: links.slice(i, i + 1000) });
    if (b.status !== 201) throw new Error(`goods batch: ${b.status} ${JSON.stringify(b.body)}`);
  }
  // The batch answers when the goods are projected; the families' recompute is in the same batch.
  await eventually(async () => {
    const r = await svc.db.pool.query(`SELECT count(*)::int AS n FROM goods WHERE family_id IS NOT NULL`);
    return r.rows[0].n === links.length;
  });
  return {
    sim,
    svc,
    hiddenFamilyId: hidden.family_id,
    async close() {
      const failed = await svc.db.pool.query(`SELECT name, last_error FROM projection_checkpoints WHERE last_error IS NOT NULL`);
      await svc.close();
      await sim.close();
      if (failed.rows.length) throw new Error(`projections failed: ${JSON.stringify(failed.rows)}`);
    },
  };
}

/** A public GET without credentials. */
export async function publicGet(svc: Pick<TestService, 'request'>, path: string, headers: Record<string, string> = {}) {
  return svc.request('GET', path, undefined, headers, { anonymous: true });
}

export const SORTS = ['DEFAULT', 'PRICE_ASC', 'PRICE_DESC', 'NEWEST'] as const;

/**
 * The public families in the order docs/domain.md gives, written as one plain SQL ORDER BY: families
 * on the shelf with a good on the shelf, each with the representative chosen here among those goods by
 * goodPriority desc, createdAt desc, id asc (not read from the family row).
 */
export function referenceListSql(sort: (typeof SORTS)[number], where = 'TRUE'): string {
  const byDefault = `co.sort_order ASC NULLS LAST, co.id ASC NULLS LAST,
    (CASE c.level WHEN 3 THEN cp.sort_order WHEN 2 THEN c.sort_order END) ASC NULLS LAST,
    (CASE c.level WHEN 3 THEN cp.id WHEN 2 THEN c.id END) ASC NULLS LAST,
    (CASE c.level WHEN 3 THEN c.sort_order END) ASC NULLS LAST,
    (CASE c.level WHEN 3 THEN c.id END) ASC NULLS LAST,
    rep.good_priority DESC, f.id ASC`;
  const first = { DEFAULT: '', PRICE_ASC: 'f.lowest_price ASC NULLS LAST,', PRICE_DESC: 'f.lowest_price DESC NULLS LAST,', NEWEST: 'rep.created_at DESC,' }[sort];
  return `
    WITH rep AS (
      SELECT DISTINCT ON (g.family_id) g.family_id, g.id, g.name, g.image, g.country_id, g.category_id, g.good_priority, g.created_at,
             g.tag_font_color
        FROM goods g WHERE g.family_id IS NOT NULL AND g.on_shelf
       ORDER BY g.family_id, g.good_priority DESC, g.created_at DESC, g.id ASC)
    SELECT f.id::text AS "goodId", rep.id::text AS "repGoodId", rep.name, rep.image, f.lowest_price::text AS price,
           rep.country_id::text AS "countryId", rep.category_id::text AS "categoryId", rep.tag_font_color AS "tagFontColor", f.name AS "familyName"
      FROM families f JOIN rep ON rep.family_id = f.id
      LEFT JOIN countries co ON co.id = rep.country_id
      LEFT JOIN categories c ON c.id = rep.category_id
      LEFT JOIN categories cp ON cp.id = c.parent_id
     WHERE f.on_shelf AND ${where}
     ORDER BY ${first} ${byDefault}`;
}

/** Every item of a list query, page by page (pageSize 100). */
export async function wholeList(svc: Pick<TestService, 'request'>, query = ''): Promise<{ items: any[]; total: number }> {
  const items: any[] = [];
  let total: number;
  for (let page = 1; ; page++) {
    const r = await publicGet(svc, `/public/goods?pageSize=100&page=${page}${query ? '&' + query : ''}`);
    if (r.status !== 200) throw new Error(`list ${query} page ${page}: ${r.status} ${JSON.stringify(r.body)}`);
    total = r.body.total;
    items.push(...r.body.items);
    if (r.body.items.length < 100) break;
  }
  return { items, total };
}
