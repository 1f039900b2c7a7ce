/**
 * Bulk changes in the admin SPA (docs/api.md, Bulk changes), in Chromium against a real service with
 * the demo catalog: picking the goods of a page and then every good the search matches, setting
 * their category with the run's progress shown; deleting families with the impact stated first; a
 * refused country delete replaced and deleted in one step; moving a category and a tag. axe at
 * 1440×900 and 390×844, with screenshots of each state.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expectAccessible } from '../support/axe';
import { registerAndLogin, sessionApi, shot, startBrowserSession, until, type BrowserSession } from '../support/browser';
import type { TestService } from '../support/service';

jest.setTimeout(300_000);

const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 390, height: 844 };

let session: BrowserSession;
let svc: TestService;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  session = await startBrowserSession();
  ({ svc, context, page } = session);
  await page.setViewportSize(WIDE);
  api = sessionApi(context, svc.url);
  await registerAndLogin(page);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

/** axe and a screenshot at both sizes of the state as it stands: `admin-bulk-<name>-wide.png` / `-narrow.png`. */
async function bothSizes(name: string): Promise<void> {
  for (const [size, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} at ${viewport.width}×${viewport.height}`);
    await shot(page, `admin-bulk-${name}-${size}`);
  }
  await page.setViewportSize(WIDE);
}

const make = async (path: string, body: Record<string, unknown>): Promise<string> => {
  const r = await api.call('POST', path, body);
  expect(r.status).toBe(201);
  return r.body.id;
};

describe('bulk changes in the admin', () => {
  it('picks a page, then every good the search matches, and sets their category, showing the run', async () => {
    const batch = await api.call('POST', '/goods/batch', { goods: Array.from({ length: 35 }, (_, i) => ({ name: `批量演示 BD${100 + i}` })) });
    expect(batch.body.created).toHaveLength(35);
    const cat = await make('/categories', { name: '批量目标类目' });
    await page.goto(`/admin/?load=1#/goods?q=${encodeURIComponent('批量演示')}`);
    const bar = page.getByTestId('bulk-bar');
    await page.getByTestId('good-row').first().waitFor();
    await bar.getByTestId('bulk-select-page').click();
    await until(
      () => bar.getByTestId('bulk-count').textContent(),
      (t) => expect(t).toBe('已选择 30 个商品'),
    );
    await bar.getByTestId('bulk-select-all').click();
    await until(
      () => bar.getByTestId('bulk-count').textContent(),
      (t) => expect(t).toBe('已选择全部 35 个符合当前筛选的商品'),
    );
    await bothSizes('goods-selected');
    await bar.getByTestId('bulk-setCategory').click();
    const dialog = page.getByTestId('bulk-dialog');
    await dialog.getByTestId('bulk-value').selectOption(cat);
    await bothSizes('goods-dialog');
    await dialog.getByTestId('bulk-confirm').click();
    await dialog.locator('[data-testid=bulk-run][data-state=succeeded]').waitFor({ timeout: 120_000 });
    expect(await dialog.getByTestId('bulk-counts').textContent()).toBe('已完成 35 个商品，跳过 0 个');
    await bothSizes('goods-run');
    await dialog.getByRole('button', { name: '完成' }).click();
    const listed = await api.get<{ total: number }>(`/goods?categoryId=${cat}`);
    expect(listed.total).toBe(35);
  });

  it('deletes picked families, stating first how many are deleted and how many are skipped', async () => {
    const empty = await make('/product-families', { name: '批量空系列甲' });
    const empty2 = await make('/product-families', { name: '批量空系列乙' });
    await page.goto(`/admin/?load=2#/families?q=${encodeURIComponent('批量空系列')}`);
    const rows = page.getByTestId('family-row');
    await until(
      () => rows.count(),
      (n) => expect(n).toBe(2),
    );
    for (const id of [empty, empty2]) await page.locator(`[data-testid=family-row][data-id="${id}"] input[type=checkbox]`).check();
    await page.getByTestId('bulk-delete').click();
    const dialog = page.getByTestId('bulk-dialog');
    await dialog.getByTestId('impact-lines').getByText('将删除 2 个空的商品系列').waitFor();
    await bothSizes('families-delete-impact');
    await dialog.getByTestId('bulk-confirm').click();
    await dialog.locator('[data-testid=bulk-run][data-state=succeeded]').waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: '完成' }).click();
    for (const id of [empty, empty2]) expect((await api.call('GET', `/product-families/${id}`)).status).toBe(404);
  });

  it('takes picked families off the shelf, saying first what that does, then shows each 已下架', async () => {
    const ids = [await make('/product-families', { name: '批量下架系列甲' }), await make('/product-families', { name: '批量下架系列乙' })];
    await page.goto(`/admin/?load=shelf#/families?q=${encodeURIComponent('批量下架系列')}`);
    const rows = page.getByTestId('family-row');
    await until(
      () => rows.count(),
      (n) => expect(n).toBe(2),
    );
    for (const id of ids) await page.locator(`[data-testid=family-row][data-id="${id}"] input[type=checkbox]`).check();
    await page.getByTestId('bulk-shelfOff').click();
    const dialog = page.getByTestId('bulk-dialog');
    await dialog.getByText('下架后，这些系列不再在店铺展示').waitFor();
    await bothSizes('families-shelf-off');
    await dialog.getByTestId('bulk-confirm').click();
    await dialog.locator('[data-testid=bulk-run][data-state=succeeded]').waitFor({ timeout: 60_000 });
    expect(await dialog.getByTestId('bulk-counts').textContent()).toBe('已完成 2 个商品系列，跳过 0 个');
    await dialog.getByRole('button', { name: '完成' }).click();
    for (const id of ids) expect((await api.call('GET', `/product-families/${id}`)).body.shelf).toBe('off');
    await until(
      () => rows.filter({ hasText: '已下架' }).count(),
      (n) => expect(n).toBe(2),
    );
  });

  it('a refused country delete offers 替换为 … 并删除, which moves its goods and deletes it', async () => {
    const old = await make('/countries', { name: '待退役国家', code: 'QX' });
    const next = await make('/countries', { name: '接替国家', code: 'QY' });
    const goods = [await make('/goods', { name: '退役甲 QX01', countryId: old }), await make('/goods', { name: '退役乙 QX02', countryId: old })];
    await page.goto('/admin/?load=3#/countries');
    await page.getByRole('button', { name: '删除国家 待退役国家' }).click();
    const impact = page.locator('[data-testid=impact][data-refused=true]');
    await impact.waitFor();
    await impact.getByTestId('replace-with').selectOption(next);
    await bothSizes('country-replace');
    await impact.getByTestId('replace-confirm').click();
    await impact.locator('[data-testid=bulk-run][data-state=succeeded]').waitFor({ timeout: 60_000 });
    await bothSizes('country-replaced');
    await page.getByRole('dialog').getByRole('button', { name: '知道了' }).click();
    for (const id of goods) expect((await api.get<{ countryId: string }>(`/goods/${id}`)).countryId).toBe(next);
    expect((await api.call('GET', `/countries/${old}`)).status).toBe(404);
    await until(
      () => page.getByRole('button', { name: '删除国家 待退役国家' }).count(),
      (n) => expect(n).toBe(0),
    );
  });

  it('moves a category under another parent and a tag to another group', async () => {
    const parent = await make('/categories', { name: '新的上级' });
    const moving = await make('/categories', { name: '要移动的类目' });
    await page.goto('/admin/?load=4#/categories');
    await page.getByRole('button', { name: '编辑类目 要移动的类目' }).click();
    const editor = page.getByTestId('category-editor');
    await editor.locator('select[name=edit-category-parent]').selectOption(parent);
    await editor.getByRole('button', { name: '保存类目' }).click();
    await until(
      async () => (await api.get<{ parentId: string | null }>(`/categories/${moving}`)).parentId,
      (p) => expect(p).toBe(parent),
    );

    const [from, to] = [await make('/tag-groups', { name: '原标签组' }), await make('/tag-groups', { name: '目标标签组' })];
    const tag = await make('/tags', { name: '要移动的标签', groupId: from });
    await page.goto('/admin/?load=5#/tag-groups');
    const card = page.locator(`[data-testid=tag-group][data-group-id="${from}"]`);
    await card.getByRole('button', { name: '要移动的标签', exact: true }).click();
    await card.getByTestId('tag-editor').locator('select[name=tag-group]').selectOption(to);
    await bothSizes('tag-move');
    await card.getByRole('button', { name: '保存标签' }).click();
    await until(
      async () => (await api.get<{ groupId: string }>(`/tags/${tag}`)).groupId,
      (g) => expect(g).toBe(to),
    );
    await page.locator(`[data-testid=tag-group][data-group-id="${to}"] [data-tag-id="${tag}"]`).waitFor();
  });
});
