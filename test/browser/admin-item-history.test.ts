/**
 * A good's and a link's history in the admin, in the same words as a family's, and the way from the
 * overview to goods that show in the shop: through the built SPA against a real service with the demo
 * catalog (test/support/browser.ts). Each history's table fits its box (no column cut off) at
 * 1440×900 and 390×844; axe-core at both sizes; screenshots of each state into test-results/
 * (`admin-item-<state>-wide.png`, `…-narrow.png`).
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expectAccessible } from '../support/axe';
import { answer, registerAndLogin, sessionApi, shot, sideways, startBrowserSession, until, type BrowserSession } from '../support/browser';

jest.setTimeout(300_000);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 390, height: 844 };

let session: BrowserSession;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  session = await startBrowserSession();
  ({ context, page } = session);
  page.setDefaultTimeout(60_000);
  await page.setViewportSize(WIDE);
  api = sessionApi(context, session.svc.url);
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
  await registerAndLogin(page);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

let loads = 0;
async function open(route: string): Promise<void> {
  await page.goto(`/admin/?load=item-${++loads}#/${route}`);
  await page.getByTestId(`page-${route.split('?')[0]}`).waitFor();
}

/** What an in-page function reads of a history's box (test code is type-checked without the DOM library). */
interface Box {
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { left: number; right: number };
  querySelectorAll(s: string): Iterable<Box>;
}

/** How far the history's table runs past its box, and how far any cell's right edge does (0: all in view). */
const overflow = (table: Locator) =>
  table.evaluate((t) => {
    const el = t as unknown as Box & { closest(s: string): Box };
    const box = el.closest('.scroll');
    const right = box.getBoundingClientRect().right;
    const cells = [...el.querySelectorAll('td')].map((c) => Math.max(0, c.getBoundingClientRect().right - right));
    return { table: Math.max(0, box.scrollWidth - box.clientWidth), cells: Math.max(0, ...cells) };
  });

/** axe, a screenshot, no sideways page and (when given) the history fitting its box, at both sizes. */
async function check(name: string, history?: Locator): Promise<void> {
  for (const [size, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} (${size})`);
    await shot(page, `admin-item-${name}-${size}`);
    expect({ name, size, ...(await sideways(page)) }).toEqual({ name, size, sideways: 0, outermost: [] });
    if (history) expect({ name, size, ...(await overflow(history)) }).toEqual({ name, size, table: 0, cells: 0 });
  }
  await page.setViewportSize(WIDE);
}

/** Every row in words: who by name, what and why in Chinese, never an event type, key or id. */
async function inWords(history: Locator): Promise<void> {
  await until(
    () => history.getByTestId('history-changes').allTextContents(),
    (ts) => expect(ts.join('')).not.toContain('…'),
  );
  for (const by of await history.getByTestId('history-by').allTextContents()) expect(by).toMatch(/^(admin|演示数据初始化)$/);
  for (const t of [...(await history.getByTestId('history-type').allTextContents()), ...(await history.getByTestId('history-why').allTextContents())]) {
    expect(t).not.toMatch(/[A-Z][a-z]+[A-Z]|其他/);
  }
  for (const c of await history.getByTestId('history-changes').allTextContents()) expect(c).not.toMatch(/familyId|goodId|originPrice|\d{12,}|undefined|null/);
}

describe('history of a good and of a link', () => {
  it("a good's editor shows its history: the administrator's rename in words, and the good as it was", async () => {
    const goods = (await api.get<{ items: { id: string; name: string; familyId: string | null }[] }>('/goods?pageSize=50')).items;
    const good = goods.find((g) => g.familyId)!;
    const renamed = await api.call('PATCH', `/goods/${good.id}`, { name: `${good.name} 历史` });
    expect(renamed.status).toBe(200);
    const newName: string = renamed.body.name;
    expect(newName).not.toBe(good.name);

    await open(`goods?id=${good.id}`);
    const section = page.getByTestId('good-history-section');
    await Promise.all([answer(page, `/goods/${good.id}/history`, 200, 'GET'), section.getByText('历史', { exact: true }).click()]);
    const rows = section.getByTestId('history-row');
    // Newest first: the rename, by the administrator, saying the names; the good's creation last.
    await rows.first().filter({ hasText: '修改商品' }).waitFor();
    expect(await rows.first().getByTestId('history-by').textContent()).toBe('admin');
    expect(await rows.first().getByTestId('history-changes').textContent()).toContain(`名称「${good.name}」→「${newName}」`);
    // Its creation once; other goods of its family made since are listed where they changed what it shows.
    const created = rows.filter({ hasText: '商品建立' });
    expect(await created.count()).toBe(1);
    expect(await created.getByTestId('history-type').textContent()).toBe('新建商品');
    await inWords(section);
    // The good before the rename: the row before it.
    await Promise.all([answer(page, `/goods/${good.id}/history`, 200, 'GET'), rows.nth(1).getByRole('button', { name: '查看此时的商品' }).click()]);
    await until(
      () => section.getByTestId('snapshot-name').textContent(),
      (t) => expect(t).toBe(good.name),
    );
    expect(await section.getByTestId('snapshot-public').textContent()).toBe('店铺中展示');
    await check('good-history', section.getByTestId('good-history'));
  });

  it("a link's page shows its history: synchronised, organised into its family, its good made", async () => {
    const [link] = (await api.get<{ items: { id: string; name: string; good: { id: string; name: string } }[] }>('/origin-goods?hasFamily=true&hasGood=true&pageSize=1')).items;
    await open(`links?id=${link!.id}`);
    const section = page.getByTestId('link-history-section');
    await Promise.all([answer(page, `/origin-goods/${link!.id}/history`, 200, 'GET'), section.getByText('历史', { exact: true }).click()]);
    const rows = section.getByTestId('history-row');
    await rows.first().waitFor();
    await rows
      .filter({ hasText: '货源建成商品' })
      .getByTestId('history-changes')
      .filter({ hasText: `建成商品「${link!.good.name}」` })
      .waitFor();
    await rows.filter({ hasText: '货源加入' }).first().getByTestId('history-changes').filter({ hasText: '加入系列' }).waitFor();
    expect(await rows.last().getByTestId('history-changes').textContent()).toContain('货源建立');
    await inWords(section);
    await Promise.all([answer(page, `/origin-goods/${link!.id}/history`, 200, 'GET'), rows.last().getByRole('button', { name: '查看此时的货源' }).click()]);
    await until(
      () => section.getByTestId('link-snapshot').textContent(),
      (t) => expect(t).toMatch(/未归入系列 · 还没有商品$/),
    );
    await check('link-history', section.getByTestId('link-history'));
  });

  it("a family's history fits its box: no column cut off beside the list, nor on a phone", async () => {
    const [family] = (await api.get<{ items: { id: string }[] }>('/product-families?pageSize=1&sort=MEMBERS_DESC')).items;
    await open(`families?id=${family!.id}&tab=history`);
    const table = page.getByTestId('family-history');
    await table.getByTestId('history-row').first().waitFor();
    await inWords(table);
    await check('family-history', table);
  });
});

describe('from the overview to goods the shop shows', () => {
  it('leads to the links in a family without a good, says each family, warns of links in none, and reports item by item', async () => {
    // A family whose goods were deleted: its links wait for goods again.
    const [family] = (await api.get<{ items: { id: string; name: string; goodCount: number }[] }>('/product-families?pageSize=1&sort=MEMBERS_DESC')).items;
    const goods = (await api.get<{ items: { id: string }[] }>(`/goods?familyId=${family!.id}&pageSize=100`)).items;
    for (const g of goods) expect((await api.call('DELETE', `/goods/${g.id}`)).status).toBe(204);
    const overview = await api.get<{ families: { withoutGood: number }; links: { withoutFamily: number; groupedWithoutGood: number } }>('/overview');
    expect(overview.families.withoutGood).toBeGreaterThan(0);
    expect(overview.links.withoutFamily).toBeGreaterThan(0);

    await open('overview');
    const figure = (id: string) => page.getByTestId(id);
    await until(
      () => figure('attention-without-family').textContent(),
      (t) => expect(t).toBe(`${overview.links.withoutFamily}个在售货源未归入系列 → 整理货源`),
    );
    expect(await figure('attention-without-family').getAttribute('href')).toBe('#/organise');
    expect(await figure('attention-family-without-good').textContent()).toBe(`${overview.families.withoutGood}个系列没有商品（店铺不显示）→ 为已归类货源创建商品`);
    expect(await figure('attention-without-good').textContent()).toBe(`${overview.links.groupedWithoutGood}个已归类货源还没有商品 → 创建商品`);
    await check('overview');

    // The figure leads to the links in a family without a good, each saying its family.
    await figure('attention-family-without-good').click();
    await page.getByTestId('page-batch-goods').waitFor();
    const row = (id: string) => page.locator(`[data-testid=batch-link][data-id="${id}"]`);
    const [inFamily] = (await api.get<{ items: { id: string; name: string }[] }>(`/origin-goods?familyId=${family!.id}&hasGood=false&delisted=false&pageSize=1`)).items;
    const listed = await api.get<{ total: number }>('/origin-goods?hasFamily=true&hasGood=false&delisted=false&pageSize=1');
    await page
      .getByTestId('pager')
      .getByText(new RegExp(`· ${listed.total} 个$`))
      .waitFor();
    expect(await page.getByTestId('batch-has-family').inputValue()).toBe('true');
    expect(await page.getByTestId('batch-no-family').count()).toBe(0);
    // The family's link, found by its name, says the family its good will join.
    await page.getByRole('searchbox', { name: '搜索货源' }).fill(inFamily!.name);
    await page.getByRole('search').getByRole('button', { name: '搜索' }).click();
    await row(inFamily!.id).getByRole('link', { name: family!.name }).waitFor();
    await row(inFamily!.id).getByRole('checkbox').check();

    // A link in no family: flagged in the list and in the selection, with the way to organise it.
    await page.getByRole('searchbox', { name: '搜索货源' }).fill('');
    await page.getByRole('search').getByRole('button', { name: '搜索' }).click();
    await page.getByTestId('batch-has-family').selectOption('false');
    const [loose] = (await api.get<{ items: { id: string; name: string }[] }>('/origin-goods?hasFamily=false&hasGood=false&delisted=false&pageSize=1')).items;
    await row(loose!.id).getByTestId('batch-no-family').waitFor();
    await row(loose!.id).getByRole('checkbox').check();
    const warning = page.getByTestId('batch-loose-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('其中 1 个货源还没有归入系列：为它们创建的商品不会在店铺展示');
    expect(await warning.getByRole('link', { name: '整理货源' }).getAttribute('href')).toBe('#/organise');
    expect(await page.getByTestId('batch-loose-note').textContent()).toBe('其中 1 个未归入系列，商品不会在店铺展示');
    const selection = page.getByTestId('batch-selection');
    expect(await selection.locator(`[data-id="${inFamily!.id}"]`).textContent()).toContain(`→ 系列「${family!.name}」`);
    expect(await selection.locator(`[data-id="${loose!.id}"]`).textContent()).toContain('（未归入系列）');
    await check('batch-warning');

    // Made anyway: item by item, which family each good joined, or that it joined none.
    await Promise.all([answer(page, '/goods/batch', 201, 'POST'), page.getByTestId('batch-create').click()]);
    const item = (id: string) => page.locator(`[data-testid=batch-item][data-id="${id}"]`);
    await until(
      () => item(inFamily!.id).textContent(),
      (t) => expect(t).toMatch(new RegExp(`^货源「${escape(inFamily!.name)}」：已创建商品 「[^…]+」，加入系列 「${escape(family!.name)}」$`)),
    );
    expect(await item(inFamily!.id).getAttribute('data-outcome')).toBe('in-family');
    expect(await item(loose!.id).getAttribute('data-outcome')).toBe('no-family');
    expect(await item(loose!.id).textContent()).toContain('没有加入系列（店铺中不展示）');
    expect(await page.getByTestId('batch-loose').textContent()).toContain('其中 1 个商品没有加入系列，店铺中不会展示');
    await check('batch-result');
    // As the goods then are: the family's in it and shown, the other in none and not shown.
    for (const [link, familyId, shown] of [
      [inFamily!.id, family!.id, true],
      [loose!.id, null, false],
    ] as const) {
      const { good } = await api.get<{ good: { id: string } }>(`/origin-goods/${link}`);
      expect(await api.get<{ familyId: string | null; public: boolean }>(`/goods/${good.id}`)).toMatchObject({ familyId, public: shown });
    }
  });
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
