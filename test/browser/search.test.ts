/**
 * Search as people type it (docs/domain.md, Search), in the storefront (/v2/h5) and in the admin's
 * goods list, over the demo catalog: a synonym (`tshirt` finds the T恤), several words, and a search
 * that finds nothing, whose empty state offers categories that lead somewhere. axe-core on each
 * state; screenshots at 390×844 and 1440×900 go to test-results/ (`search-<state>-390.png`,
 * `search-<state>-1440.png`).
 *
 * Waits are on locators, network answers and function predicates, never a sleep.
 */
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/axe';
import { registerAndLogin, shot, sideways, startBrowserSession, until, type BrowserSession } from '../support/browser';

jest.setTimeout(300_000);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const LONG = { timeout: 60_000 };

let session: BrowserSession;

const pub = async <T = any>(p: string): Promise<T> => {
  const r = await fetch(`${session.svc.url}/v2-api${p}`);
  if (!r.ok) throw new Error(`GET ${p} → ${r.status}`);
  return (await r.json()) as T;
};

beforeAll(async () => {
  session = await startBrowserSession();
  session.page.setDefaultTimeout(60_000);
}, 240_000);

afterAll(async () => {
  await session?.close();
});

/** At both sizes: no sideways scrolling, axe clean, a screenshot each; back to `back` after. */
async function atBothSizes(p: Page, name: string, back: { width: number; height: number }): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await p.setViewportSize(size);
    expect([name, size.width, await sideways(p)]).toEqual([name, size.width, { sideways: 0, outermost: [] }]);
    await expectAccessible(p, `${name} at ${size.width}`);
    await shot(p, `search-${name}-${size.width}`);
  }
  await p.setViewportSize(back);
}

const NOTHING = '卫衣 不存在之物';

/** The next answer of a list (a path ending in `path`) searched for `keyword`, or with `param` set. */
const listAnswer = (p: Page, path: string, match: { keyword?: string; param?: string }) =>
  p.waitForResponse((r) => {
    const u = new URL(r.url());
    if (!u.pathname.endsWith(path) || r.request().method() !== 'GET') return false;
    return match.keyword !== undefined ? u.searchParams.get('keyword') === match.keyword : u.searchParams.has(match.param!);
  });

describe('the storefront search', () => {
  it('finds the T恤 for “tshirt”, narrows with a second word, and suggests categories when nothing matches', async () => {
    const expected = await pub<{ total: number; items: { name: string }[] }>(`/public/goods?pageSize=100&keyword=${encodeURIComponent('T恤')}`);
    expect(expected.total).toBeGreaterThan(0);
    const ctx = await session.browser.newContext({ baseURL: session.svc.url, viewport: PHONE, locale: 'zh-CN' });
    const p = await ctx.newPage();
    try {
      await p.goto('/v2/h5/#/list');
      await p.getByTestId('good-card').first().waitFor(LONG);

      // A synonym, typed as people type it.
      const searched = listAnswer(p, '/public/goods', { keyword: 'tshirt' });
      await p.getByLabel('搜索商品').fill('tshirt');
      await p.getByLabel('搜索商品').press('Enter');
      await searched;
      await until(
        () => p.getByTestId('result-count').innerText(),
        (t) => expect(t).toContain(String(expected.total)),
      );
      const names = await p.getByTestId('good-card').allInnerTexts();
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((n) => /T恤/i.test(n))).toBe(true);
      await atBothSizes(p, 'h5-synonym', PHONE);

      // Nothing found: the empty state names categories, each a link to its list.
      const empty = listAnswer(p, '/public/goods', { keyword: NOTHING });
      await p.getByLabel('搜索商品').fill(NOTHING);
      await p.getByLabel('搜索商品').press('Enter');
      const body = await (await empty).json();
      expect(body.total).toBe(0);
      expect(body.suggestions.length).toBeGreaterThan(0);
      const offered = p.getByTestId('search-suggestions').getByRole('link');
      await offered.first().waitFor(LONG);
      expect(await offered.count()).toBe(body.suggestions.length);
      expect(await offered.first().innerText()).toContain(body.suggestions[0].name);
      await atBothSizes(p, 'h5-suggestions', PHONE);

      // A suggestion leads to its category's goods.
      await offered.first().click();
      await p.getByTestId('good-card').first().waitFor(LONG);
      await until(
        () => p.getByTestId('filter-chips').innerText(),
        (t) => expect(t).toContain(body.suggestions[0].name),
      );
    } finally {
      await ctx.close();
    }
  });
});

describe('the admin list search', () => {
  it('searches goods with synonyms and several words, and suggests categories for an empty result', async () => {
    const { page } = session;
    await registerAndLogin(page);
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/#/goods');
    await page.getByTestId('page-goods').waitFor(LONG);
    await page.getByTestId('good-row').first().waitFor(LONG);
    const search = page.getByRole('search').getByLabel('搜索商品');

    const found = listAnswer(page, '/goods', { keyword: 'hoodie' });
    await search.fill('hoodie');
    await search.press('Enter');
    const hoodies = await (await found).json();
    expect(hoodies.total).toBeGreaterThan(0);
    await until(
      () => page.getByTestId('good-row').allInnerTexts(),
      (rows) => {
        expect(rows.length).toBe(Math.min(30, hoodies.total));
        expect(rows.every((r) => r.includes('卫衣'))).toBe(true);
      },
    );
    await atBothSizes(page, 'admin-synonym', DESKTOP);

    const none = listAnswer(page, '/goods', { keyword: NOTHING });
    await search.fill(NOTHING);
    await search.press('Enter');
    const body = await (await none).json();
    expect(body.total).toBe(0);
    // The same suggestions the storefront gives for the same words.
    expect(body.suggestions).toEqual((await pub(`/public/goods?keyword=${encodeURIComponent(NOTHING)}`)).suggestions);
    const offered = page.getByTestId('search-suggestions').getByRole('link');
    await offered.first().waitFor(LONG);
    expect(await offered.count()).toBe(body.suggestions.length);
    await atBothSizes(page, 'admin-suggestions', DESKTOP);

    // A suggestion opens the goods of that category.
    const scoped = listAnswer(page, '/goods', { param: 'categoryId' });
    await offered.first().click();
    const inCategory = await (await scoped).json();
    expect(inCategory.total).toBeGreaterThan(0);
    await until(
      () => page.getByTestId('goods-scope').innerText(),
      (t) => expect(t).toContain(body.suggestions[0].name),
    );
  });
});
