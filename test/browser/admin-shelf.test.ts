/**
 * 上架 / 下架 in the admin SPA against a real service with the demo catalog (docs/domain.md, Public
 * catalog): the family page and the good editor show and switch the shelf state, the lists show it
 * and filter by it, a manual family can be created 下架, and moving a link out of a live family says
 * so before it happens. Each state is checked with axe (no serious or critical finding) and kept as
 * screenshots at 1440×900 and 390×844 (`admin-shelf-<state>-wide.png`, `-narrow.png`).
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { answer, answerDialog, registerAndLogin, sessionApi, shot, startBrowserSession, until, type BrowserSession } from '../support/browser';
import { expectAccessible } from '../support/axe';
import type { TestService } from '../support/service';

jest.setTimeout(360_000);

const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 390, height: 844 };

let session: BrowserSession;
let svc: TestService;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof sessionApi>;

interface Family {
  id: string;
  name: string;
  shelf: 'on' | 'off';
  public: boolean;
  goodCount: number;
  memberCount: number;
}

beforeAll(async () => {
  session = await startBrowserSession();
  ({ svc, context, page } = session);
  page.setDefaultTimeout(60_000);
  await page.setViewportSize(WIDE);
  api = sessionApi(context, svc.url);
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
  await registerAndLogin(page);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

let loads = 0;
async function open(route: string): Promise<void> {
  await page.goto(`/admin/?load=${++loads}#/${route}`);
  await page.getByTestId(`page-${route.split('?')[0]}`).waitFor();
}

/** Nothing on the page is loading any more. */
const settled = () =>
  until(
    () => page.locator('[aria-busy="true"], [data-testid=list-loading], [role=status]:text-is("加载中…")').count(),
    (n) => expect(n).toBe(0),
  );

/** The state as it stands, at both sizes: axe, then a screenshot. */
async function bothSizes(name: string, ready: () => Locator): Promise<void> {
  for (const [size, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(viewport);
    await ready().first().waitFor({ state: 'attached' });
    await settled();
    await expectAccessible(page, `${name} at ${viewport.width}×${viewport.height}`);
    await shot(page, `admin-shelf-${name}-${size}`);
  }
  await page.setViewportSize(WIDE);
}

const publicIds = async () => {
  const ids = new Set<string>();
  for (let p = 1; ; p++) {
    const r = await api.get<{ items: { goodId: string }[] }>(`/public/goods?pageSize=100&page=${p}`);
    for (const i of r.items) ids.add(i.goodId);
    if (r.items.length < 100) return ids;
  }
};

/** A public family with at least two goods (the demo makes a good for every organised link). */
async function liveFamily(skip: string[] = []): Promise<Family> {
  const list = await api.get<{ items: Family[] }>('/product-families?pageSize=100&sort=MEMBERS_DESC');
  const f = list.items.find((x) => x.public && x.goodCount >= 2 && !skip.includes(x.id));
  if (!f) throw new Error('the demo catalog has no public family with two goods');
  return f;
}

it('the family page shows 上架, takes the family off the shelf after a confirmation, and puts it back', async () => {
  const fam = await liveFamily();
  await open(`families?id=${fam.id}`);
  const detail = page.getByTestId('family-detail');
  await detail.getByTestId('family-detail-shelf').and(page.locator('[data-shelf=on]')).waitFor();
  await bothSizes('family-on', () => detail.getByTestId('family-public').filter({ hasText: '店铺中在售' }));

  await detail.getByTestId('toggle-family-shelf').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText(`下架系列「${fam.name}」？`).waitFor();
  await bothSizes('family-confirm-off', () => dialog);
  const put = answer(page, `/product-families/${fam.id}/shelf`, 200, 'PUT');
  await answerDialog(page, '下架');
  await put;
  await detail.getByTestId('family-detail-shelf').and(page.locator('[data-shelf=off]')).waitFor();
  await detail.getByTestId('family-public').filter({ hasText: '系列已下架' }).waitFor();
  expect(await api.get<Family>(`/product-families/${fam.id}`)).toMatchObject({ shelf: 'off', public: false });
  expect(await publicIds()).not.toContain(fam.id);
  await bothSizes('family-off', () => detail.getByTestId('family-detail-shelf').and(page.locator('[data-shelf=off]')));

  // The list filters by shelf state and marks the row 已下架.
  await page.getByTestId('family-shelf-filter').selectOption('off');
  const rows = page.getByTestId('family-row');
  await until(
    () => rows.count(),
    (n) => expect(n).toBe(1),
  );
  await rows.first().getByTestId('family-shelf').filter({ hasText: '已下架' }).waitFor();
  await bothSizes('families-filter-off', () => rows.first());

  // Putting it back on needs no confirmation: it only shows more.
  const back = answer(page, `/product-families/${fam.id}/shelf`, 200, 'PUT');
  await detail.getByTestId('toggle-family-shelf').click();
  await back;
  await detail.getByTestId('family-detail-shelf').and(page.locator('[data-shelf=on]')).waitFor();
  expect(await publicIds()).toContain(fam.id);
});

it('the good editor switches the good’s shelf state; the goods list shows it and filters by it', async () => {
  const fam = await liveFamily();
  const goods = await api.get<{ items: { id: string; name: string }[] }>(`/goods?familyId=${fam.id}&pageSize=100`);
  const good = goods.items[0]!;
  await open(`goods?id=${good.id}`);
  const editor = page.getByTestId('good-editor');
  await editor.getByTestId('good-editor-shelf').and(page.locator('[data-shelf=on]')).waitFor();
  const put = answer(page, `/goods/${good.id}/shelf`, 200, 'PUT');
  await editor.getByTestId('toggle-good-shelf').click();
  await put;
  await editor.getByTestId('good-editor-shelf').and(page.locator('[data-shelf=off]')).waitFor();
  expect(await api.get(`/goods/${good.id}`)).toMatchObject({ shelf: 'off', public: false });
  await bothSizes('good-off', () => editor.getByTestId('toggle-good-shelf').filter({ hasText: '上架' }));

  await page.getByTestId('goods-shelf-filter').selectOption('off');
  const rows = page.getByTestId('good-row');
  await until(
    () => rows.count(),
    (n) => expect(n).toBe(1),
  );
  await rows.first().getByTestId('good-shelf').filter({ hasText: '已下架' }).waitFor();
  await bothSizes('goods-filter-off', () => rows.first());

  const back = answer(page, `/goods/${good.id}/shelf`, 200, 'PUT');
  await editor.getByTestId('toggle-good-shelf').click();
  await back;
  await editor.getByTestId('good-editor-shelf').and(page.locator('[data-shelf=on]')).waitFor();
});

it('a manual family can be created 下架', async () => {
  await open('families');
  const form = page.locator('form').filter({ has: page.getByRole('heading', { name: '新建手动系列' }) });
  await form.getByPlaceholder('系列名称').fill('待上架的新系列');
  await form.getByTestId('new-family-off').check();
  await bothSizes('new-family-off', () => form.getByTestId('new-family-off'));
  const created = answer(page, '/product-families', 201, 'POST');
  await form.getByRole('button', { name: '创建' }).click();
  const made = (await (await created).json()) as Family;
  expect(made).toMatchObject({ name: '待上架的新系列', shelf: 'off', public: false });
  await page.getByTestId('family-detail').getByTestId('family-detail-shelf').and(page.locator('[data-shelf=off]')).waitFor();
});

it('moving a link out of a live family warns 将从在售系列「…」移出 before it happens', async () => {
  const from = await liveFamily();
  const full = await api.get<{ members: { id: string; name: string }[] }>(`/product-families/${from.id}`);
  const link = full.members[0]!;
  const target = await api.call('POST', '/product-families', { name: '新的手动系列' });
  expect(target.status).toBe(201);

  // Adding the link to another family moves it out of the live one: said first, and nothing moves on 取消.
  await open(`families?id=${target.body.id}&tab=members`);
  await page.getByPlaceholder('或输入货源编号').fill(link.id);
  await page.getByRole('button', { name: '加入货源' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText(`将从在售系列「${from.name}」移出`).waitFor();
  await bothSizes('move-warning', () => dialog.getByTestId('move-live-warning'));
  await answerDialog(page, '取消');
  expect((await api.get(`/origin-goods/${link.id}`)).family.id).toBe(from.id);

  // Removing a member of the live family says the same.
  await open(`families?id=${from.id}&tab=members`);
  await page.getByRole('button', { name: `移出货源 ${link.name}` }).click();
  await dialog
    .getByTestId('impact-live')
    .filter({ hasText: `将从在售系列「${from.name}」移出` })
    .waitFor();
  await bothSizes('remove-warning', () => dialog.getByTestId('impact-lines'));
  await answerDialog(page, '取消');
  expect((await api.get(`/origin-goods/${link.id}`)).family.id).toBe(from.id);

  // Confirmed, the move happens.
  await open(`families?id=${target.body.id}&tab=members`);
  await page.getByPlaceholder('或输入货源编号').fill(link.id);
  await page.getByRole('button', { name: '加入货源' }).click();
  const moved = answer(page, `/product-families/${target.body.id}/members`, undefined, 'POST');
  await answerDialog(page, '移到此系列', { contains: `将从在售系列「${from.name}」移出` });
  expect((await moved).status()).toBeLessThan(300);
  await until(
    () => api.get(`/origin-goods/${link.id}`),
    (l) => expect(l.family.id).toBe(target.body.id),
  );
});
