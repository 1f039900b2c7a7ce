/**
 * The public cache bounded by bytes, and keywords keyed as the list query matches them (docs/api.md,
 * Public read caching). On a catalog made the operator's way, the tests check against the real
 * database: the keyword fold is PostgreSQL's own (ILIKE and pg_trgm lower both sides with lower()),
 * and a synonym is keyed by its group (docs/domain.md, Search), so keywords share an entry exactly
 * when the database gives them the same answer, and a flood of distinct keyword
 * lists from an anonymous client keeps the process's Buffer memory within PUBLIC_CACHE_MAX_BYTES
 * while every answer equals a reference computed in SQL.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { likePattern } from '../../../src/platform/sql';
import { SEARCH_SYNONYMS } from '../../../src/catalog/domain/synonyms';
import { type Catalog, SORTS, populatedCatalog, referenceListSql, wholeList } from './catalog-fixture';
import type { TestService } from '../../support/service';

jest.setTimeout(300_000);

const BUDGET = 160 * 1024;

/** A full collection, so Buffers no longer referenced are gone before memory is read. */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const bufferBytes = async () => {
  gc();
  gc();
  const bytes = process.memoryUsage().arrayBuffers;
  // Timers and socket events held up by the collections run before the next request goes out.
  await new Promise((r) => setTimeout(r, 100));
  return bytes;
};

/** Family names that tell case folds apart: dotted I, sharp s, final sigma, full-width Latin, Cyrillic, titlecase digraphs, the Kelvin sign, a ligature. */
const TRICKY_NAMES = [
  'İstanbul Tişört',
  'istanbul tisort',
  'ISTANBUL',
  'Straße Tee',
  'STRAẞE Tee',
  'STRASSE Tee',
  'ΟΔΟΣ μπλουζα',
  'οδος μπλουζα',
  'οδοσ',
  'Ｔシャツ ＧＯＬＤ',
  'ｔシャツ ｇｏｌｄ',
  'Жакет',
  'жакет',
  'ǅemper',
  'Kelvin K',
  'ﬁne cotton',
];
const TRICKY_KEYWORDS = [
  'İ',
  'i',
  'I',
  'ı',
  'İstanbul',
  'istanbul',
  'ß',
  'ẞ',
  'SS',
  'ss',
  'ΟΔΟΣ',
  'οδος',
  'οδοσ',
  'Σ',
  'ς',
  'σ',
  'Ｔ',
  'ｔ',
  'ＧＯＬＤ',
  'ｇｏｌｄ',
  'Ж',
  'ж',
  'Ǆ',
  'ǅ',
  'ǆ',
  'K',
  'k',
  'K',
  'ﬁ',
  'FI',
  'fi',
  'T恤',
  't恤',
  'Ｔ恤',
  'G5000',
  'g5000',
  'ｇ５０００',
];

describe('the public cache: keywords folded as the database matches them, bytes bounded', () => {
  let cat: Catalog;
  let svc: TestService;
  const q = async <T = any>(sql: string, params: unknown[] = []): Promise<T[]> => (await svc.db.pool.query(sql, params)).rows as T[];
  /** A synonym group's entries (docs/domain.md, Search, rule 3), or null. */
  const groupOf = (k: string) => SEARCH_SYNONYMS.find((g) => g.some((e) => e.normalize('NFKC').toLowerCase() === k.normalize('NFKC').toLowerCase())) ?? null;
  /** Typo tolerance (rule 4): a word as typed, 4 characters or more, no digit. */
  const fuzzy = (k: string) => groupOf(k) === null && [...k].length >= 4 && !/\p{Nd}/u.test(k);
  /**
   * The list of a one-word keyword and sort as the tables give it, with the rules of docs/domain.md,
   * Search written here, not in src/storefront: the family's or representative's name or a tag of
   * one of its goods holds the word (or an entry of its synonym group), or is close to it.
   */
  const reference = async (keyword: string, sort: (typeof SORTS)[number]) => {
    const alternatives = (groupOf(keyword) ?? [keyword]).map(likePattern);
    const tagged = (test: string) => `f.id IN (SELECT sg.family_id FROM goods sg JOIN tags t ON t.id = ANY(sg.tag_ids) AND NOT t.deleted WHERE ${test.replace(/@/g, 't.name')})`;
    const close = fuzzy(keyword) ? ` OR f.name %> $2 OR rep.name %> $2 OR ${tagged('@ %> $2')}` : '';
    const where = `(f.name ILIKE ANY($1::text[]) OR rep.name ILIKE ANY($1::text[]) OR ${tagged('@ ILIKE ANY($1::text[])')}${close})`;
    return (await q<{ goodId: string }>(referenceListSql(sort, where), fuzzy(keyword) ? [alternatives, keyword] : [alternatives])).map((r) => r.goodId);
  };
  /**
   * An anonymous GET. The full collections below stop this process, server and client alike, for a
   * while; a kept-alive connection the server let go meanwhile is reset when the client reuses it,
   * before any answer: that one GET is sent again on a new connection.
   */
  const publicRead = async (path: string) => {
    try {
      return await svc.request('GET', path, undefined, {}, { anonymous: true });
    } catch (e) {
      if ((e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
      return svc.request('GET', path, undefined, {}, { anonymous: true });
    }
  };
  const listed = async (keyword: string, sort: (typeof SORTS)[number]) =>
    (await wholeList(svc, `keyword=${encodeURIComponent(keyword)}&sort=${sort}`)).items.map((i) => i.goodId as string);

  beforeAll(async () => {
    cat = await populatedCatalog({ links: 400, env: { PUBLIC_CACHE_MAX_BYTES: String(BUDGET) } });
    svc = cat.svc;
    const families = await q<{ id: string }>(`SELECT id::text AS id FROM families WHERE good_count > 0 ORDER BY id LIMIT $1`, [TRICKY_NAMES.length]);
    for (const [i, f] of families.entries()) {
      const r = await svc.request('PATCH', `/product-families/${f.id}`, { name: TRICKY_NAMES[i] });
      expect([TRICKY_NAMES[i], r.status]).toEqual([TRICKY_NAMES[i], 200]);
    }
  });
  afterAll(async () => {
    await cat?.close();
  });

  it('keys a keyword by what it matches: variants share an entry exactly when the database answers them alike', async () => {
    const names = (await q<{ n: string }>(`SELECT f.name AS n FROM families f UNION SELECT g.name FROM goods g`)).map((r) => r.n);
    // The fold ILIKE and pg_trgm apply: on a UTF-8 database they lower both sides with lower(). A
    // synonym is its group; any other word its fold, and whether it is long enough for typos.
    const byFold = new Map<string, string[]>();
    const dbFold = new Map<string, string>();
    for (const k of TRICKY_KEYWORDS) {
      const [db] = await q<{ lowered: string }>(`SELECT lower($1::text) AS lowered`, [likePattern(k)]);
      const key = groupOf(k) ? `group ${groupOf(k)![0]}` : `${db!.lowered} ${fuzzy(k)}`;
      dbFold.set(k, key);
      byFold.set(key, [...(byFold.get(key) ?? []), k]);
    }
    // Sharing by it is sound: keywords with one key match the same names, name by name, in the database.
    const matches = async (k: string) =>
      (
        await q<{ m: boolean }>(`SELECT n ILIKE ANY($1::text[]) OR ($3 AND n %> $4) AS m FROM unnest($2::text[]) WITH ORDINALITY AS t(n, o) ORDER BY o`, [
          (groupOf(k) ?? [k]).map(likePattern),
          names,
          fuzzy(k),
          k,
        ])
      ).map((r) => r.m);
    for (const group of byFold.values()) {
      const first = await matches(group[0]!);
      for (const k of group.slice(1)) expect([group[0], k, await matches(k)]).toEqual([group[0], k, first]);
    }
    // And worth having: case variants do collapse (T恤/t恤, G5000/g5000, Ж/ж at least).
    expect(byFold.size).toBeLessThan(TRICKY_KEYWORDS.length - 2);
    // JavaScript's toLowerCase is not that fold on a libc database: it gives İ two characters, a final
    // Σ its final form, and lowers Cyrillic under a C collation; keying by it would share or split wrongly.
    const [provider] = await q<{ p: string }>(`SELECT datlocprovider::text AS p FROM pg_database WHERE datname = current_database()`);
    if (provider!.p === 'c') {
      const lowered = await q<{ k: string; l: string }>(`SELECT k, lower(k) AS l FROM unnest($1::text[]) AS k`, [TRICKY_KEYWORDS]);
      expect(lowered.filter((r) => r.k.toLowerCase() !== r.l).length).toBeGreaterThan(0);
    }

    // Over HTTP: every keyword in every sort answers what the tables answer, and each (fold, sort) loads once.
    const loadsBefore = svc.services.cache.stats().loads;
    for (const sort of SORTS) {
      for (const k of TRICKY_KEYWORDS) expect([k, sort, await listed(k, sort)]).toEqual([k, sort, await reference(k, sort)]);
    }
    expect(svc.services.cache.stats().loads - loadsBefore).toBe(byFold.size * SORTS.length);
    // The service's keys are those: two keywords share one exactly when their keys here are equal.
    const served = new Map<string, string>();
    for (const k of TRICKY_KEYWORDS) served.set(k, await svc.services.storefront.keywords.fold(k));
    for (const a of TRICKY_KEYWORDS) for (const b of TRICKY_KEYWORDS) expect([a, b, served.get(a) === served.get(b)]).toEqual([a, b, dbFold.get(a) === dbFold.get(b)]);
  });

  it('many distinct keyword lists from an anonymous client: the Buffers held stay within PUBLIC_CACHE_MAX_BYTES, every answer still right', async () => {
    // A list of the whole catalog must fit the budget, or nothing would be kept at all.
    expect((await wholeList(svc)).total).toBeGreaterThan(100);
    expect(svc.services.cache.stats().tooLarge).toBe(0);
    // Keywords that select large lists: the substrings of one to three characters most names share.
    const names = (await q<{ n: string }>(`SELECT g.name AS n FROM families f JOIN goods g ON g.id = f.representative_good_id WHERE f.good_count > 0`)).map((r) => r.n);
    const counts = new Map<string, number>();
    for (const n of names) {
      const seen = new Set<string>();
      for (let len = 1; len <= 3; len++) for (let i = 0; i + len <= n.length; i++) seen.add(n.slice(i, i + len).toLowerCase());
      for (const s of seen) if (s.trim() === s && s.trim()) counts.set(s, (counts.get(s) ?? 0) + 1);
    }
    const keywords = [...counts]
      .filter(([, c]) => c >= names.length / 30)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 200)
      .map(([s]) => s);
    expect(keywords.length).toBeGreaterThanOrEqual(100);

    const baseline = await bufferBytes();
    const loadedBefore = svc.services.cache.stats().loadedBytes;
    let worst = 0;
    let heldMost = 0;
    let requests = 0;
    for (const [n, k] of keywords.entries()) {
      // Each keyword in every sort, every other one spelt in capitals.
      const spelt = n % 2 ? k.toUpperCase() : k;
      for (const sort of SORTS) {
        const r = await publicRead(`/public/goods?pageSize=1&keyword=${encodeURIComponent(spelt)}&sort=${sort}`);
        expect(r.status).toBe(200);
        requests++;
        heldMost = Math.max(heldMost, svc.services.cache.stats().bytes);
      }
      if (n % 20 === 19) worst = Math.max(worst, (await bufferBytes()) - baseline);
    }
    worst = Math.max(worst, (await bufferBytes()) - baseline);
    const stats = svc.services.cache.stats();
    // What the flood made the cache load: every distinct list once (the keyword's own spelling aside).
    const loaded = stats.loadedBytes - loadedBefore;
    process.stdout.write(
      `cache bounds: ${requests} lists, ${Math.round(loaded / 1024)} KB loaded; Buffers grew at most ${Math.round(worst / 1024)} KB over the start; the cache held at most ${Math.round(heldMost / 1024)} KB (budget ${BUDGET / 1024} KB); ${JSON.stringify(stats)}\n`,
    );
    expect(requests).toBe(keywords.length * SORTS.length);
    // Measured, not assumed: the process's Buffer memory after a full collection stayed near the budget ...
    expect(worst).toBeLessThan(BUDGET + 3 * 1024 * 1024);
    // ... and so did what the cache says it holds, while the lists asked for add up to many times it.
    expect(heldMost).toBeLessThanOrEqual(BUDGET);
    expect(loaded).toBeGreaterThan(20 * BUDGET);
    expect(stats.evicted).toBeGreaterThan(0);

    // Every answer still right after all that eviction: each keyword, each sort, against the tables.
    for (const k of keywords.slice(0, 20)) for (const sort of SORTS) expect([k, sort, await listed(k, sort)]).toEqual([k, sort, await reference(k, sort)]);
  });
});
