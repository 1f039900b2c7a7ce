/**
 * The rest of the admin API through the admin SPA, clicked through against a real service with the
 * demo catalog (test/support/browser.ts): categories and countries, a good's country, category, tags,
 * tag colour and deletion, the goods list's tag filter and sort, batch create from selected links, a
 * link's detail and its own synchronisation, the links' statistics; and the storefront showing a
 * good's tags in its tag colour. Every test reads back what the server then holds. Waits are on
 * locators and network answers, never on fixed sleeps.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { answer, answerDialog, recordRequests, registerAndLogin, sessionApi, shot, startBrowserSession, until, type BrowserSession } from '../support/browser';
import { IMAGES } from '../support/images';
import type { TestService } from '../support/service';

// A busy machine: the demo catalog, Chromium and three other suites share two cores.
jest.setTimeout(240_000);
const LONG = { timeout: 60_000 };

let session: BrowserSession;
let svc: TestService;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  session = await startBrowserSession();
  ({ svc, context, page } = session);
  page.setDefaultTimeout(60_000);
  api = sessionApi(context, svc.url);
  await registerAndLogin(page);
}, 240_000);

afterAll(async () => {
  await session?.close();
});

/** A full load of an admin page (a hash change alone would keep the page's state). */
let loads = 0;
async function open(route: string): Promise<void> {
  await page.goto(`/admin/?load=${++loads}#/${route}`);
  await page.getByTestId(`page-${route.split('?')[0]}`).waitFor(LONG);
}

interface Category {
  id: string;
  parentId: string | null;
  name: string;
  icon: string | null;
  effectiveIcon: string | null;
}
interface Good {
  id: string;
  name: string;
  tagIds: string[];
  tagFontColor: string | null;
  categoryId: string | null;
  countryId: string | null;
  familyId: string | null;
  originGoodId: string | null;
}
interface Tag {
  id: string;
  name: string;
  groupId: string | null;
}

describe('categories', () => {
  it('creates a category with an uploaded icon and one under it, renames, sets and clears an icon, deletes', async () => {
    await open('categories');
    const form = page.getByTestId('new-category');
    await form.locator('input[name=category-name]').fill('后台测试类目');
    const [uploaded] = await Promise.all([
      answer(page, '/upload', 201, 'POST'),
      form.getByTestId('new-category-icon-upload').setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: IMAGES.png }),
    ]);
    const iconUrl: string = (await uploaded.json()).url;
    await until(
      () => form.getByTestId('new-category-icon-preview').getAttribute('src'),
      (src) => expect(src).toBe(iconUrl),
    );
    const [created] = await Promise.all([answer(page, '/categories', 201, 'POST'), form.getByRole('button', { name: '创建类目' }).click()]);
    const parent: Category = await created.json();
    await page.locator(`[data-testid=category-row][data-id="${parent.id}"]`).getByText('后台测试类目').waitFor();
    expect(await api.get<Category>(`/categories/${parent.id}`)).toMatchObject({ name: '后台测试类目', parentId: null, icon: iconUrl });

    // A child under it: it inherits the icon until it has its own.
    await form.locator('input[name=category-name]').fill('后台测试子类');
    await form.locator('select[name=category-parent]').selectOption(parent.id);
    const [createdChild] = await Promise.all([answer(page, '/categories', 201, 'POST'), form.getByRole('button', { name: '创建类目' }).click()]);
    const child: Category = await createdChild.json();
    const childRow = page.locator(`[data-testid=category-row][data-id="${child.id}"]`);
    await childRow.getByText('后台测试子类').waitFor();
    expect(await api.get<Category>(`/categories/${child.id}`)).toMatchObject({ parentId: parent.id, icon: null, effectiveIcon: iconUrl });

    // Rename and give it an icon by address, in one save.
    await childRow.getByRole('button', { name: '编辑' }).click();
    const editor = page.getByTestId('category-editor');
    await editor.locator('input[name=edit-category-name]').fill('  改名的  子类 ');
    await editor.locator('input[name=icon]').fill('https://img.example.com/child.png');
    const [patched] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith(`/categories/${child.id}`) && r.method() === 'PATCH'),
      answer(page, `/categories/${child.id}`, 200, 'PATCH'),
      editor.getByRole('button', { name: '保存类目' }).click(),
    ]);
    expect(patched.postDataJSON()).toEqual({ name: '  改名的  子类 ', icon: 'https://img.example.com/child.png' });
    await childRow.getByTestId('category-name').filter({ hasText: '改名的 子类' }).waitFor();
    expect(await api.get<Category>(`/categories/${child.id}`)).toMatchObject({ name: '改名的 子类', icon: 'https://img.example.com/child.png' });
    await shot(page, 'admin-cat-categories');

    // Clearing the icon: inherited again.
    await childRow.getByRole('button', { name: '编辑' }).click();
    await editor.locator('input[name=icon]').fill('');
    await Promise.all([answer(page, `/categories/${child.id}`, 200, 'PATCH'), editor.getByRole('button', { name: '保存类目' }).click()]);
    await editor.waitFor({ state: 'detached' });
    expect(await api.get<Category>(`/categories/${child.id}`)).toMatchObject({ icon: null, effectiveIcon: iconUrl });

    // The parent cannot go while it has a child: the page says so before any attempt, and sends nothing.
    const parentRow = page.locator(`[data-testid=category-row][data-id="${parent.id}"]`);
    const deletes = recordRequests(page, (r) => r.method() === 'DELETE');
    await parentRow.getByRole('button', { name: '删除' }).click();
    const refused = page.getByRole('dialog').locator('[data-testid=impact][data-refused=true]');
    await refused.getByTestId('impact-children').filter({ hasText: '1 个下级类目' }).waitFor();
    await answerDialog(page, '知道了');
    deletes.stop();
    expect(deletes.requests).toEqual([]);
    expect((await api.call('GET', `/categories/${parent.id}`)).status).toBe(200);

    await childRow.getByRole('button', { name: '删除' }).click();
    await Promise.all([answer(page, `/categories/${child.id}`, 204, 'DELETE'), answerDialog(page, '确认删除')]);
    await childRow.waitFor({ state: 'detached' });
    await parentRow.getByRole('button', { name: '删除' }).click();
    await Promise.all([answer(page, `/categories/${parent.id}`, 204, 'DELETE'), answerDialog(page, '确认删除')]);
    await parentRow.waitFor({ state: 'detached' });
    expect((await api.call('GET', `/categories/${child.id}`)).status).toBe(404);
    expect((await api.call('GET', `/categories/${parent.id}`)).status).toBe(404);
  });
});

describe('countries', () => {
  it('creates a country (code upper-cased), renames it, refuses a taken code, deletes it', async () => {
    const existing = (await api.get<{ items: { id: string; code: string }[] }>('/countries?pageSize=1000')).items;
    expect(existing.length).toBeGreaterThan(0);
    await open('countries');
    const form = page.getByTestId('new-country');
    await form.locator('input[name=country-name]').fill('测试国');
    await form.locator('input[name=country-code]').fill('qz');
    const [created] = await Promise.all([answer(page, '/countries', 201, 'POST'), form.getByRole('button', { name: '创建国家' }).click()]);
    const id: string = (await created.json()).id;
    const row = page.locator(`[data-testid=country-row][data-id="${id}"]`);
    await row.getByText('测试国').waitFor();
    expect(await api.get(`/countries/${id}`)).toMatchObject({ name: '测试国', code: 'QZ' });

    await row.getByRole('button', { name: '编辑' }).click();
    await row.locator('input[name=edit-country-name]').fill('改名测试国');
    await Promise.all([answer(page, `/countries/${id}`, 200, 'PATCH'), row.getByRole('button', { name: '保存' }).click()]);
    await row.getByTestId('country-name').filter({ hasText: '改名测试国' }).waitFor();
    expect(await api.get(`/countries/${id}`)).toMatchObject({ name: '改名测试国', code: 'QZ' });

    // Another country's code: 409, shown, and the country keeps its own.
    await row.getByRole('button', { name: '编辑' }).click();
    await row.locator('input[name=edit-country-code]').fill(existing[0]!.code);
    await Promise.all([answer(page, `/countries/${id}`, 409, 'PATCH'), row.getByRole('button', { name: '保存' }).click()]);
    await page.getByRole('alert').filter({ hasText: '已有其他国家使用这个代码' }).waitFor();
    expect((await api.get(`/countries/${id}`)).code).toBe('QZ');
    await shot(page, 'admin-cat-countries');
    await row.getByRole('button', { name: '取消' }).click();

    await row.getByRole('button', { name: '删除' }).click();
    await Promise.all([answer(page, `/countries/${id}`, 204, 'DELETE'), answerDialog(page, '确认删除', { contains: '没有任何商品、货源或系列用到它' })]);
    await row.waitFor({ state: 'detached' });
    expect((await api.call('GET', `/countries/${id}`)).status).toBe(404);
  });
});

describe('goods', () => {
  let tags: Tag[];
  let countries: { id: string; name: string }[];
  let categories: Category[];
  beforeAll(async () => {
    tags = (await api.get<{ items: Tag[] }>('/tags?pageSize=1000')).items;
    countries = (await api.get<{ items: { id: string; name: string }[] }>('/countries?pageSize=1000')).items;
    categories = (await api.get<{ items: Category[] }>('/categories?pageSize=1000')).items;
    expect(tags.length && countries.length > 1 && categories.length > 1).toBeTruthy();
  });

  it('creates a custom good with country, category, tags and tag colour, edits them, then deletes it', async () => {
    await open('goods');
    await page.getByTestId('new-good-open').click();
    const form = page.getByTestId('new-good');
    await form.locator('input[name=name]').fill('后台 完整商品');
    // A tag whose name no other tag has, so its checkbox is found by name alone.
    const tag = tags.find((t) => tags.filter((u) => u.name === t.name).length === 1)!;
    await form.getByRole('checkbox', { name: tag.name, exact: true }).check();
    await form.locator('select[name=countryId]').selectOption(countries[0]!.id);
    await form.locator('select[name=categoryId]').selectOption(categories[0]!.id);
    await form.locator('input[name=tagFontColor]').fill('#1a7f37');
    // The preview shows the tags in the colour chosen.
    await until(
      () => form.getByTestId('tag-preview').locator('.badge').first().evaluate(colourOf),
      (c) => expect(c).toBe('rgb(26, 127, 55)'),
    );
    const [created] = await Promise.all([answer(page, '/goods', 201, 'POST'), form.getByRole('button', { name: '创建' }).click()]);
    const id: string = (await created.json()).id;
    expect(await api.get<Good>(`/goods/${id}`)).toMatchObject({ countryId: countries[0]!.id, categoryId: categories[0]!.id, tagFontColor: '#1a7f37', tagIds: [tag.id] });

    // The editor opens on it: change country, category and colour.
    const editor = page.getByTestId('good-editor');
    await until(
      () => editor.locator('select[name=countryId]').inputValue(),
      (v) => expect(v).toBe(countries[0]!.id),
    );
    await editor.locator('select[name=countryId]').selectOption(countries[1]!.id);
    await editor.locator('select[name=categoryId]').selectOption(categories[1]!.id);
    await editor.locator('input[name=tagFontColor]').fill('#c00');
    await Promise.all([answer(page, `/goods/${id}`, 200, 'PATCH'), editor.getByTestId('good-save').click()]);
    await editor.getByText('已保存').waitFor();
    expect(await api.get<Good>(`/goods/${id}`)).toMatchObject({ countryId: countries[1]!.id, categoryId: categories[1]!.id, tagFontColor: '#c00' });

    // An invalid colour cannot be saved.
    await editor.locator('input[name=tagFontColor]').fill('red');
    await editor.getByText('颜色须为 #rgb 或 #rrggbb').waitFor();
    expect(await editor.getByTestId('good-save').isDisabled()).toBe(true);
    // Cleared: no colour and no country.
    await editor.locator('input[name=tagFontColor]').fill('');
    await editor.locator('select[name=countryId]').selectOption('');
    await Promise.all([answer(page, `/goods/${id}`, 200, 'PATCH'), editor.getByTestId('good-save').click()]);
    await editor.getByText('已保存').waitFor();
    expect(await api.get<Good>(`/goods/${id}`)).toMatchObject({ countryId: null, tagFontColor: null });
    await shot(page, 'admin-cat-good-placement');

    await editor.getByRole('button', { name: '删除商品' }).click();
    await Promise.all([answer(page, `/goods/${id}`, 204, 'DELETE'), answerDialog(page, '确认删除')]);
    await editor.waitFor({ state: 'detached' });
    expect((await api.call('GET', `/goods/${id}`)).status).toBe(404);
  });

  it('filters the goods list by tags and sorts it as the server does', async () => {
    // A tag several goods carry, but not all.
    const goods = (await api.get<{ items: Good[]; total: number }>('/goods?pageSize=1000')).items;
    const counts = new Map<string, number>();
    for (const g of goods) for (const t of g.tagIds) counts.set(t, (counts.get(t) ?? 0) + 1);
    const [tagId] = [...counts].find(([, n]) => n > 1 && n < goods.length)!;
    const tag = tags.find((t) => t.id === tagId)!;
    const expected = await api.get<{ items: Good[]; total: number }>(`/goods?page=1&pageSize=30&tagIds=${tagId}`);

    await open('goods');
    await page.getByTestId('good-row').first().waitFor();
    const [filtered] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname.endsWith('/goods') && new URL(r.url()).searchParams.get('tagIds') === tagId),
      page.getByTestId('goods-tag-filter').selectOption(tagId),
    ]);
    expect(filtered.method()).toBe('GET');
    await page.getByTestId('goods-tag-chip').filter({ hasText: tag.name }).waitFor();
    const rowIds = () => page.getByTestId('good-row').evaluateAll((rs: any[]) => rs.map((r) => r.getAttribute('data-id') as string));
    await until(rowIds, (ids) => expect(ids).toEqual(expected.items.map((g) => g.id)));

    // Sorted by price, highest first, with the filter kept.
    const sorted = await api.get<{ items: Good[] }>(`/goods?page=1&pageSize=30&tagIds=${tagId}&sort=PRICE_DESC`);
    await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).searchParams.get('sort') === 'PRICE_DESC' && new URL(r.url()).searchParams.get('tagIds') === tagId),
      page.getByTestId('goods-sort').selectOption('PRICE_DESC'),
    ]);
    await until(rowIds, (ids) => expect(ids).toEqual(sorted.items.map((g) => g.id)));
    await shot(page, 'admin-cat-goods-filtered');

    // Removing the tag: the whole list again, still sorted.
    const all = await api.get<{ items: Good[] }>(`/goods?page=1&pageSize=30&sort=PRICE_DESC`);
    await page.getByRole('button', { name: `取消标签 ${tag.name}` }).click();
    await until(rowIds, (ids) => expect(ids).toEqual(all.items.map((g) => g.id)));
  });
});

describe('links', () => {
  it('creates goods for selected links in one batch, and reports a link that got a good meanwhile', async () => {
    const free = (await api.get<{ items: { id: string; good: unknown }[] }>('/origin-goods?organised=false&pageSize=50')).items.filter((l) => l.good === null);
    expect(free.length).toBeGreaterThan(3);
    const [a, b, raced] = free;
    await open('batch-goods');
    await page.getByTestId('batch-organised').selectOption('false');
    for (const l of [a!, b!, raced!]) await page.locator(`[data-testid=batch-link][data-id="${l.id}"]`).getByRole('checkbox').check();
    await page.getByTestId('batch-selection').locator(`[data-id="${raced!.id}"]`).waitFor();
    // Another administrator makes the good of one of them first.
    const theirs = await api.call('POST', '/goods', { originGoodId: raced!.id });
    expect(theirs.status).toBe(201);
    const [req] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/goods/batch') && r.method() === 'POST'),
      answer(page, '/goods/batch', 201, 'POST'),
      page.getByTestId('batch-create').click(),
    ]);
    expect(new Set(req.postDataJSON().originGoodIds)).toEqual(new Set([a!.id, b!.id, raced!.id]));
    await until(
      () => page.getByTestId('batch-created-count').textContent(),
      (t) => expect(t).toBe('2'),
    );
    await page.locator(`[data-testid=batch-item][data-id="${raced!.id}"][data-outcome=skipped]`).filter({ hasText: '跳过，这个货源已有商品' }).waitFor();
    await shot(page, 'admin-cat-batch-goods');
    for (const l of [a!, b!]) {
      const link = await api.get<{ good: { id: string } | null }>(`/origin-goods/${l.id}`);
      expect(link.good).not.toBeNull();
      expect((await api.get<Good>(`/goods/${link.good!.id}`)).originGoodId).toBe(l.id);
      // The list now shows the good and offers no checkbox for it.
      const row = page.locator(`[data-testid=batch-link][data-id="${l.id}"]`);
      await row.locator(`a[href="#/goods?id=${link.good!.id}"]`).waitFor();
      expect(await row.getByRole('checkbox').isDisabled()).toBe(true);
    }
    expect((await api.get<{ good: { id: string } }>(`/origin-goods/${raced!.id}`)).good.id).toBe(theirs.body.id);
  });

  it("shows a link's variants and media by colour, and synchronises its detail on demand", async () => {
    const links = (await api.get<{ items: { id: string; detailSyncedAt: string | null }[] }>('/origin-goods?pageSize=100')).items;
    const withDetail = links.find((l) => l.detailSyncedAt)!;
    const link = await api.get<{ detail: { variants: { sku: string }[]; media: { color: string; url: string }[] }; detailSyncedAt: string }>(`/origin-goods/${withDetail.id}`);
    expect(link.detail.variants.length).toBeGreaterThan(0);
    await open(`links?id=${withDetail.id}`);
    const box = page.getByTestId('link-detail');
    await until(
      () => box.getByTestId('link-variant').count(),
      (n) => expect(n).toBe(link.detail.variants.length),
    );
    for (const v of link.detail.variants.slice(0, 3)) await box.getByTestId('link-variant').filter({ hasText: v.sku }).waitFor();
    const colours = [...new Set(link.detail.media.map((m) => m.color))];
    await until(
      () => box.getByTestId('link-media-color').count(),
      (n) => expect(n).toBe(colours.length),
    );
    await until(
      () => box.getByTestId('link-media-image').count(),
      (n) => expect(n).toBe(link.detail.media.length),
    );
    await shot(page, 'admin-cat-link-detail');

    const [answered] = await Promise.all([
      answer(page, `/sync/origin-goods/${withDetail.id}/detail`, 200, 'POST'),
      box.getByRole('button', { name: '重新同步这个货源的详情' }).click(),
    ]);
    const run = (await answered.json()) as { runId: string; state: string; progress: { total: number } };
    expect(run.state).toBe('succeeded');
    await box.getByTestId('detail-sync-result').filter({ hasText: '详情已同步' }).waitFor();
    // The run is recorded on the server: one link's detail, succeeded; the link keeps its detail.
    expect(await api.get(`/sync/runs/${run.runId}`)).toMatchObject({ runId: run.runId, kind: 'details', state: 'succeeded', progress: { total: 1 } });
    const after = await api.get<{ detail: { variants: unknown[] } }>(`/origin-goods/${withDetail.id}`);
    await until(
      () => box.getByTestId('link-variant').count(),
      (n) => expect(n).toBe(after.detail.variants.length),
    );
  });

  it('statistics: links by country and category with primary and merged references, as the server counts them', async () => {
    // Merge a link into a good as a secondary origin, so a merged reference exists.
    const goods = (await api.get<{ items: Good[] }>('/goods?pageSize=1000&custom=false')).items;
    const used = new Set(goods.map((g) => g.originGoodId));
    const spare = (await api.get<{ items: { id: string }[] }>('/origin-goods?pageSize=200')).items.find((l) => !used.has(l.id))!;
    expect((await api.call('PUT', `/goods/${goods[0]!.id}/origins`, { secondaryOriginGoodIds: [spare.id] })).status).toBe(200);
    const tree = await api.get<{
      items: { country: string | null; categories: { categoryId: string | null; links: number; secondaryReferences: number; primaryReferences: number }[] }[];
    }>('/origin-goods/tree');
    const total = (k: 'links' | 'secondaryReferences' | 'primaryReferences') => tree.items.flatMap((c) => c.categories).reduce((n, x) => n + x[k], 0);
    expect(total('secondaryReferences')).toBeGreaterThanOrEqual(1);

    await open('stats');
    for (const k of ['links', 'primaryReferences', 'secondaryReferences'] as const) {
      await until(
        () => page.getByTestId(`stats-total-${k}`).locator('b').textContent(),
        (t) => expect(Number(t)).toBe(total(k)),
      );
    }
    expect(await page.getByTestId('stats-country').count()).toBe(tree.items.length);
    // The row of the merged link's country and category shows its merged references.
    const row = tree.items.flatMap((c) => c.categories.map((x) => ({ country: c.country, ...x }))).find((x) => x.secondaryReferences > 0)!;
    const rowEl = page.locator(`[data-testid=stats-country][data-country="${row.country ?? ''}"] [data-testid=stats-row][data-category-id="${row.categoryId ?? ''}"]`);
    await until(
      () => rowEl.getByTestId('stats-secondaryReferences').textContent(),
      (t) => expect(Number(t)).toBe(row.secondaryReferences),
    );
    await until(
      () => rowEl.getByTestId('stats-links').textContent(),
      (t) => expect(Number(t)).toBe(row.links),
    );
    await shot(page, 'admin-cat-stats');
  });
});

describe('mobile storefront', () => {
  it("shows a good's tags in its tag colour, the name in the page's colour", async () => {
    // A public family whose goods carry tags: every good of it gets the colour, so its representative has it.
    const list = (await (await fetch(`${svc.url}/public/goods?pageSize=100`)).json()) as { items: { goodId: string; name: string; tags: { id: string; name: string }[] }[] };
    const family = list.items.find((f) => f.tags.length > 0)!;
    const goods = (await api.get<{ items: Good[] }>(`/goods?familyId=${family.goodId}&pageSize=1000`)).items;
    expect(goods.length).toBeGreaterThan(0);

    // Through the admin editor, as an administrator would: the representative is one of these goods.
    for (const g of goods) {
      await open(`goods?id=${g.id}`);
      const editor = page.getByTestId('good-editor');
      await editor.locator('input[name=tagFontColor]').fill('#0a7f3f');
      await Promise.all([answer(page, `/goods/${g.id}`, 200, 'PATCH'), editor.getByTestId('good-save').click()]);
      await editor.getByText('已保存').waitFor();
    }
    await until(
      async () =>
        ((await (await fetch(`${svc.url}/public/goods?pageSize=100`)).json()) as { items: { goodId: string; tagFontColor: string | null }[] }).items.find(
          (f) => f.goodId === family.goodId,
        ),
      (f) => expect(f?.tagFontColor).toBe('#0a7f3f'),
    );

    const h5 = await context.newPage();
    try {
      await h5.setViewportSize({ width: 390, height: 844 });
      await h5.goto(`/v2/h5/#/list?keyword=${encodeURIComponent(family.name)}`);
      const card = h5.locator(`a[data-testid=good-card][href="#/goods/${family.goodId}"]`);
      await card.waitFor(LONG);
      const tagEls = card.getByTestId('good-tags').locator('.gtag:not(.gtag-more)');
      await until(
        () => tagEls.allTextContents(),
        // A card shows its first three tags (the rest counted in a chip of its own).
        (names) => expect(names).toEqual(family.tags.slice(0, 3).map((t) => t.name)),
      );
      for (const color of await tagEls.evaluateAll(coloursOf)) expect(color).toBe('rgb(10, 127, 63)');
      // The name keeps the page's own colour.
      expect(await card.locator('.gname').evaluate(colourOf)).not.toBe('rgb(10, 127, 63)');
      await shot(h5, 'h5-tags-colour');
    } finally {
      await h5.close();
    }
  });
});

/** The computed text colour of an element, and of several, run in the page: self-contained functions, never strings. */
const colourOf = (e: unknown): string => (globalThis as unknown as { getComputedStyle(x: unknown): { color: string } }).getComputedStyle(e).color;
const coloursOf = (els: unknown[]): string[] => els.map((e) => (globalThis as unknown as { getComputedStyle(x: unknown): { color: string } }).getComputedStyle(e).color);
