/**
 * The operations of the simulation, as fast-check commands (`fc.commands`): each picks what it acts
 * on from the model by index (so a shrunk sequence still applies), runs against the real service,
 * checks that the write's answer shows its own effect (invariant g) and what the model expects of
 * it, and moves the model on. A failed expectation throws a `Divergence`.
 */
import fc from 'fast-check';
import { applySupplierChange, linkName, type SupplierChange } from '../../src/sync/simulator';
import { eventMetadata } from '../../src/platform/events/registry';
import { newId } from '../../src/platform/ids';
import { compareIds, isPlaceholder, type Dimension, type MFamily, type MLink, Model, nameKey, type NameParts } from './model';
import { caughtUp, Divergence, overrideKey, rebuild, syncRun, type Real } from './world';
import { checkDecisions, checkFamilyAggregates, checkVocabulary, comparePublic, observedFamilies, observedMembership } from './invariants';
import { goodName } from './oracle';
import { beforeAppendTo } from '../support/before-append';

type Cmd = fc.AsyncCommand<Model, Real, false>;

const DELIST_MAX_SHARE = 0.2;
const LOGISTICS = ['包邮', '不包邮', '海运'];
const DESCRIPTORS = ['直喷双面', '烫画', '光板', '热转印单面', '直喷', ''];
const NEW_PRODUCTS = ['试验短袖T恤', '试验卫衣', '试验帆布袋'];
const SECOND_ORIGIN_LIMIT = 3;

/** The instance a write goes through: the service, or the second writing instance on the same database. */
function via(r: Real, n: number) {
  return n % 2 === 0 ? r.world.svc : r.world.writer;
}

function nth<T>(items: readonly T[], pick: number): T | undefined {
  return items.length ? items[pick % items.length] : undefined;
}

function expectStatus(r: { status: number; body: unknown }, allowed: number[], what: string, invariant = 'g'): void {
  if (!allowed.includes(r.status)) throw new Divergence(invariant, `${what}: status ${r.status} (expected ${allowed.join('/')}): ${JSON.stringify(r.body).slice(0, 600)}`);
}

function expectThat(cond: boolean, invariant: string, message: string): void {
  if (!cond) throw new Divergence(invariant, message);
}

const cents = (n: number) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;

const syncedLinks = (m: Model) => [...m.links.values()].filter((l) => l.synced).sort((a, b) => compareIds(a.id, b.id));
const allLinks = (m: Model) => [...m.links.values()].sort((a, b) => compareIds(a.id, b.id));
const liveFamilies = (m: Model) => [...m.families.values()].filter((f) => !f.gone && !isPlaceholder(f.id)).sort((a, b) => compareIds(a.id, b.id));
const goodsList = (m: Model) => [...m.goods.values()].sort((a, b) => compareIds(a.id, b.id));
const ownTags = (m: Model) => [...m.tags.values()].filter((t) => t.dimension === null).sort((a, b) => compareIds(a.id, b.id));
const dimensionTags = (m: Model, d?: Dimension) => [...m.tags.values()].filter((t) => t.dimension !== null && (!d || t.dimension === d)).sort((a, b) => compareIds(a.id, b.id));
const knownParts = (m: Model): NameParts[] => {
  const byKey = new Map<string, NameParts>();
  for (const l of allLinks(m)) if (l.supplier.parts) byKey.set(nameKey(l.supplier.parts), l.supplier.parts);
  return [...byKey.values()];
};

function describe(name: string, args: Record<string, unknown>): string {
  return `${name}(${Object.entries(args)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',')})`;
}

/** A command from a name, its arguments (printed in a reproduction), when it applies, and what it does. */
function command<A extends Record<string, unknown>>(
  name: string,
  args: A,
  applies: (m: Model) => boolean,
  run: (m: Model, r: Real) => Promise<void>,
  after?: (m: Model, world: Real['world']) => Promise<void>,
): Cmd {
  return {
    check: (m) => applies(m as Model),
    run: async (m, r) => {
      r.ops.count++;
      const t0 = Date.now();
      await run(m, r);
      // (d) after every step: each family's aggregates are the model's own computation of them.
      await caughtUp(r.world.svc);
      await checkFamilyAggregates(m, r.world);
      await after?.(m, r.world);
      if (process.env.SIMULATION_VERBOSE) process.stderr.write(`  ${describe(name, args)} ${Date.now() - t0} ms\n`);
    },
    toString: () => describe(name, args),
  };
}

// ------------------------------------------------------------------------------------------ supplier

function supplierChange(m: Model, r: Real, change: SupplierChange): string[] {
  return applySupplierChange(r.world.sim.catalog, change);
}

const newLinkCmd = (a: { kind: 'sameProduct' | 'newProduct' | 'unparseable'; pick: number; logistics: number; descriptor: number; price: number }) =>
  command(
    'supplierNewLink',
    a,
    () => true,
    async (m, r) => {
      const base = nth(knownParts(m), a.pick);
      const categoryId = nth(allLinks(m), a.pick)!.categoryId;
      let parts: NameParts | null;
      if (a.kind === 'sameProduct' && base) parts = { ...base, logistics: LOGISTICS[a.logistics % LOGISTICS.length]!, descriptor: DESCRIPTORS[a.descriptor % DESCRIPTORS.length] };
      else if (a.kind === 'newProduct' || !base)
        parts = {
          country: '美国',
          logistics: LOGISTICS[a.logistics % LOGISTICS.length]!,
          productName: NEW_PRODUCTS[a.pick % NEW_PRODUCTS.length]!,
          sku: `SIM${100 + (a.pick % 7)}`,
          descriptor: DESCRIPTORS[a.descriptor % DESCRIPTORS.length],
        };
      else parts = null;
      const name = parts ? linkName(parts) : `${base!.productName} ${base!.sku}`;
      const sameProductAs = a.kind === 'sameProduct' ? allLinks(m).find((l) => l.supplier.parts && base && nameKey(l.supplier.parts) === nameKey(base))?.id : undefined;
      const [id] = supplierChange(m, r, { kind: 'newLink', name, categoryId, price: cents(a.price), sameProductAs });
      m.links.set(id!, { id: id!, categoryId, supplier: { name, parts, state: 'listed' }, synced: null, delisted: false, parsedKey: null, family: null, manualTagIds: null });
    },
  );

const priceCmd = (a: { pick: number; price: number }) =>
  command(
    'supplierPrice',
    a,
    (m) => allLinks(m).some((l) => l.supplier.state !== 'removed'),
    async (m, r) => {
      const link = nth(
        allLinks(m).filter((l) => l.supplier.state !== 'removed'),
        a.pick,
      )!;
      supplierChange(m, r, { kind: 'price', linkId: link.id, price: cents(a.price) });
    },
  );

const renameCmd = (a: { to: 'descriptor' | 'otherProduct' | 'newProduct' | 'unparseable'; pick: number; pick2: number }) =>
  command(
    'supplierRename',
    a,
    (m) => allLinks(m).some((l) => l.supplier.state !== 'removed'),
    async (m, r) => {
      const link = nth(
        allLinks(m).filter((l) => l.supplier.state !== 'removed'),
        a.pick,
      )!;
      const own = link.supplier.parts;
      let parts: NameParts | null;
      if (a.to === 'descriptor' && own) parts = { ...own, descriptor: DESCRIPTORS[a.pick2 % DESCRIPTORS.length] };
      else if (a.to === 'otherProduct') parts = { ...nth(knownParts(m), a.pick2)!, logistics: LOGISTICS[a.pick2 % LOGISTICS.length]! };
      else if (a.to === 'newProduct' || (a.to === 'descriptor' && !own))
        parts = { country: '英国', logistics: '包邮', productName: NEW_PRODUCTS[a.pick2 % NEW_PRODUCTS.length]!, sku: `RN${10 + (a.pick2 % 5)}`, descriptor: '烫画' };
      else parts = null;
      const name = parts ? linkName(parts) : `${own?.productName ?? '无名'} ${own?.sku ?? 'X100'}`;
      supplierChange(m, r, { kind: 'rename', linkId: link.id, name });
      link.supplier = { ...link.supplier, name, parts };
    },
  );

const detailCmd = (a: { pick: number; kind: 'variantPrice' | 'dropColor'; price: number }) =>
  command(
    'supplierDetail',
    a,
    (m) => allLinks(m).some((l) => l.supplier.state !== 'removed'),
    async (m, r) => {
      const link = nth(
        allLinks(m).filter((l) => l.supplier.state !== 'removed'),
        a.pick,
      )!;
      const detail = r.world.sim.catalog.detail(link.id);
      const v = detail && nth(detail.variants, a.pick);
      if (!v) return;
      supplierChange(m, r, {
        kind: 'detail',
        linkId: link.id,
        change: a.kind === 'variantPrice' ? { kind: 'variantPrice', size: v.size, color: v.color, price: cents(a.price) } : { kind: 'dropColor', color: v.color },
      });
    },
  );

const delistCmd = (a: { pick: number; how: 'removed' | 'offSale' }) =>
  command(
    'supplierDelist',
    a,
    (m) => allLinks(m).some((l) => l.supplier.state === 'listed'),
    async (m, r) => {
      const link = nth(
        allLinks(m).filter((l) => l.supplier.state === 'listed'),
        a.pick,
      )!;
      supplierChange(m, r, { kind: 'delist', linkId: link.id, how: a.how });
      link.supplier.state = a.how === 'removed' ? 'removed' : 'offSale';
    },
  );

const relistCmd = (a: { pick: number }) =>
  command(
    'supplierRelist',
    a,
    (m) => allLinks(m).some((l) => l.supplier.state !== 'listed'),
    async (m, r) => {
      const link = nth(
        allLinks(m).filter((l) => l.supplier.state !== 'listed'),
        a.pick,
      )!;
      supplierChange(m, r, { kind: 'relist', linkId: link.id });
      link.supplier.state = 'listed';
    },
  );

/** The supplier lists nothing for one pass: the pass is held and delists nothing; then the listing is back. */
const emptyListingCmd = () =>
  command(
    'supplierEmptyListing',
    {},
    (m) => syncedLinks(m).some((l) => !l.delisted),
    async (m, r) => {
      const delistedBefore = await r.world.svc.db.pool.query(`SELECT id::text FROM origin_goods WHERE delisted ORDER BY id`);
      const removed = supplierChange(m, r, { kind: 'emptyListing' });
      try {
        const run = await syncRun(r.world.svc, '/sync/origin-goods');
        expectThat(run.state === 'held', 'g', `an empty listing pass ended ${run.state}, not held: ${JSON.stringify(run.counts)}`);
        const after = await r.world.svc.db.pool.query(`SELECT id::text FROM origin_goods WHERE delisted ORDER BY id`);
        expectThat(JSON.stringify(after.rows) === JSON.stringify(delistedBefore.rows), 'g', 'a held listing pass delisted links');
      } finally {
        supplierChange(m, r, { kind: 'restoreListing', linkIds: removed });
      }
    },
  );

// ------------------------------------------------------------------------------------------ syncs

async function checkMirror(m: Model, r: Real): Promise<void> {
  const rows = (await r.world.svc.db.pool.query(`SELECT id::text, name, delisted FROM origin_goods`)).rows as { id: string; name: string; delisted: boolean }[];
  const byId = new Map(rows.map((x) => [x.id, x]));
  for (const l of m.links.values()) {
    const row = byId.get(l.id);
    if (!l.synced) {
      expectThat(!row, 'g', `link ${l.id} is mirrored before any listing pass saw it`);
      continue;
    }
    expectThat(!!row, 'g', `link ${l.id} not mirrored after a listing pass`);
    expectThat(row!.name === l.synced.name, 'g', `link ${l.id}: mirrored name ${row!.name}, supplier listed ${l.synced.name}`);
    expectThat(row!.delisted === l.delisted, 'g', `link ${l.id}: delisted ${row!.delisted}, model ${l.delisted}`);
  }
}

const listingSyncCmd = () =>
  command(
    'syncListing',
    {},
    () => true,
    async (m, r) => {
      const expected = m.listingSync(DELIST_MAX_SHARE);
      const run = await syncRun(r.world.svc, '/sync/origin-goods');
      expectThat(run.state === expected, 'g', `listing pass ended ${run.state}, model expected ${expected}: ${JSON.stringify(run.counts)} ${JSON.stringify(run.errors)}`);
      await caughtUp(r.world.svc);
      await checkMirror(m, r);
      await checkDecisions(m, r.world);
    },
  );

const detailsSyncCmd = (a: { one: boolean; pick: number }) =>
  command(
    'syncDetails',
    a,
    (m) => syncedLinks(m).length > 0,
    async (m, r) => {
      if (a.one) {
        const link = nth(
          syncedLinks(m).filter((l) => !l.delisted),
          a.pick,
        );
        if (!link) return;
        const res = await r.world.svc.request('POST', `/sync/origin-goods/${link.id}/detail`);
        // A link the supplier no longer lists has no detail there: the run says so (502).
        expectStatus(res, link.supplier.state === 'removed' ? [200, 502] : [200], `detail sync of ${link.id}`);
      } else {
        const run = await syncRun(r.world.svc, '/sync/details');
        expectThat(run.state === 'succeeded', 'g', `details pass ended ${run.state}: ${JSON.stringify(run.errors)}`);
      }
      await caughtUp(r.world.svc);
      await checkDecisions(m, r.world);
    },
  );

/**
 * A categories pass (categories and countries together, docs/supplier.md): a supplier category or
 * country an administrator deleted comes back while the supplier still lists it; the shop's own are
 * left as they are.
 */
const categorySyncCmd = () =>
  command(
    'syncCategories',
    {},
    () => true,
    async (m, r) => {
      const run = await syncRun(r.world.svc, '/sync/categories');
      expectThat(run.state === 'succeeded', 'g', `categories pass ended ${run.state}: ${JSON.stringify(run.errors)}`);
      for (const c of r.world.sim.catalog.categories()) {
        if (m.deleted.categories.delete(c.id)) m.categories.add(c.id);
      }
      for (const c of r.world.sim.catalog.countries()) {
        if (m.deleted.countries.delete(c.id)) m.countries.set(c.id, c.name);
      }
      await caughtUp(r.world.svc);
      const live = new Set((await r.world.svc.db.pool.query(`SELECT id::text FROM categories WHERE NOT removed`)).rows.map((x) => x.id as string));
      const missing = [...m.categories].filter((c) => !live.has(c));
      expectThat(missing.length === 0, 'g', `after a categories pass, categories ${missing} are not live`);
      await checkDecisions(m, r.world);
    },
    checkVocabulary,
  );

/**
 * A listing pass running while an organisation runs. Only when no rename waits at the supplier (a
 * rename mirrored half-way through a run could be read either way, link by link), so the two orders
 * give the only outcomes: the pass before the run, or after it.
 */
const syncDuringOrganiseCmd = (a: { delayMs: number }) =>
  command(
    'syncDuringOrganise',
    a,
    (m) => [...m.links.values()].every((l) => !l.synced || l.synced.name === l.supplier.name),
    async (m, r) => {
      const newLinks = [...m.links.values()].filter((l) => !l.synced).map((l) => l.id);
      const [org, run] = await Promise.all([organiseOnce(r), new Promise((res) => setTimeout(res, a.delayMs)).then(() => syncRun(r.world.svc, '/sync/origin-goods'))]);
      expectStatus(org, [200], 'organise during a listing pass');
      await caughtUp(r.world.svc);
      const syncFirst = m.clone();
      const state = syncFirst.listingSync(DELIST_MAX_SHARE);
      syncFirst.organise();
      const organiseFirst = m.clone();
      organiseFirst.organise();
      organiseFirst.listingSync(DELIST_MAX_SHARE);
      expectThat(run.state === state, 'g', `listing pass during organisation ended ${run.state}, model expected ${state}`);
      const observed = await observedMembership(r.world);
      const seenFamilies = await observedFamilies(r.world);
      const problems: string[] = [];
      for (const candidate of [syncFirst, organiseFirst]) {
        const unresolved = candidate.resolveNew(observed, seenFamilies);
        const diff = unresolved ? [unresolved] : [...candidate.membershipDiff(observed), ...candidate.familyDiff(seenFamilies)];
        if (diff.length === 0) {
          // Which order the new links saw decides whether the run parsed them: taken from their rows.
          const parsed = new Set(
            (await r.world.svc.db.pool.query(`SELECT id::text FROM origin_goods WHERE id = ANY($1::bigint[]) AND parsed_country IS NOT NULL`, [newLinks])).rows.map(
              (x) => x.id as string,
            ),
          );
          for (const id of newLinks) {
            const l = candidate.links.get(id)!;
            l.parsedKey = parsed.has(id) && l.synced?.parts ? nameKey(l.synced.parts) : null;
          }
          Object.assign(m, candidate);
          await checkMirror(m, r);
          await checkDecisions(m, r.world);
          return;
        }
        problems.push(diff.slice(0, 5).join('; '));
      }
      throw new Divergence('membership', `a listing pass during organisation: no order explains the result: pass first: ${problems[0]} | organisation first: ${problems[1]}`);
    },
  );

/**
 * A listing pass running while an administrator deletes: a good (whose link the pass mirrors, so
 * both append to the link's stream) and an empty family. Both orders give one outcome.
 */
const syncDuringDeletesCmd = (a: { pick: number; delayMs: number }) =>
  command(
    'syncDuringDeletes',
    a,
    (m) => [...m.goods.values()].some((g) => g.link),
    async (m, r) => {
      const g = nth(
        goodsList(m).filter((x) => x.link),
        a.pick,
      )!;
      const empty = liveFamilies(m).find((f) => m.membersOf(f.id).length === 0 && m.goodsOf(f.id).length === 0 && ![...m.goods.values()].some((x) => x.customOf === f.id));
      const expected = m.listingSync(DELIST_MAX_SHARE);
      const deletes = async () => {
        await new Promise((res) => setTimeout(res, a.delayMs));
        const [dg, df] = await Promise.all([
          via(r, a.pick).request('DELETE', `/goods/${g.id}`),
          empty ? via(r, a.pick + 1).request('DELETE', `/product-families/${empty.id}`) : Promise.resolve({ status: 204, body: null }),
        ]);
        expectStatus(dg, [204], `delete good ${g.id} during a listing pass`);
        expectStatus(df, [204], `delete empty family ${empty?.id} during a listing pass`);
      };
      const [run] = await Promise.all([syncRun(r.world.svc, '/sync/origin-goods'), deletes()]);
      expectThat(run.state === expected, 'g', `listing pass during deletes ended ${run.state}, model expected ${expected}: ${JSON.stringify(run.errors)}`);
      m.goods.delete(g.id);
      m.deleted.goods.add(g.id);
      for (const [p, ids] of m.positions)
        m.positions.set(
          p,
          ids.filter((x) => x !== g.id),
        );
      if (empty) {
        empty.gone = true;
        m.deleted.families.add(empty.id);
      }
      await caughtUp(r.world.svc);
      await checkMirror(m, r);
      await checkDecisions(m, r.world);
    },
  );

/**
 * Two writing instances on one database at once: one renames a family and edits a good while the
 * other locks the family and sets the good's origins. Each answers its own effect, and all four stand.
 */
const twoWritersCmd = (a: { pick: number; n: number }) =>
  command(
    'twoWriters',
    a,
    (m) => liveFamilies(m).length > 0 && [...m.goods.values()].some((g) => g.link) && syncedLinks(m).length > 1,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const g = nth(
        goodsList(m).filter((x) => x.link),
        a.n,
      )!;
      const name = `双写系列 ${a.n}`;
      const priority = (a.n % 7) - 3;
      const origins = syncedLinks(m)
        .filter((l) => l.id !== g.link)
        .slice(a.n % 3, (a.n % 3) + 2)
        .map((l) => l.id);
      const locked = !f.locked;
      const { svc, writer } = r.world;
      await Promise.all([
        svc.request('PATCH', `/product-families/${f.id}`, { name }).then((res) => familyAnswer(r, res, `rename ${f.id} (first instance)`, (b) => b.name === name)),
        writer.request('PATCH', `/product-families/${f.id}`, { locked }).then((res) => familyAnswer(r, res, `lock ${f.id} (second instance)`, (b) => b.locked === locked)),
        svc
          .request('PATCH', `/goods/${g.id}`, { goodPriority: priority })
          .then((res) => goodAnswer(r, res, `edit good ${g.id} (first instance)`, (b) => Number(b.goodPriority) === priority)),
        writer
          .request('PUT', `/goods/${g.id}/origins`, { secondaryOriginGoodIds: origins })
          .then((res) => goodAnswer(r, res, `origins of ${g.id} (second instance)`, (b) => JSON.stringify(b.secondaryOriginGoodIds) === JSON.stringify(origins))),
      ]);
      Object.assign(f, { name, locked });
      // An edit also brings the good's dimension tags up to its link's (docs/domain.md, Goods).
      const tagIds = [...new Set([...g.tagIds.filter((t) => m.tags.get(t)?.dimension === null), ...(await linkDimensionTagIds(r, await linkTags(r, g.link!)))])];
      Object.assign(g, { goodPriority: priority, secondary: origins, tagIds });
      await caughtUp(svc);
      await checkDecisions(m, r.world);
    },
  );

// ------------------------------------------------------------------------------------------ organisation

async function organiseOnce(r: Real): Promise<{ status: number; body: any }> {
  return r.world.svc.request('POST', '/product-families/organize');
}

/** After an organisation: the model's prediction (placeholders resolved) against the service. */
async function settleOrganised(m: Model, r: Real, what: string): Promise<void> {
  await caughtUp(r.world.svc);
  const observed = await observedMembership(r.world);
  const families = await observedFamilies(r.world);
  const unresolved = m.resolveNew(observed, families);
  if (unresolved) throw new Divergence('membership', `${what}: ${unresolved}`);
  const diff = [...m.membershipDiff(observed), ...m.familyDiff(families)];
  expectThat(diff.length === 0, 'membership', `${what}: ${diff.slice(0, 10).join('; ')}`);
  await checkDecisions(m, r.world);
}

const organiseCmd = () =>
  command(
    'organise',
    {},
    () => true,
    async (m, r) => {
      const res = await organiseOnce(r);
      expectStatus(res, [200], 'organise');
      m.organise();
      await settleOrganised(m, r, 'organise');
    },
  );

const organiseTwiceCmd = () =>
  command(
    'organiseTwoAtOnce',
    {},
    () => true,
    async (m, r) => {
      const [a, b] = await Promise.all([organiseOnce(r), organiseOnce(r)]);
      // One runs; the other is refused while it does (409), or runs after it with nothing to do.
      expectStatus(a, [200, 409], 'organise (first of two)');
      expectStatus(b, [200, 409], 'organise (second of two)');
      expectThat(a.status === 200 || b.status === 200, 'g', 'both organisation runs refused');
      if (a.status === 409) expectThat(a.body?.error?.code === 'ORGANISE.ALREADY_RUNNING', 'g', `409 with ${JSON.stringify(a.body)}`);
      if (b.status === 409) expectThat(b.body?.error?.code === 'ORGANISE.ALREADY_RUNNING', 'g', `409 with ${JSON.stringify(b.body)}`);
      m.organise();
      await settleOrganised(m, r, 'two organisations at once');
    },
  );

/**
 * An organisation with an administrator's write landing while it runs: a link without a good moved
 * into a family that is no fragment, or a family locked. Either order is a right outcome, and the
 * administrator's decision stands in both.
 */
const organiseRacingCmd = (a: { action: 'move' | 'lock'; pick: number; pick2: number; delayMs: number }) =>
  command(
    'organiseRacingAdmin',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const families = liveFamilies(m);
      let admin: () => Promise<void>;
      let applyAdmin: (x: Model) => void;
      /** the families the administrator's write changes: a merge into or out of them decided before the write is left for review */
      let touched: (string | null)[];
      if (a.action === 'move') {
        const targets = families.filter((f) => f.locked || !f.autoManaged || m.goodsOf(f.id).length > 0);
        const target = nth(targets, a.pick2);
        const link = nth(
          syncedLinks(m).filter((l) => !m.goodOfLink(l.id) && l.family !== target?.id),
          a.pick,
        );
        if (!target || !link) return;
        admin = async () => {
          const res = await r.world.svc.request('POST', `/product-families/${target.id}/members`, { originGoodId: link.id });
          expectStatus(res, [201, 202], `move ${link.id} into ${target.id} during organisation`);
        };
        applyAdmin = (x) => void (x.links.get(link.id)!.family = target.id);
        touched = [target.key, m.liveFamily(link.family)?.key ?? null];
      } else {
        const target = nth(families, a.pick);
        if (!target) return;
        admin = async () => {
          const res = await r.world.svc.request('PATCH', `/product-families/${target.id}`, { locked: true });
          await familyAnswer(r, res, `lock ${target.id} during organisation`, (b) => b.locked === true);
        };
        applyAdmin = (x) => void (x.families.get(target.id)!.locked = true);
        touched = [target.key];
      }
      const [org] = await Promise.all([organiseOnce(r), new Promise((res) => setTimeout(res, a.delayMs)).then(admin)]);
      expectStatus(org, [200], 'organise racing an administrator');
      await caughtUp(r.world.svc);
      const observed = await observedMembership(r.world);
      const seenFamilies = await observedFamilies(r.world);
      // The orders the two can take: the write before the run, after it, or between its grouping and
      // its consolidation, where a merge decided before the write is left for review (CHANGED).
      const adminFirst = m.clone();
      applyAdmin(adminFirst);
      adminFirst.organise();
      const organiseFirst = m.clone();
      organiseFirst.organise();
      applyAdmin(organiseFirst);
      const between = m.clone();
      between.group();
      applyAdmin(between);
      between.consolidate();
      const duringMerge = m.clone();
      duringMerge.group();
      applyAdmin(duringMerge);
      duringMerge.consolidate(new Set(touched.filter((k): k is string => !!k)));
      const problems: string[] = [];
      for (const candidate of [adminFirst, organiseFirst, between, duringMerge]) {
        const unresolved = candidate.resolveNew(observed, seenFamilies);
        const diff = unresolved ? [unresolved] : [...candidate.membershipDiff(observed), ...candidate.familyDiff(seenFamilies)];
        if (diff.length === 0) {
          Object.assign(m, candidate);
          await checkDecisions(m, r.world);
          return;
        }
        problems.push(diff.slice(0, 5).join('; '));
      }
      throw new Divergence(
        'membership',
        `organisation racing ${a.action}: no order explains the result: admin first: ${problems[0]} | organise first: ${problems[1]} | between: ${problems[2]} | during a merge: ${problems[3]}`,
      );
    },
  );

/**
 * An administrator's write made at the one moment the timed race above rarely hits: after the
 * organisation has read and decided, just before its first append that names what the write
 * changes. `move`: a link the run will group (parseable, in no family) is put by hand into a family
 * organisation leaves alone; the run must keep the move and list the link for review
 * (MEMBERSHIP_CHANGED), the rest of its group joining as if the administrator had been first.
 * `lock`: a family that takes links (and has no goods, so it is never a merge target) is locked;
 * it must take none of them. When the run never appends there, the write comes after it.
 */
const organiseMidRunCmd = (a: { action: 'move' | 'lock'; pick: number; pick2: number }) =>
  command(
    'organiseAdminMidRun',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const families = liveFamilies(m);
      let streamId: string;
      /** the append the write comes just before: organisation's decision to move the link, or to give the family links */
      let carrying: string[];
      let admin: () => Promise<void>;
      let applyAdmin: (x: Model) => void;
      let moved: { linkId: string; familyId: string } | null = null;
      if (a.action === 'move') {
        const target = nth(
          families.filter((f) => f.locked || !f.autoManaged || m.goodsOf(f.id).length > 0),
          a.pick2,
        );
        if (!target) return;
        const awaiting = () => syncedLinks(m).filter((l) => l.synced?.parts && !m.liveFamily(l.family) && !m.goodOfLink(l.id));
        if (!awaiting().length) {
          // None is waiting to be grouped: one is taken out of an auto-managed family first, as an
          // administrator would, so the run has a link to group.
          const out = nth(
            syncedLinks(m).filter((l) => {
              const f = m.liveFamily(l.family);
              return l.synced?.parts && !m.goodOfLink(l.id) && f?.autoManaged && !f.locked && f.id !== target.id;
            }),
            a.pick,
          );
          if (!out) return;
          await takeOut(r, out);
        }
        const link = nth(awaiting(), a.pick);
        if (!link) return;
        streamId = `link-${link.id}`;
        carrying = ['LinkOrganised'];
        admin = async () => {
          const res = await r.world.svc.request('POST', `/product-families/${target.id}/members`, { originGoodId: link.id });
          expectStatus(res, [201, 202], `move ${link.id} into ${target.id} just before organisation appends to it`);
        };
        applyAdmin = (x) => void (x.links.get(link.id)!.family = target.id);
        moved = { linkId: link.id, familyId: target.id };
      } else {
        // The only family of its product (so the run has nowhere else to put its links), preferably
        // one the run is about to give links to.
        const lockable = families.filter((f) => f.key && f.autoManaged && !f.locked && m.goodsOf(f.id).length === 0 && m.familiesWithKey(f.key).length === 1);
        const awaited = new Set(syncedLinks(m).flatMap((l) => (l.synced?.parts && !m.liveFamily(l.family) ? [nameKey(l.synced.parts)] : [])));
        const joining = lockable.filter((f) => awaited.has(f.key!));
        let target = nth(joining, a.pick);
        if (!target) {
          // None is about to be given links: one of a family's own members (of its product, with no
          // good) is taken out first, as an administrator would, so the run means to put it back.
          const out = nth(
            syncedLinks(m).filter((l) => {
              const f = m.liveFamily(l.family);
              return f && lockable.includes(f) && l.synced?.parts && nameKey(l.synced.parts) === f.key && !m.goodOfLink(l.id);
            }),
            a.pick,
          );
          target = out ? m.liveFamily(out.family)! : nth(lockable, a.pick);
          if (out) await takeOut(r, out);
        }
        if (!target) return;
        const locked = target;
        streamId = `family-${locked.id}`;
        carrying = ['FamilyMembersAdded'];
        admin = async () => {
          const res = await r.world.svc.request('PATCH', `/product-families/${locked.id}`, { locked: true });
          await familyAnswer(r, res, `lock ${locked.id} just before organisation appends to it`, (b) => b.locked === true);
        };
        applyAdmin = (x) => void (x.families.get(locked.id)!.locked = true);
      }
      const hook = beforeAppendTo(r.world.svc.services.store, { streamId, carrying, meanwhile: admin });
      let org: { status: number; body: any };
      try {
        org = await organiseOnce(r);
      } finally {
        hook.restore();
      }
      expectStatus(org, [200], 'organise with an administrator stepping in');
      const first = hook.taken() === 1;
      if (!first) await admin();
      await caughtUp(r.world.svc);
      const expected = m.clone();
      if (first) {
        applyAdmin(expected);
        expected.organise();
      } else {
        expected.organise();
        applyAdmin(expected);
      }
      const observed = await observedMembership(r.world);
      const seenFamilies = await observedFamilies(r.world);
      const unresolved = expected.resolveNew(observed, seenFamilies);
      const diff = unresolved ? [unresolved] : [...expected.membershipDiff(observed), ...expected.familyDiff(seenFamilies)];
      expectThat(
        diff.length === 0,
        'membership',
        `organisation with ${a.action} just before its append to ${streamId} (${first ? 'stepped in' : 'after the run'}): ${diff.slice(0, 5).join('; ')}`,
      );
      const byHand = moved;
      if (first && byHand) {
        expectThat(
          (org.body.review ?? []).some((e: any) => e.linkId === byHand.linkId && e.familyId === byHand.familyId && e.reason === 'MEMBERSHIP_CHANGED'),
          'g',
          `the run's review does not list ${byHand.linkId} as moved by hand to ${byHand.familyId}: ${JSON.stringify(org.body.review)}`,
        );
      }
      Object.assign(m, expected);
      await checkDecisions(m, r.world);
    },
  );

/**
 * A family split as an older version could leave one: a new auto-managed family of the same product
 * holding one of the links, recorded on every stream as organisation does. The next organisation
 * must merge it back (it is a pure fragment) when its product has a family with goods.
 */
const legacyFragmentCmd = (a: { pick: number }) =>
  command(
    'legacyFragment',
    a,
    (m) => liveFamilies(m).some((f) => f.key && m.membersOf(f.id).length >= 2),
    async (m, r) => {
      const source = nth(
        liveFamilies(m).filter((f) => f.key && m.membersOf(f.id).length >= 2),
        a.pick,
      )!;
      const linkId =
        nth(
          m.membersOf(source.id).filter((id) => !m.goodOfLink(id)),
          a.pick,
        ) ?? m.membersOf(source.id).at(-1)!;
      const { store, registry } = r.world.svc.services;
      const id = newId();
      const meta = eventMetadata('system:organise', 'Organise');
      const enc = (type: string, data: unknown) => registry.encode(type, data, meta);
      const revision = async (s: string) => (await store.streamRevision(s)) ?? ('no_stream' as const);
      await store.appendToStreams([
        {
          streamId: `family-${id}`,
          expectedRevision: 'no_stream',
          events: [
            enc('FamilyCreated', { familyId: id, name: `碎片 ${id}`, familyNameKey: source.key, autoManaged: true, locked: false, shelf: 'on' }),
            enc('FamilyMemberAdded', { familyId: id, linkId }),
          ],
        },
        { streamId: `family-${source.id}`, expectedRevision: await revision(`family-${source.id}`), events: [enc('FamilyMemberRemoved', { familyId: source.id, linkId })] },
        {
          streamId: `link-${linkId}`,
          expectedRevision: await revision(`link-${linkId}`),
          events: [enc('LinkLeftFamily', { linkId, familyId: source.id }), enc('LinkJoinedFamily', { linkId, familyId: id })],
        },
      ]);
      m.families.set(id, { id, key: source.key, autoManaged: true, locked: false, name: `碎片 ${id}`, gone: false, overrides: new Map(), shelf: 'on' });
      m.links.get(linkId)!.family = id;
      await caughtUp(r.world.svc);
    },
  );

// ------------------------------------------------------------------------------------------ families

async function family(r: Real, id: string): Promise<any> {
  const res = await r.world.svc.request('GET', `/product-families/${id}`);
  expectStatus(res, [200], `GET family ${id}`);
  return res.body;
}

/** A family write's answer: 200/201 with the family as its own append left it (202 only while projections are stopped). */
/**
 * A write's answer (docs/http-contract.md, Revisions): the resource as its own append left it; or,
 * when the read models were still late after COMMAND_WAIT_MS (a loaded machine), 202 `{id,
 * revision}`, and then the resource shows it once they caught up. Answers the resource as shown.
 */
async function writeAnswer(r: Real, res: { status: number; body: any }, what: string, path: (id: string) => string, shows: (body: any) => boolean): Promise<any> {
  expectStatus(res, [200, 201, 202], what);
  let body = res.body;
  if (res.status === 202) {
    expectThat(typeof body?.id === 'string' && body.revision !== undefined, 'g', `${what}: 202 without {id, revision}: ${JSON.stringify(body)}`);
    await caughtUp(r.world.svc);
    body = (await r.world.svc.request('GET', path(body.id))).body;
  }
  expectThat(shows(body), 'g', `${what}: the answer does not show it: ${JSON.stringify(body).slice(0, 400)}`);
  return body;
}

function familyAnswer(r: Real, res: { status: number; body: any }, what: string, shows: (body: any) => boolean): Promise<any> {
  return writeAnswer(r, res, what, (id) => `/product-families/${id}`, shows);
}

const moveCmd = (a: { pick: number; pick2: number; intoGone: boolean }) =>
  command(
    'adminMoveLink',
    a,
    (m) => syncedLinks(m).length > 0 && liveFamilies(m).length > 1,
    async (m, r) => {
      const link = nth(syncedLinks(m), a.pick)!;
      const gone = a.intoGone ? nth([...m.deleted.families].sort(compareIds), a.pick2) : undefined;
      if (gone) {
        // docs/domain.md, Families: a family deleted or merged takes no member.
        const res = await r.world.svc.request('POST', `/product-families/${gone}/members`, { originGoodId: link.id });
        expectStatus(res, [409], `move link ${link.id} into gone family ${gone}`);
        expectThat(res.body.error.code === 'FAMILY.GONE', 'g', `move into a gone family: ${JSON.stringify(res.body)}`);
        return;
      }
      const target = nth(
        liveFamilies(m).filter((f) => f.id !== link.family),
        a.pick2,
      );
      if (!target) return;
      const res = await r.world.svc.request('POST', `/product-families/${target.id}/members`, { originGoodId: link.id });
      await familyAnswer(r, res, `move link ${link.id} into ${target.id}`, (b) => b.members.some((x: { id: string }) => x.id === link.id));
      link.family = target.id;
    },
  );

const removeMemberCmd = (a: { pick: number }) =>
  command(
    'adminRemoveMember',
    a,
    (m) => syncedLinks(m).some((l) => m.liveFamily(l.family)),
    async (m, r) => {
      const link = nth(
        syncedLinks(m).filter((l) => m.liveFamily(l.family)),
        a.pick,
      )!;
      await takeOut(r, link);
    },
  );

/** An administrator takes a link out of its family; the answer must show it gone, and the model follows. */
async function takeOut(r: Real, link: MLink): Promise<void> {
  const res = await r.world.svc.request('DELETE', `/product-families/${link.family}/members/${link.id}`);
  await familyAnswer(r, res, `remove link ${link.id} from ${link.family}`, (b) => !b.members.some((x: { id: string }) => x.id === link.id));
  link.family = null;
}

const lockCmd = (a: { pick: number; locked: boolean }) =>
  command(
    'adminLock',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const res = await via(r, a.pick + 1).request('PATCH', `/product-families/${f.id}`, { locked: a.locked });
      await familyAnswer(r, res, `${a.locked ? 'lock' : 'unlock'} ${f.id}`, (b) => b.locked === a.locked);
      f.locked = a.locked;
    },
  );

const renameFamilyCmd = (a: { pick: number; n: number }) =>
  command(
    'adminRenameFamily',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const name = `改名系列 ${a.n}`;
      const res = await via(r, a.n).request('PATCH', `/product-families/${f.id}`, { name });
      await familyAnswer(r, res, `rename ${f.id}`, (b) => b.name === name);
      f.name = name;
    },
  );

const createFamilyCmd = (a: { withKey: boolean; pick: number; off?: boolean }) =>
  command(
    'adminCreateFamily',
    a,
    () => true,
    async (m, r) => {
      const parts = a.withKey ? nth(knownParts(m), a.pick) : undefined;
      const key = parts ? nameKey(parts) : null;
      const name = `手工系列 ${a.pick}`;
      const shelf = a.off ? 'off' : 'on';
      const res = await r.world.svc.request('POST', '/product-families', { name, ...(key ? { familyNameKey: key } : {}), ...(a.off ? { shelf } : {}) });
      await familyAnswer(r, res, 'create a family', (b) => b.name === name && b.locked === true && b.autoManaged === false && b.shelf === shelf);
      m.families.set(res.body.id, { id: res.body.id, key, autoManaged: false, locked: true, name, gone: false, overrides: new Map(), shelf });
    },
  );

const deleteFamilyCmd = (a: { pick: number }) =>
  command(
    'adminDeleteFamily',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const custom = [...m.goods.values()].some((g) => g.customOf === f.id);
      const inUse = m.membersOf(f.id).length > 0 || m.goodsOf(f.id).length > 0 || custom;
      const res = await r.world.svc.request('DELETE', `/product-families/${f.id}`);
      if (inUse) {
        expectStatus(res, [409], `delete family ${f.id} in use`);
        expectThat(res.body.error.code === 'FAMILY.NOT_EMPTY', 'g', `delete of a family in use: ${res.body.error.code}`);
        return;
      }
      expectStatus(res, [204], `delete empty family ${f.id}`);
      f.gone = true;
      m.deleted.families.add(f.id);
      expectStatus(await r.world.svc.request('GET', `/product-families/${f.id}`), [404], `GET deleted family ${f.id}`);
    },
  );

const overrideCmd = (a: { pick: number; cell: number; price: number; remove: boolean }) =>
  command(
    'adminOverride',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const body = await family(r, f.id);
      if (a.remove && f.overrides.size > 0) {
        const key = nth([...f.overrides.keys()], a.cell)!;
        const res = await r.world.svc.request('DELETE', `/product-families/${f.id}/price-overrides`, JSON.parse(key));
        await familyAnswer(r, res, `remove override of ${f.id}`, (b) => !b.overrides.some((o: any) => overrideKey(o) === key));
        f.overrides.delete(key);
        return;
      }
      const cell = nth(body.priceMatrix.cells as any[], a.cell);
      if (!cell) return;
      const price = cents(a.price);
      const key = overrideKey(cell);
      const res = await via(r, a.price).request('PUT', `/product-families/${f.id}/price-overrides`, { ...JSON.parse(key), price });
      await familyAnswer(r, res, `override ${key} of ${f.id}`, (b) => b.priceMatrix.cells.some((c: any) => overrideKey(c) === key && Number(c.price) === Number(price)));
      f.overrides.set(key, price);
    },
  );

/** Two writes to one family at once: each answers with its own effect, and both stand. */
const parallelFamilyCmd = (a: { pick: number; pick2: number; n: number }) =>
  command(
    'adminParallelFamilyWrites',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const body = await family(r, f.id);
      const cell = nth(body.priceMatrix.cells as any[], a.pick2);
      const name = `并发系列 ${a.n}`;
      const price = cents(1000 + a.n);
      const link = nth(
        syncedLinks(m).filter((l) => l.family !== f.id),
        a.pick2,
      );
      const writes: Promise<unknown>[] = [
        r.world.svc.request('PATCH', `/product-families/${f.id}`, { name }).then((res) => familyAnswer(r, res, `rename ${f.id} (parallel)`, (b) => b.name === name)),
      ];
      if (cell) {
        const key = overrideKey(cell);
        writes.push(
          via(r, a.n)
            .request('PUT', `/product-families/${f.id}/price-overrides`, { ...JSON.parse(key), price })
            .then((res) =>
              familyAnswer(r, res, `override of ${f.id} (parallel)`, (b) => b.overrides.some((o: any) => overrideKey(o) === key && Number(o.price) === Number(price))),
            ),
        );
        f.overrides.set(key, price);
      }
      if (link) {
        // A member added at the same time: written (201), or 202 when the other write's answer got there first.
        writes.push(
          via(r, a.n + 1)
            .request('POST', `/product-families/${f.id}/members`, { originGoodId: link.id })
            .then((res) => {
              expectStatus(res, [201, 202], `add ${link.id} to ${f.id} (parallel)`);
              if (res.status === 201)
                expectThat(
                  res.body.members.some((x: { id: string }) => x.id === link.id),
                  'g',
                  `parallel member add: answer lacks ${link.id}`,
                );
            }),
        );
        link.family = f.id;
      }
      await Promise.all(writes);
      f.name = name;
      await caughtUp(r.world.svc);
      const after = await family(r, f.id);
      expectThat(after.name === name, 'c', `parallel writes: family ${f.id} name ${after.name}, expected ${name}`);
    },
  );

// ------------------------------------------------------------------------------------------ link tags

const takeoverCmd = (a: { pick: number; picks: number[] }) =>
  command(
    'adminTagTakeover',
    a,
    (m) => syncedLinks(m).length > 0 && dimensionTags(m).length > 0,
    async (m, r) => {
      const link = nth(syncedLinks(m), a.pick)!;
      const dims: Dimension[] = ['craft', 'printCount', 'logistics'];
      const tagIds = [...new Set(a.picks.map((p, i) => nth(dimensionTags(m, dims[i % dims.length]), p)?.id).filter((x): x is string => !!x))];
      if (!tagIds.length) return;
      const res = await r.world.svc.request('PUT', `/origin-goods/${link.id}/tags`, { tagIds });
      expectStatus(res, [200], `tag takeover of ${link.id}`);
      const shown = new Set((res.body.tags as { id: string }[]).map((t) => t.id));
      expectThat(
        tagIds.every((t) => shown.has(t)),
        'g',
        `tag takeover of ${link.id}: answer tags ${[...shown]} lack ${tagIds}`,
      );
      link.manualTagIds = tagIds;
      // docs/domain.md, Manual takeover: a link without a family joins the one grouping would put it in.
      if (!m.liveFamily(link.family)) {
        if (!link.parsedKey && link.synced?.parts) link.parsedKey = nameKey(link.synced.parts);
        const expected = link.parsedKey ? preferredFor(m, link.parsedKey) : null;
        expectThat(
          (res.body.attachedFamilyId ?? null) === (expected?.id ?? null),
          'membership',
          `tag takeover of ${link.id}: attached to ${res.body.attachedFamilyId}, model expects ${expected?.id ?? null}`,
        );
        link.family = expected?.id ?? null;
      } else expectThat(res.body.attachedFamilyId === null, 'membership', `tag takeover of ${link.id} in a family attached it to ${res.body.attachedFamilyId}`);
    },
  );

function preferredFor(m: Model, key: string): MFamily | undefined {
  const all = liveFamilies(m).filter((f) => f.key === key && f.autoManaged && !f.locked);
  return all.sort((x, y) => Number(m.goodsOf(y.id).length > 0) - Number(m.goodsOf(x.id).length > 0) || compareIds(x.id, y.id))[0];
}

const restoreCmd = (a: { pick: number }) =>
  command(
    'adminTagRestore',
    a,
    (m) => syncedLinks(m).some((l) => l.manualTagIds),
    async (m, r) => {
      const link = nth(
        syncedLinks(m).filter((l) => l.manualTagIds),
        a.pick,
      )!;
      const res = await r.world.svc.request('POST', `/origin-goods/${link.id}/tags/restore-auto`);
      if (!link.synced?.parts) {
        // Derived tags come from the name as it is now (docs/domain.md): one outside the grammar has none.
        expectStatus(res, [400], `restore tags of ${link.id}, whose name cannot be read`);
        expectThat(res.body.error.code === 'ORIGIN_GOOD.UNPARSEABLE', 'g', `restore of an unparseable link: ${JSON.stringify(res.body)}`);
        return;
      }
      expectStatus(res, [200], `restore tags of ${link.id}`);
      if (!link.parsedKey) link.parsedKey = nameKey(link.synced.parts);
      expectThat(res.body.tagsManual === false, 'g', `restore of ${link.id}: answer tagsManual ${res.body.tagsManual}`);
      link.manualTagIds = null;
    },
  );

// ------------------------------------------------------------------------------------------ goods

/**
 * A good's tags as an administrator set them: exactly the shop's own tags asked for, plus its link's
 * dimension tags (a good made from a link carries them: src/catalog/goods/decide.ts).
 */
function sameTags(m: Model, shown: string[], asked: string[]): boolean {
  const own = new Set(ownTags(m).map((t) => t.id));
  return asked.every((t) => shown.includes(t)) && shown.filter((t) => own.has(t)).length === asked.length && new Set(shown).size === shown.length;
}

function goodAnswer(r: Real, res: { status: number; body: any }, what: string, shows: (b: any) => boolean): Promise<any> {
  return writeAnswer(r, res, what, (id) => `/goods/${id}`, shows);
}

const createGoodCmd = (a: { pick: number; tag: number; withTag: boolean }) =>
  command(
    'adminCreateGood',
    a,
    (m) => syncedLinks(m).some((l) => !m.goodOfLink(l.id)),
    async (m, r) => {
      const link = nth(
        syncedLinks(m).filter((l) => !m.goodOfLink(l.id)),
        a.pick,
      )!;
      const tag = a.withTag ? nth(ownTags(m), a.tag) : undefined;
      const asked = tag ? [tag.id] : [];
      // docs/domain.md, Goods and delisting: named from the parsed columns when organised, else from
      // the link name, then normalised; it carries the link's dimension tags; its country is the one
      // the parsed name gives.
      const expected = await goodFromLink(m, r, link, asked);
      const res = await r.world.svc.request('POST', '/goods', { originGoodId: link.id, categoryId: link.categoryId, tagIds: asked });
      const family = m.liveFamily(link.family)?.id ?? null;
      const shown = await goodAnswer(r, res, `create a good from ${link.id}`, (b) => b.originGoodId === link.id && (b.familyId ?? null) === family);
      expectGood(shown, expected, `good created from ${link.id}`);
      m.goods.set(shown.id, {
        id: shown.id,
        link: link.id,
        customOf: null,
        goodPriority: 0,
        categoryId: link.categoryId,
        secondary: [],
        custom: null,
        shelf: 'on',
        ...expected,
      });
    },
  );

/** What a good made from this link must be (name, tags, country), from the model and the link's own row. */
async function goodFromLink(m: Model, r: Real, link: MLink, asked: string[]): Promise<{ name: string; tagIds: string[]; countryId: string | null }> {
  const row = (
    await r.world.svc.db.pool.query(`SELECT og.name, og.tags, c.name AS category FROM origin_goods og LEFT JOIN categories c ON c.id = og.category_id WHERE og.id = $1`, [link.id])
  ).rows[0];
  const parsed = link.parsedKey ? (JSON.parse(link.parsedKey) as [string, string, string]) : null;
  const name = goodName(parsed ? `${parsed[1]} ${parsed[2]}` : row.name, row.category);
  const countryId =
    (parsed &&
      [...m.countries]
        .filter(([, n]) => n === parsed[0])
        .map(([id]) => id)
        .sort(compareIds)[0]) ??
    null;
  return { name, tagIds: [...new Set([...asked, ...(await linkDimensionTagIds(r, row.tags))])], countryId };
}

async function linkTags(r: Real, linkId: string): Promise<Record<string, string[]> | null> {
  return (await r.world.svc.db.pool.query(`SELECT tags FROM origin_goods WHERE id = $1`, [linkId])).rows[0]?.tags ?? null;
}

/** The ids of the tags that name a link's dimension values (its dimension's group, the value's name). */
async function linkDimensionTagIds(r: Real, tags: Record<string, string[]> | null): Promise<string[]> {
  if (!tags) return [];
  const vocabulary = (
    await r.world.svc.db.pool.query(`SELECT t.id::text, t.name, g.dimension FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE NOT t.deleted AND g.dimension IS NOT NULL`)
  ).rows;
  return Object.entries(tags).flatMap(([d, values]) => values.flatMap((v) => vocabulary.filter((t) => t.dimension === d && t.name === v).map((t) => t.id as string)));
}

function expectGood(shown: any, want: { name: string; tagIds: string[]; countryId: string | null }, what: string): void {
  const tags = shown.tagIds as string[];
  expectThat(shown.name === want.name, 'g', `${what}: named ${shown.name}, the model names it ${want.name}`);
  expectThat(
    tags.length === want.tagIds.length && new Set(tags).size === tags.length && want.tagIds.every((t) => tags.includes(t)),
    'g',
    `${what}: tags ${tags}, the model gives ${want.tagIds}`,
  );
  expectThat((shown.countryId ?? null) === want.countryId, 'g', `${what}: country ${shown.countryId}, the model gives ${want.countryId}`);
}

/**
 * Goods made in one batch (POST /goods/batch): from links (a link named twice gives one good; a link
 * that has a good already, or that does not exist, is skipped with its index) or as full bodies (a
 * custom good without a name is skipped). Each created good is what the model computes for it.
 */
const batchGoodsCmd = (a: { form: 'links' | 'bodies'; picks: number[]; withTag: boolean; tag: number }) =>
  command(
    'adminGoodsBatch',
    a,
    (m) => syncedLinks(m).length > 0,
    async (m, r) => {
      const links = a.picks.map((p) => nth(syncedLinks(m), p)!);
      const tag = a.withTag ? nth(ownTags(m), a.tag) : undefined;
      const unknown = String(900000000 + a.tag);
      const items: { link: MLink | null; body: Record<string, unknown> }[] =
        a.form === 'links'
          ? [...links.map((l) => ({ link: l, body: { originGoodId: l.id } })), { link: null, body: { originGoodId: unknown } }]
          : [
              ...links.map((l) => ({ link: l, body: { originGoodId: l.id, categoryId: l.categoryId, tagIds: tag ? [tag.id] : [] } })),
              { link: null, body: { name: `批量定制 B${100 + a.tag}` } },
              { link: null, body: { goodPriority: 1 } },
            ];
      // What each item must give, in order: a good (with the model's fields), or a skip with its code.
      const taken = new Set([...m.goods.values()].map((g) => g.link).filter((x): x is string => !!x));
      const outcomes: (
        | { skip: string; index: number }
        | { index: number; link: MLink | null; want: { name: string; tagIds: string[]; countryId: string | null }; categoryId: string | null; priority: number }
      )[] = [];
      for (const [index, item] of items.entries()) {
        const linkId = item.body.originGoodId as string | undefined;
        if (linkId === unknown) outcomes.push({ skip: 'UNKNOWN_REFERENCE', index });
        else if (item.link) {
          if (taken.has(item.link.id)) {
            if (a.form === 'bodies' || !items.slice(0, index).some((x) => x.link?.id === item.link!.id)) outcomes.push({ skip: 'GOOD.EXISTS_FOR_LINK', index });
            continue;
          }
          taken.add(item.link.id);
          const asked = (item.body.tagIds as string[] | undefined) ?? [];
          outcomes.push({ index, link: item.link, want: await goodFromLink(m, r, item.link, asked), categoryId: item.link.categoryId, priority: 0 });
        } else if (typeof item.body.name === 'string')
          outcomes.push({ index, link: null, want: { name: item.body.name, tagIds: [], countryId: null }, categoryId: null, priority: 0 });
        else outcomes.push({ skip: 'GOOD.NAME_REQUIRED', index });
      }
      const res = await r.world.svc.request(
        'POST',
        '/goods/batch',
        a.form === 'links' ? { originGoodIds: items.map((x) => x.body.originGoodId) } : { goods: items.map((x) => x.body) },
      );
      expectStatus(res, [201], `goods batch (${a.form})`);
      const skips = outcomes.filter((o): o is { skip: string; index: number } => 'skip' in o);
      const made = outcomes.filter((o): o is Exclude<(typeof outcomes)[number], { skip: string }> => !('skip' in o));
      const gotSkips = (res.body.skipped as { index: number; code: string }[]).map((x) => `${x.index}:${x.code}`);
      expectThat(
        JSON.stringify(gotSkips) === JSON.stringify(skips.map((x) => `${x.index}:${x.skip}`)),
        'g',
        `goods batch (${a.form}): skipped ${gotSkips}, the model skips ${skips.map((x) => `${x.index}:${x.skip}`)}`,
      );
      expectThat(res.body.created.length === made.length, 'g', `goods batch (${a.form}): created ${res.body.created.length}, the model makes ${made.length}`);
      await caughtUp(r.world.svc);
      for (const [i, o] of made.entries()) {
        const id = res.body.created[i] as string;
        const shown = await r.world.svc.request('GET', `/goods/${id}`);
        expectStatus(shown, [200], `GET good ${id} made by a batch`);
        expectThat((shown.body.originGoodId ?? null) === (o.link?.id ?? null), 'g', `batch good ${id}: link ${shown.body.originGoodId}, asked ${o.link?.id ?? null}`);
        expectGood(shown.body, o.want, `batch good ${id}`);
        m.goods.set(id, {
          id,
          link: o.link?.id ?? null,
          customOf: null,
          goodPriority: o.priority,
          categoryId: o.categoryId,
          secondary: [],
          custom: null,
          shelf: 'on',
          ...o.want,
        });
      }
    },
  );

/** A custom member taken out of its family: the good stays, in no family; the family's matrix loses its cells. */
const removeCustomMemberCmd = (a: { pick: number }) =>
  command(
    'adminRemoveCustomMember',
    a,
    (m) => goodsList(m).some((g) => g.customOf && m.liveFamily(g.customOf)),
    async (m, r) => {
      const g = nth(
        goodsList(m).filter((x) => x.customOf && m.liveFamily(x.customOf)),
        a.pick,
      )!;
      const res = await r.world.svc.request('DELETE', `/product-families/${g.customOf}/custom-members/${g.id}`);
      await familyAnswer(r, res, `remove custom member ${g.id} from ${g.customOf}`, (b) => !b.customMembers.some((c: { goodId: string }) => c.goodId === g.id));
      Object.assign(g, { customOf: null, custom: null });
      const again = await r.world.svc.request('DELETE', `/product-families/${res.body.id}/custom-members/${g.id}`);
      expectStatus(again, [404], `remove custom member ${g.id} twice`);
    },
  );

/**
 * Overrides the service must refuse (docs/domain.md, Price matrix; Identifiers and money): a part that
 * is no value of its dimension in the matrix, five values of the matrix that make no cell, a price of
 * 0, of three decimals or a negative one. Each is a 400 with its code, and nothing changes.
 */
const invalidOverrideCmd = (a: { pick: number; cell: number; kind: 'value' | 'cell' | 'zero' | 'precise' | 'negative' }) =>
  command(
    'adminInvalidOverride',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const before = await family(r, f.id);
      const cells = before.priceMatrix.cells as any[];
      const cell = nth(cells, a.cell) ?? { size: 'M', color: '黑色', printCount: '单面印花', craft: '直喷', logistics: '包邮' };
      let key = { size: cell.size, color: cell.color, printCount: cell.printCount, craft: cell.craft, logistics: cell.logistics };
      let price = '12.50';
      let code = 'FAMILY.OVERRIDE_KEY_INVALID';
      if (a.kind === 'value' || !cells.length) key = { ...key, size: `不存在尺码${a.cell}` };
      else if (a.kind === 'cell') {
        // Five values of the matrix's axes that no cell combines, when the matrix has such a gap.
        const ids = new Set(cells.map((c) => overrideKey(c)));
        const m5 = before.priceMatrix;
        const gap = m5.sizes
          .flatMap((size: string) => m5.colors.map((color: string) => ({ ...key, size, color })))
          .flatMap((k: any) => m5.logistics.map((logistics: string) => ({ ...k, logistics })))
          .find((k: any) => !ids.has(overrideKey(k)));
        key = gap ?? { ...key, craft: `不存在工艺` };
      } else {
        price = a.kind === 'zero' ? '0' : a.kind === 'precise' ? '12.345' : '-5.00';
        code = '';
      }
      const res = await r.world.svc.request('PUT', `/product-families/${f.id}/price-overrides`, { ...key, price });
      expectStatus(res, [400], `invalid override (${a.kind}) of ${f.id}: ${JSON.stringify({ ...key, price })}`);
      expectThat(typeof res.body?.error?.code === 'string' && (!code || res.body.error.code === code), 'g', `invalid override (${a.kind}): ${JSON.stringify(res.body)}`);
      const after = await family(r, f.id);
      expectThat(
        JSON.stringify([after.overrides, after.priceMatrix, after.lowestPrice, after.revision]) ===
          JSON.stringify([before.overrides, before.priceMatrix, before.lowestPrice, before.revision]),
        'g',
        `a refused override changed family ${f.id}`,
      );
    },
  );

const customGoodCmd = (a: { pick: number; price: number }) =>
  command(
    'adminCustomMember',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const name = `定制款 C${100 + a.pick}`;
      const created = await r.world.svc.request('POST', '/goods', { name });
      await goodAnswer(r, created, 'create a custom good', (b) => b.name === name && b.originGoodId == null);
      const gid = created.body.id as string;
      m.goods.set(gid, {
        id: gid,
        link: null,
        customOf: null,
        name,
        goodPriority: Number(created.body.goodPriority ?? 0),
        tagIds: [],
        categoryId: null,
        countryId: null,
        secondary: [],
        custom: null,
        shelf: 'on',
      });
      const cell = ((await family(r, f.id)).priceMatrix.cells as any[])[0];
      const tags = cell
        ? { size: [cell.size], color: [cell.color], printCount: [cell.printCount], craft: [cell.craft], logistics: [cell.logistics] }
        : { size: ['M'], color: ['黑色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] };
      const res = await r.world.svc.request('POST', `/product-families/${f.id}/custom-members`, { goodId: gid, tags, price: cents(a.price) });
      await familyAnswer(r, res, `custom member ${gid} of ${f.id}`, (b) => b.customMembers.some((c: { goodId: string }) => c.goodId === gid));
      Object.assign(m.goods.get(gid)!, { customOf: f.id, custom: { tags, price: cents(a.price) } });
    },
  );

/**
 * 上架 / 下架 (docs/domain.md, Public catalog): an administrator puts a family or a good on the shelf
 * or takes it off. The model's public catalogue (Model.publicFamilies) and the oracle's representative
 * follow; setting the state it is already in changes nothing.
 */
const familyShelfCmd = (a: { pick: number; off: boolean }) =>
  command(
    'adminFamilyShelf',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const f = nth(liveFamilies(m), a.pick)!;
      const state = a.off ? 'off' : 'on';
      const res = await via(r, a.pick).request('PUT', `/product-families/${f.id}/shelf`, { state });
      await familyAnswer(r, res, `family ${f.id} ${state} the shelf`, (b) => b.shelf === state);
      f.shelf = state;
    },
  );

const goodShelfCmd = (a: { pick: number; off: boolean }) =>
  command(
    'adminGoodShelf',
    a,
    (m) => m.goods.size > 0,
    async (m, r) => {
      const g = nth(goodsList(m), a.pick)!;
      const state = a.off ? 'off' : 'on';
      const res = await via(r, a.pick + 1).request('PUT', `/goods/${g.id}/shelf`, { state });
      await goodAnswer(r, res, `good ${g.id} ${state} the shelf`, (b) => b.shelf === state);
      g.shelf = state;
    },
  );

const editGoodCmd = (a: { pick: number; n: number; priority: number; tag: number; country: number; category: number }) =>
  command(
    'adminEditGood',
    a,
    (m) => m.goods.size > 0,
    async (m, r) => {
      const g = nth(goodsList(m), a.pick)!;
      const name = `编辑款 E${100 + a.n}`;
      const tag = nth(ownTags(m), a.tag);
      const countryId = nth([...m.countries.keys()].sort(compareIds), a.country) ?? null;
      const categoryId = nth([...m.categories].sort(compareIds), a.category) ?? null;
      const body = { name, goodPriority: a.priority, tagIds: tag ? [tag.id] : [], countryId, categoryId };
      const res = await via(r, a.n).request('PATCH', `/goods/${g.id}`, body);
      const shown = await goodAnswer(
        r,
        res,
        `edit good ${g.id}`,
        (b) =>
          b.name === name &&
          Number(b.goodPriority) === a.priority &&
          sameTags(m, b.tagIds, body.tagIds) &&
          (b.countryId ?? null) === countryId &&
          (b.categoryId ?? null) === categoryId,
      );
      // A good made from a link keeps that link's dimension tags whatever the patch (docs/domain.md, Goods).
      const tagIds = [...new Set([...body.tagIds, ...(g.link ? await linkDimensionTagIds(r, await linkTags(r, g.link)) : [])])];
      expectGood({ ...shown, name }, { name, tagIds, countryId }, `edit good ${g.id}`);
      Object.assign(g, { name, goodPriority: a.priority, tagIds, countryId, categoryId });
    },
  );

const deleteGoodCmd = (a: { pick: number }) =>
  command(
    'adminDeleteGood',
    a,
    (m) => m.goods.size > 0,
    async (m, r) => {
      const g = nth(goodsList(m), a.pick)!;
      const res = await r.world.svc.request('DELETE', `/goods/${g.id}`);
      expectStatus(res, [204], `delete good ${g.id}`);
      m.goods.delete(g.id);
      m.deleted.goods.add(g.id);
      for (const [p, ids] of m.positions)
        m.positions.set(
          p,
          ids.filter((x) => x !== g.id),
        );
      expectStatus(await r.world.svc.request('GET', `/goods/${g.id}`), [404], `GET deleted good ${g.id}`);
    },
  );

const secondaryCmd = (a: { pick: number; picks: number[] }) =>
  command(
    'adminSecondaryOrigins',
    a,
    (m) => [...m.goods.values()].some((g) => g.link) && syncedLinks(m).length > 1,
    async (m, r) => {
      const g = nth(
        goodsList(m).filter((x) => x.link),
        a.pick,
      )!;
      const ids = [...new Set(a.picks.map((p) => nth(syncedLinks(m), p)!.id))].filter((id) => id !== g.link).slice(0, SECOND_ORIGIN_LIMIT);
      const res = await via(r, a.picks.length).request('PUT', `/goods/${g.id}/origins`, { secondaryOriginGoodIds: ids });
      await goodAnswer(r, res, `secondary origins of ${g.id}`, (b) => JSON.stringify(b.secondaryOriginGoodIds) === JSON.stringify(ids));
      g.secondary = ids;
    },
  );

const positionCmd = (a: { picks: number[] }) =>
  command(
    'adminPositionGoods',
    a,
    (m) => m.positions.size > 0 && m.goods.size > 0,
    async (m, r) => {
      const [pid] = [...m.positions.keys()];
      const ids = [...new Set(a.picks.map((p) => nth(goodsList(m), p)!.id))];
      const res = await r.world.svc.request('PATCH', `/positions/${pid}`, { goodIds: ids });
      await writeAnswer(
        r,
        res,
        `position ${pid} goods`,
        (id) => `/positions/${id}`,
        (b) => JSON.stringify(b.goodIds) === JSON.stringify(ids),
      );
      m.positions.set(pid!, ids);
    },
  );

// ------------------------------------------------------------------------------------------ vocabulary

const tagRenameCmd = (a: { pick: number; n: number }) =>
  command(
    'adminTagRename',
    a,
    (m) => ownTags(m).length > 0,
    async (m, r) => {
      const t = nth(ownTags(m), a.pick)!;
      const name = `风格${a.n}`;
      if ([...m.tags.values()].some((x) => x.name === name && x.dimension === null)) return;
      const res = await r.world.svc.request('PATCH', `/tags/${t.id}`, { name });
      await writeAnswer(
        r,
        res,
        `rename tag ${t.id}`,
        (id) => `/tags/${id}`,
        (b) => b.name === name,
      );
      t.name = name;
    },
  );

const tagDeleteCmd = (a: { pick: number; dimension: boolean }) =>
  command(
    'adminTagDelete',
    a,
    (m) => ownTags(m).length > 0,
    async (m, r) => {
      // A dimension tag only where the model knows who uses it: a takeover naming it.
      const manual = new Set(syncedLinks(m).flatMap((l) => l.manualTagIds ?? []));
      const t = a.dimension
        ? nth(
            dimensionTags(m).filter((x) => manual.has(x.id)),
            a.pick,
          )
        : nth(ownTags(m), a.pick);
      if (!t) return;
      const used = m.tagUsedByGoods(t.id) || manual.has(t.id);
      const res = await r.world.svc.request('DELETE', `/tags/${t.id}`);
      if (used) {
        expectStatus(res, [409], `delete tag ${t.id} in use`);
        expectThat(res.body.error.code === 'TAG.IN_USE' && res.body.error.details?.counts !== undefined, 'g', `delete of a tag in use: ${JSON.stringify(res.body)}`);
        return;
      }
      expectStatus(res, [204], `delete unused tag ${t.id}`);
      m.tags.delete(t.id);
      m.deleted.tags.add(t.id);
    },
  );

const categoryDeleteCmd = (a: { pick: number; own: boolean }) =>
  command(
    'adminCategoryDelete',
    a,
    (m) => m.categories.size > 0,
    async (m, r) => {
      const usedByLinks = new Set(syncedLinks(m).map((l) => l.categoryId));
      const usedByGoods = new Set(goodsList(m).map((g) => g.categoryId));
      const id = a.own ? nth([...m.ownCategories].sort(compareIds), a.pick) : nth([...usedByLinks].sort(compareIds), a.pick);
      if (!id) return;
      const inUse = usedByLinks.has(id) || usedByGoods.has(id);
      const res = await r.world.svc.request('DELETE', `/categories/${id}`);
      const children = [...m.categoryParent].some(([c, p]) => p === id && m.categories.has(c));
      if (children && !inUse) {
        expectStatus(res, [409], `delete category ${id} with children`);
        expectThat(res.body.error.code === 'CATEGORY.HAS_CHILDREN', 'g', `delete of a category with children: ${JSON.stringify(res.body)}`);
        return;
      }
      if (inUse) {
        expectStatus(res, [409], `delete category ${id} in use`);
        expectThat(res.body.error.code === 'CATEGORY.IN_USE' && res.body.error.details?.counts !== undefined, 'g', `delete of a category in use: ${JSON.stringify(res.body)}`);
        return;
      }
      expectStatus(res, [204], `delete unused category ${id}`);
      m.categories.delete(id);
      m.ownCategories.delete(id);
      m.deleted.categories.add(id);
    },
  );

const countryDeleteCmd = (a: { pick: number; own: boolean }) =>
  command(
    'adminCountryDelete',
    a,
    (m) => m.countries.size > 0,
    async (m, r) => {
      const usedByGoods = new Set(goodsList(m).map((g) => g.countryId));
      const parsedNames = new Set(syncedLinks(m).map((l) => (l.parsedKey ? (JSON.parse(l.parsedKey) as string[])[0] : null)));
      const candidates = a.own ? [...m.ownCountries] : [...m.countries.keys()].filter((c) => usedByGoods.has(c) || parsedNames.has(m.countries.get(c)!));
      const id = nth(candidates.sort(compareIds), a.pick);
      if (!id) return;
      const inUse = usedByGoods.has(id) || parsedNames.has(m.countries.get(id)!);
      const res = await r.world.svc.request('DELETE', `/countries/${id}`);
      if (inUse) {
        expectStatus(res, [409], `delete country ${id} in use`);
        expectThat(res.body.error.code === 'COUNTRY.IN_USE' && res.body.error.details?.counts !== undefined, 'g', `delete of a country in use: ${JSON.stringify(res.body)}`);
        return;
      }
      expectStatus(res, [204], `delete unused country ${id}`);
      m.countries.delete(id);
      m.ownCountries.delete(id);
      m.deleted.countries.add(id);
    },
  );

type VocabularyKind =
  'tagCreate' | 'tagGroupCreate' | 'tagMove' | 'tagSort' | 'countryCreate' | 'countrySort' | 'categoryCreate' | 'categoryMove' | 'categorySort' | 'positionCreate' | 'positionSort';

/** A permutation of `ids` drawn from `n`: reversed, rotated, or the first moved last. */
function permute<T>(ids: T[], n: number): T[] {
  if (ids.length < 2) return [...ids];
  const k = n % 3;
  if (k === 0) return [...ids].reverse();
  if (k === 1) return [...ids.slice(1), ids[0]!];
  const at = n % ids.length;
  return [...ids.slice(at), ...ids.slice(0, at)];
}

/**
 * The shop's own vocabulary created, moved and reordered: tags (into a group, between groups, a
 * group's full order), tag groups, countries (and the full order of all of them), categories (under
 * the root or one of the shop's own, moved between them, one parent's full order) and positions. The
 * answer shows the write; the storefront's orders then follow the model (`checkVocabulary`).
 */
const vocabularyCmd = (a: { kind: VocabularyKind; pick: number; n: number }) =>
  command(
    'adminVocabulary',
    a,
    () => true,
    async (m, r) => {
      const svc = r.world.svc;
      const groups = [...m.ownGroups].sort(compareIds);
      const own = [...m.ownCategories].filter((c) => m.categories.has(c)).sort(compareIds);
      const ok = async (res: { status: number; body: any }, what: string, path: (id: string) => string, shows: (b: any) => boolean) => writeAnswer(r, res, what, path, shows);
      switch (a.kind) {
        case 'tagCreate': {
          const groupId = nth(groups, a.pick);
          const name = `新标签${a.n}`;
          if (!groupId || ownTags(m).some((t) => t.name === name)) return;
          const b = await ok(
            await svc.request('POST', '/tags', { name, groupId, sortOrder: a.n % 5 }),
            'create a tag',
            (id) => `/tags/${id}`,
            (x) => x.name === name && x.groupId === groupId,
          );
          m.tags.set(b.id, { id: b.id, name, dimension: null, groupId });
          m.sortOrder.set(`tag:${b.id}`, a.n % 5);
          return;
        }
        case 'tagGroupCreate': {
          const name = `新分组${a.n}`;
          const b = await ok(
            await svc.request('POST', '/tag-groups', { name }),
            'create a tag group',
            (id) => `/tag-groups/${id}`,
            (x) => x.name === name,
          );
          m.ownGroups.add(b.id);
          return;
        }
        case 'tagMove': {
          const t = nth(ownTags(m), a.pick);
          const groupId =
            t &&
            nth(
              groups.filter((g) => g !== t.groupId),
              a.n,
            );
          if (!t || !groupId) return;
          await ok(
            await svc.request('PATCH', `/tags/${t.id}`, { groupId }),
            `move tag ${t.id}`,
            (id) => `/tags/${id}`,
            (x) => x.groupId === groupId,
          );
          t.groupId = groupId;
          return;
        }
        case 'tagSort': {
          // PATCH /tags/sort takes every live tag: the group's own are permuted among their places.
          const groupId = nth(groups, a.pick);
          const all = (await svc.db.pool.query(`SELECT id::text FROM tags WHERE NOT deleted ORDER BY sort_order, id`)).rows.map((x) => x.id as string);
          const mine = all.filter((id) => m.tags.get(id)?.groupId === groupId && m.tags.get(id)?.dimension === null);
          if (!groupId || !mine.length) return;
          const moved = permute(mine, a.n);
          let k = 0;
          const ids = all.map((id) => (mine.includes(id) ? moved[k++]! : id));
          const res = await svc.request('PATCH', '/tags/sort', { ids });
          expectStatus(res, [200, 202, 204], `reorder the tags of group ${groupId}`);
          ids.forEach((id, i) => m.tags.get(id)?.dimension === null && m.sortOrder.set(`tag:${id}`, i));
          return;
        }
        case 'countryCreate': {
          const name = `新国${a.n % 26}`;
          if ([...m.countries.values()].includes(name)) return;
          const code = `Q${String.fromCharCode(65 + (a.n % 26))}`;
          const b = await ok(
            await svc.request('POST', '/countries', { name, code, sortOrder: a.n % 7 }),
            'create a country',
            (id) => `/countries/${id}`,
            (x) => x.name === name,
          );
          m.countries.set(b.id, name);
          m.ownCountries.add(b.id);
          m.sortOrder.set(`country:${b.id}`, a.n % 7);
          return;
        }
        case 'countrySort': {
          const ids = permute([...m.countries.keys()].sort(compareIds), a.n);
          const res = await svc.request('PATCH', '/countries/sort', { ids });
          expectStatus(res, [200, 202, 204], 'reorder the countries');
          ids.forEach((id, i) => m.ownCountries.has(id) && m.sortOrder.set(`country:${id}`, i));
          return;
        }
        case 'categoryCreate': {
          const parentId = a.pick % 2 === 0 ? null : (nth(own, a.pick) ?? null);
          const name = `新类目${a.n}`;
          const b = await ok(
            await svc.request('POST', '/categories', { name, parentId, sortOrder: a.n % 4 }),
            'create a category',
            (id) => `/categories/${id}`,
            (x) => x.name === name && (x.parentId ?? null) === parentId,
          );
          m.categories.add(b.id);
          m.ownCategories.add(b.id);
          m.categoryParent.set(b.id, parentId);
          m.sortOrder.set(`category:${b.id}`, a.n % 4);
          return;
        }
        case 'categoryMove': {
          const c = nth(own, a.pick);
          if (!c) return;
          // Not under itself or one of its descendants.
          const below = (x: string | null): boolean => x !== null && (x === c || below(m.categoryParent.get(x) ?? null));
          const parentId =
            a.n % 3 === 0
              ? null
              : (nth(
                  own.filter((x) => !below(x)),
                  a.n,
                ) ?? null);
          await ok(
            await svc.request('PATCH', `/categories/${c}`, { parentId }),
            `move category ${c}`,
            (id) => `/categories/${id}`,
            (x) => (x.parentId ?? null) === parentId,
          );
          m.categoryParent.set(c, parentId);
          return;
        }
        case 'categorySort': {
          const parentId = nth(own, a.pick);
          if (!parentId) return;
          const ids = permute(
            m.ordered(
              'category',
              own.filter((c) => m.categoryParent.get(c) === parentId),
            ),
            a.n,
          );
          if (!ids.length) return;
          const res = await svc.request('PATCH', '/categories/sort', { parentId, ids });
          expectStatus(res, [200, 202, 204], `reorder the children of category ${parentId}`);
          ids.forEach((id, i) => m.sortOrder.set(`category:${id}`, i));
          return;
        }
        case 'positionCreate': {
          const goodIds = goodsList(m)
            .slice(a.pick % 4, (a.pick % 4) + 2)
            .map((g) => g.id);
          const name = `新位置${a.n}`;
          const b = await ok(
            await svc.request('POST', '/positions', { name, sortOrder: a.n % 5, goodIds }),
            'create a position',
            (id) => `/positions/${id}`,
            (x) => x.name === name && JSON.stringify(x.goodIds) === JSON.stringify(goodIds),
          );
          m.positions.set(b.id, goodIds);
          m.sortOrder.set(`position:${b.id}`, a.n % 5);
          return;
        }
        case 'positionSort': {
          const p = nth([...m.positions.keys()].sort(compareIds), a.pick);
          if (!p) return;
          await ok(
            await svc.request('PATCH', `/positions/${p}`, { sortOrder: a.n % 5 }),
            `reorder position ${p}`,
            (id) => `/positions/${id}`,
            (x) => x.sortOrder === a.n % 5,
          );
          m.sortOrder.set(`position:${p}`, a.n % 5);
          return;
        }
      }
    },
    checkVocabulary,
  );

// ------------------------------------------------------------------------------------------ operations

const PROJECTIONS = ['catalog', 'catalog_tree', 'tags', 'positions'] as const;

const rebuildCmd = (a: { which: number }) =>
  command(
    'rebuildProjection',
    { projection: PROJECTIONS[a.which % PROJECTIONS.length] },
    () => true,
    async (_m, r) => {
      await rebuild(r, [PROJECTIONS[a.which % PROJECTIONS.length]!]);
    },
  );

/** The projection workers stop and start again (a worker restart) while an administrator writes. */
const restartCmd = (a: { pick: number }) =>
  command(
    'workerRestart',
    a,
    (m) => liveFamilies(m).length > 0,
    async (m, r) => {
      const { engine } = r.world.svc.services;
      await engine.stopRunners();
      const f = nth(liveFamilies(m), a.pick)!;
      const name = `重启后系列 ${a.pick}`;
      // Appended while no runner applies it: answered 202 (written, read models late) after COMMAND_WAIT_MS.
      const write = r.world.svc.request('PATCH', `/product-families/${f.id}`, { name });
      await new Promise((res) => setTimeout(res, 100));
      await engine.startRunners();
      const res = await write;
      expectStatus(res, [200, 202], `rename ${f.id} across a worker restart`);
      if (res.status === 200) expectThat(res.body.name === name, 'g', `rename across a restart: answer ${res.body.name}`);
      f.name = name;
      await caughtUp(r.world.svc);
    },
  );

/** The projection leader's connection killed by the server in the middle of applying an administrator's writes. */
const killBatchCmd = (a: { pick: number }) =>
  command(
    'killedBatch',
    a,
    (m) => m.goods.size > 0,
    async (m, r) => {
      const g = nth(goodsList(m), a.pick)!;
      const priority = 1000 + a.pick;
      const write = r.world.svc.request('PATCH', `/goods/${g.id}`, { goodPriority: priority });
      await r.world.svc.db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'catalog-projection:catalog'`,
      );
      const res = await write;
      expectStatus(res, [200, 202], `edit good ${g.id} while its batch is killed`);
      if (res.status === 200) expectThat(Number(res.body.goodPriority) === priority, 'g', `edit across a killed batch: answer ${res.body.goodPriority}`);
      g.goodPriority = priority;
      await caughtUp(r.world.svc);
      // An edit also brings the good's dimension tags up to its link's (docs/domain.md, Goods).
      const now = await r.world.svc.request('GET', `/goods/${g.id}`);
      const tagIds = g.link ? [...new Set([...g.tagIds.filter((t) => m.tags.get(t)?.dimension === null), ...(await linkDimensionTagIds(r, await linkTags(r, g.link)))])] : g.tagIds;
      expectGood(now.body, { name: g.name, tagIds, countryId: g.countryId }, `good ${g.id} after a priority edit`);
      g.tagIds = tagIds;
    },
  );

/**
 * Shoppers read the storefront through the cache between the other operations, so the cache holds
 * answers that later writes must void; each read is compared with the uncached instance (e).
 */
const shopperCmd = (a: { pick: number }) =>
  command(
    'shopperReads',
    a,
    () => true,
    async (m, r) => {
      const tags = ownTags(m).map((t) => `/public/goods?tagIds=${t.id}`);
      const details = liveFamilies(m)
        .slice(a.pick % 3, (a.pick % 3) + 3)
        .map((f) => `/public/goods/${f.id}`);
      await comparePublic(r.world, [
        '/public/goods?pageSize=100',
        '/public/goods?sort=PRICE_ASC&page=2&pageSize=5',
        '/public/home',
        '/public/tag-groups',
        '/public/categories/tree',
        ...tags,
        ...details,
      ]);
    },
  );

// ------------------------------------------------------------------------------------------ the arbitrary

/**
 * Which entity an operation acts on: mostly one of the first few (so operations meet on the same
 * families and links, where the interesting interleavings are), sometimes any.
 */
const pick = fc.oneof({ arbitrary: fc.nat(2), weight: 3 }, { arbitrary: fc.nat(1000), weight: 1 });

export function allCommands(): fc.Arbitrary<Cmd>[] {
  const all = everyCommand();
  // SIM_ONLY=name,name…: draw only these operations (with the supplier's and the syncs'), to dwell on them.
  const only = process.env.SIM_ONLY?.split(',').filter(Boolean);
  if (!only?.length) return all;
  const keep = new Set([...only, 'supplierNewLink', 'supplierPrice', 'supplierRename', 'supplierDetail', 'syncListing', 'syncDetails', 'organise']);
  return all.filter((arb) => keep.has(String(fc.sample(arb, 1)[0]).split('(')[0]!));
}

function everyCommand(): fc.Arbitrary<Cmd>[] {
  return [
    fc
      .record({
        kind: fc.constantFrom('sameProduct' as const, 'newProduct' as const, 'unparseable' as const),
        pick,
        logistics: fc.nat(5),
        descriptor: fc.nat(8),
        price: fc.integer({ min: 990, max: 9990 }),
      })
      .map(newLinkCmd),
    fc.record({ pick, price: fc.integer({ min: 990, max: 9990 }) }).map(priceCmd),
    fc.record({ to: fc.constantFrom('descriptor' as const, 'otherProduct' as const, 'newProduct' as const, 'unparseable' as const), pick, pick2: pick }).map(renameCmd),
    fc.record({ pick, kind: fc.constantFrom('variantPrice' as const, 'dropColor' as const), price: fc.integer({ min: 500, max: 9990 }) }).map(detailCmd),
    fc.record({ pick, how: fc.constantFrom('removed' as const, 'offSale' as const) }).map(delistCmd),
    fc.record({ pick }).map(relistCmd),
    fc.constant(null).map(emptyListingCmd),
    fc.constant(null).map(listingSyncCmd),
    fc.constant(null).map(listingSyncCmd),
    fc.record({ one: fc.boolean(), pick }).map(detailsSyncCmd),
    fc.constant(null).map(organiseCmd),
    fc.constant(null).map(organiseCmd),
    fc.constant(null).map(categorySyncCmd),
    fc.record({ delayMs: fc.integer({ min: 0, max: 80 }) }).map(syncDuringOrganiseCmd),
    fc.record({ pick, delayMs: fc.integer({ min: 0, max: 80 }) }).map(syncDuringDeletesCmd),
    fc.record({ pick, n: fc.nat(30) }).map(twoWritersCmd),
    fc.record({ pick, n: fc.nat(30) }).map(twoWritersCmd),
    fc.constant(null).map(organiseTwiceCmd),
    fc.record({ action: fc.constantFrom('move' as const, 'lock' as const), pick, pick2: pick, delayMs: fc.integer({ min: 0, max: 60 }) }).map(organiseRacingCmd),
    fc.record({ action: fc.constantFrom('move' as const, 'lock' as const), pick, pick2: pick }).map(organiseMidRunCmd),
    fc.record({ pick }).map(legacyFragmentCmd),
    fc.record({ pick, pick2: pick, intoGone: fc.boolean() }).map(moveCmd),
    fc.record({ pick }).map(removeMemberCmd),
    fc.record({ pick, locked: fc.boolean() }).map(lockCmd),
    fc.record({ pick, n: fc.nat(99) }).map(renameFamilyCmd),
    fc.record({ withKey: fc.boolean(), pick, off: fc.boolean() }).map(createFamilyCmd),
    fc.record({ pick, off: fc.boolean() }).map(familyShelfCmd),
    fc.record({ pick, off: fc.boolean() }).map(goodShelfCmd),
    fc.record({ pick, off: fc.boolean() }).map(goodShelfCmd),
    fc.record({ pick }).map(deleteFamilyCmd),
    fc.record({ pick, cell: pick, price: fc.integer({ min: 100, max: 20000 }), remove: fc.boolean() }).map(overrideCmd),
    fc.record({ pick, pick2: pick, n: fc.nat(99) }).map(parallelFamilyCmd),
    fc.record({ pick, picks: fc.array(pick, { minLength: 1, maxLength: 3 }) }).map(takeoverCmd),
    fc.record({ pick }).map(restoreCmd),
    fc.record({ pick, tag: pick, withTag: fc.boolean() }).map(createGoodCmd),
    fc.record({ pick, tag: pick, withTag: fc.boolean() }).map(createGoodCmd),
    fc.record({ pick, price: fc.integer({ min: 100, max: 20000 }) }).map(customGoodCmd),
    fc
      .record({ form: fc.constantFrom('links' as const, 'bodies' as const), picks: fc.array(pick, { minLength: 1, maxLength: 4 }), withTag: fc.boolean(), tag: pick })
      .map(batchGoodsCmd),
    fc.record({ pick }).map(removeCustomMemberCmd),
    fc.record({ pick, cell: pick, kind: fc.constantFrom('value' as const, 'cell' as const, 'zero' as const, 'precise' as const, 'negative' as const) }).map(invalidOverrideCmd),
    fc.record({ pick, n: fc.nat(99), priority: fc.integer({ min: -5, max: 5 }), tag: pick, country: pick, category: pick }).map(editGoodCmd),
    fc.record({ pick }).map(deleteGoodCmd),
    fc.record({ pick, picks: fc.array(pick, { minLength: 0, maxLength: 3 }) }).map(secondaryCmd),
    fc.record({ pick, picks: fc.array(fc.nat(1000), { minLength: 1, maxLength: 3 }) }).map(secondaryCmd),
    fc.record({ picks: fc.array(pick, { minLength: 0, maxLength: 4 }) }).map(positionCmd),
    fc.record({ pick, n: fc.nat(20) }).map(tagRenameCmd),
    fc.record({ pick, dimension: fc.boolean() }).map(tagDeleteCmd),
    fc
      .record({
        kind: fc.constantFrom<VocabularyKind>(
          'tagCreate',
          'tagGroupCreate',
          'tagMove',
          'tagSort',
          'countryCreate',
          'countrySort',
          'categoryCreate',
          'categoryMove',
          'categorySort',
          'positionCreate',
          'positionSort',
        ),
        pick,
        n: fc.nat(30),
      })
      .map(vocabularyCmd),
    fc
      .record({
        kind: fc.constantFrom<VocabularyKind>('tagCreate', 'tagSort', 'countrySort', 'categoryCreate', 'categoryMove', 'categorySort', 'positionSort'),
        pick,
        n: fc.nat(30),
      })
      .map(vocabularyCmd),
    fc.record({ pick, own: fc.boolean() }).map(categoryDeleteCmd),
    fc.record({ pick, own: fc.boolean() }).map(countryDeleteCmd),
    fc.record({ which: fc.nat(3) }).map(rebuildCmd),
    fc.record({ pick }).map(shopperCmd),
    fc.record({ pick }).map(shopperCmd),
    fc.record({ pick }).map(shopperCmd),
    fc.record({ pick }).map(restartCmd),
    fc.record({ pick }).map(killBatchCmd),
  ];
}
