/**
 * The administrator's daily workflows, clicked through the built admin SPA against a real service
 * with the demo catalog (test/support/browser.ts). Every test reads back what the server then holds.
 * Synchronisation is on selectors and network answers only, never on fixed sleeps.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  answer,
  answerDialog,
  intercept,
  recordRequests,
  registerAndLogin,
  sessionApi,
  shot,
  startBrowserSession,
  until,
  type BrowserSession,
  type InPage,
} from '../support/browser';
import { IMAGES, SVG } from '../support/images';
import type { TestService } from '../support/service';

jest.setTimeout(180_000);

let session: BrowserSession;
let svc: TestService;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  session = await startBrowserSession();
  ({ svc, context, page } = session);
  api = sessionApi(context, svc.url);
});

afterAll(async () => {
  await session?.close();
});

/** A full load of an admin page (a hash change alone would keep the page's selection). */
let loads = 0;
async function open(route: string): Promise<void> {
  await page.goto(`/admin/?load=${++loads}#/${route}`);
  await page.getByTestId(`page-${route.split('?')[0]}`).waitFor();
}

/** The row of a search picker's results showing `name` (ids are not shown), and its add button. */
const pickResult = (picker: Locator, name: string) => picker.locator('ul.results li').filter({ hasText: name }).first().getByRole('button', { name: '添加' });

/** Waits until the rows of a sortable list carry these ids in this order. */
const waitForOrder = (testId: string, ids: string[]) =>
  page.waitForFunction(
    ({ testId, order }) => {
      const { document } = globalThis as unknown as InPage;
      return [...document.querySelectorAll(`[data-testid=${testId}] tr`)].map((r) => r.getAttribute('data-id')).join(',') === order;
    },
    { testId, order: ids.join(',') },
  );

interface Family {
  id: string;
  name: string;
  locked: boolean;
  memberCount: number;
  goodCount: number;
}
interface Good {
  id: string;
  name: string;
  image: string | null;
  familyId: string | null;
  originGoodId: string | null;
  secondaryOriginGoodIds: string[];
}
let families: Family[];
let goods: Good[];
/** The two goods the positions test shows: of two different families (the home page shows a family once per position). */
const positionGoods = (): [Good, Good] => {
  const first = goods.find((g) => g.familyId && g.originGoodId)!;
  const second = goods.find((g) => g.familyId && g.familyId !== first.familyId)!;
  return [first, second];
};

describe('administrator workflows', () => {
  it('registers the first administrator, then logs in', async () => {
    await registerAndLogin(page);
    families = (await api.get<{ items: Family[] }>('/product-families?pageSize=100')).items;
    goods = (await api.get<{ items: Good[] }>('/goods?pageSize=1000')).items;
    expect(families.length).toBeGreaterThan(8);
    expect(goods.length).toBeGreaterThan(20);
  });

  it('uploads an image to a good: shown at once, kept on save, served as image/png; an SVG is refused', async () => {
    const good = goods[0]!;
    await open(`goods?id=${good.id}`);
    const editor = page.getByTestId('good-editor');
    await editor.waitFor();
    const [uploaded] = await Promise.all([
      answer(page, '/upload', 201, 'POST'),
      editor.getByTestId('good-upload').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: IMAGES.png }),
    ]);
    const url: string = (await uploaded.json()).url;
    expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    // Shown in the editor before saving, and loaded by the browser.
    await editor.getByText('已上传，保存后生效').waitFor();
    await until(
      () => editor.getByTestId('good-image').getAttribute('src'),
      (src) => expect(src).toBe(url),
    );
    await page.waitForFunction(() => {
      const i = (globalThis as unknown as InPage).document.querySelector('[data-testid=good-image]');
      return i !== null && i.complete === true && i.naturalWidth === 1;
    });
    await shot(page, 'admin-wf-good-image-uploaded');

    await Promise.all([answer(page, `/goods/${good.id}`, 200, 'PATCH'), editor.getByTestId('good-save').click()]);
    await editor.getByText('已保存').waitFor();
    expect((await api.get<Good>(`/goods/${good.id}`)).image).toBe(url);
    const served = await fetch(svc.url + url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(IMAGES.png)).toBe(true);

    // After a reload the editor shows the saved image.
    await open(`goods?id=${good.id}`);
    await until(
      () => page.getByTestId('good-image').getAttribute('src'),
      (src) => expect(src).toBe(url),
    );

    await Promise.all([answer(page, '/upload', 415, 'POST'), page.getByTestId('good-upload').setInputFiles({ name: 'evil.svg', mimeType: 'image/svg+xml', buffer: SVG })]);
    await page.getByTestId('upload-status').getByRole('alert').filter({ hasText: '不支持的文件类型' }).waitFor();
    await until(
      () => page.getByTestId('good-image').getAttribute('src'),
      (src) => expect(src).toBe(url),
    );
    await shot(page, 'admin-wf-good-image-svg-refused');
    expect((await api.get<Good>(`/goods/${good.id}`)).image).toBe(url);
  });

  it('merges a secondary link into a good, lists it by name, and removes it', async () => {
    const good = goods[1]!;
    const links = (await api.get<{ items: { id: string; name: string }[] }>('/origin-goods?pageSize=100')).items;
    const secondary = links.find((l) => l.id !== good.originGoodId && !goods.some((g) => g.secondaryOriginGoodIds.includes(l.id)))!;
    await open(`goods?id=${good.id}`);
    const origins = page.getByTestId('good-origins');
    await origins.getByText('没有合并的货源').waitFor();
    const picker = origins.getByTestId('origin-search');
    await picker.getByPlaceholder('搜索货源名称').fill(secondary.name);
    await Promise.all([answer(page, '/origin-goods', 200, 'GET'), picker.getByRole('button', { name: '搜索' }).click()]);
    const [put] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith(`/goods/${good.id}/origins`) && r.method() === 'PUT'),
      answer(page, `/goods/${good.id}/origins`, 200, 'PUT'),
      pickResult(picker, secondary.name).click(),
    ]);
    expect(put.postDataJSON()).toEqual({ secondaryOriginGoodIds: [secondary.id] });
    const row = origins.locator(`[data-testid=secondary-origin][data-id="${secondary.id}"]`);
    await row.filter({ hasText: secondary.name }).waitFor();
    await shot(page, 'admin-wf-good-merged-origin');
    expect((await api.get<Good>(`/goods/${good.id}`)).secondaryOriginGoodIds).toEqual([secondary.id]);

    await Promise.all([answer(page, `/goods/${good.id}/origins`, 200, 'PUT'), row.getByRole('button', { name: '移除' }).click()]);
    await origins.getByText('没有合并的货源').waitFor();
    expect((await api.get<Good>(`/goods/${good.id}`)).secondaryOriginGoodIds).toEqual([]);
  });

  it('keeps unsaved edits of a good when a link is merged by id, and clears the id only once added', async () => {
    const good = goods.find((g, i) => i > 1 && g.originGoodId && !positionGoods().some((p) => p.id === g.id))!;
    const links = (await api.get<{ items: { id: string; name: string }[] }>('/origin-goods?pageSize=100')).items;
    const taken = new Set(goods.flatMap((g) => [g.originGoodId, ...g.secondaryOriginGoodIds]));
    const secondary = links.filter((l) => !taken.has(l.id)).at(-1)!;
    await open(`goods?id=${good.id}`);
    const editor = page.getByTestId('good-editor');
    const origins = editor.getByTestId('good-origins');
    await origins.getByText('没有合并的货源').waitFor();
    const newName = `${good.name} 未保存的改名`;
    await editor.locator('input[name=name]').fill(newName);

    // An id that names no link: refused, and the id stays in the field to be corrected.
    const byId = origins.getByPlaceholder('或输入货源编号');
    await byId.fill('999999999');
    const [refused] = await Promise.all([answer(page, `/goods/${good.id}/origins`, undefined, 'PUT'), origins.getByRole('button', { name: '按编号合并' }).click()]);
    expect(refused.status()).toBeGreaterThanOrEqual(400);
    await origins.getByRole('alert').waitFor();
    await expect(byId.inputValue()).resolves.toBe('999999999');

    await byId.fill(secondary.id);
    await Promise.all([answer(page, `/goods/${good.id}/origins`, 200, 'PUT'), origins.getByRole('button', { name: '按编号合并' }).click()]);
    await origins.locator(`[data-testid=secondary-origin][data-id="${secondary.id}"]`).filter({ hasText: secondary.name }).waitFor();
    await until(
      () => byId.inputValue(),
      (v) => expect(v).toBe(''),
    );
    // The merged link did not reset the form: the name edited before is still there.
    await expect(editor.locator('input[name=name]').inputValue()).resolves.toBe(newName);
    await shot(page, 'admin-wf-good-merged-by-id-unsaved-name');

    await Promise.all([answer(page, `/goods/${good.id}`, 200, 'PATCH'), editor.getByTestId('good-save').click()]);
    await editor.getByText('已保存').waitFor();
    // Both on the server (the name as it normalises names: the code last), and the form shows it.
    const saved = await api.get<Good>(`/goods/${good.id}`);
    expect(saved.secondaryOriginGoodIds).toEqual([secondary.id]);
    expect(saved.name).toContain('未保存的改名');
    expect(saved.name).not.toBe(good.name);
    await until(
      () => editor.locator('input[name=name]').inputValue(),
      (v) => expect(v).toBe(saved.name),
    );
  });

  it('creates the good of a link that has none, and says clearly when the link already has one', async () => {
    const unorganised = (await api.get<{ items: { id: string; good: unknown }[] }>('/origin-goods?organised=false&pageSize=100')).items;
    const [link, raced] = unorganised.filter((l) => l.good === null);
    expect(link && raced).toBeTruthy();
    await open(`links?id=${link!.id}`);
    const box = page.getByTestId('link-good');
    const [created] = await Promise.all([answer(page, '/goods', 201, 'POST'), box.getByRole('button', { name: '为这个货源创建商品' }).click()]);
    const goodId: string = (await created.json()).id;
    // the box now names the good instead of offering to create one, also after a reload
    await box.locator(`a[href="#/goods?id=${goodId}"]`).waitFor();
    expect((await api.get<Good>(`/goods/${goodId}`)).originGoodId).toBe(link!.id);
    await open(`links?id=${link!.id}`);
    await box.locator(`a[href="#/goods?id=${goodId}"]`).waitFor();
    expect(await box.getByRole('button', { name: '为这个货源创建商品' }).count()).toBe(0);

    // Another administrator makes the good of a link while this page still offers to: the 409 names it.
    await open(`links?id=${raced!.id}`);
    await box.getByRole('button', { name: '为这个货源创建商品' }).waitFor();
    const theirs = await api.call('POST', '/goods', { originGoodId: raced!.id });
    expect(theirs.status).toBe(201);
    await Promise.all([answer(page, '/goods', 409, 'POST'), box.getByRole('button', { name: '为这个货源创建商品' }).click()]);
    await box.getByRole('alert').filter({ hasText: '该货源已有商品' }).waitFor();
    // The link is read again: the box names their good next to the error, and offers to create none.
    await box.getByRole('button', { name: '为这个货源创建商品' }).waitFor({ state: 'detached' });
    await box.getByRole('link', { name: theirs.body.name, exact: true }).waitFor();
    await until(
      () => box.getByRole('link', { name: theirs.body.name, exact: true }).getAttribute('href'),
      (href) => expect(href).toBe(`#/goods?id=${theirs.body.id}`),
    );
    await box.getByRole('alert').filter({ hasText: '该货源已有商品' }).waitFor();
    await shot(page, 'admin-wf-link-good-exists');
  });

  it('takes over a link’s tags by hand (missing dimensions filled from its name), then restores the derived tags', async () => {
    // A link of a family no other test here touches, with more than one size.
    let linkId = '';
    for (const f of [families[2]!, ...families.slice(5)]) {
      const members = (await api.get<{ members: { id: string; tags: { size?: string[] } }[] }>(`/product-families/${f.id}`)).members;
      linkId = members.find((m) => (m.tags.size?.length ?? 0) > 1)?.id ?? '';
      if (linkId) break;
    }
    const before = await api.get<{ tags: { id: string; name: string; dimension: string }[]; tagsManual: boolean }>(`/origin-goods/${linkId}`);
    expect(before.tagsManual).toBe(false);
    const logistics = before.tags.filter((t) => t.dimension === 'logistics');
    const sizes = before.tags.filter((t) => t.dimension === 'size');
    expect(logistics.length).toBeGreaterThan(0);
    expect(sizes.length).toBeGreaterThan(1);

    await open(`links?id=${linkId}`);
    const panel = page.getByTestId('link-tags');
    await panel.getByTestId('tags-source').getByText('自动生成').waitFor();
    // Leave logistics empty (filled from the name) and drop one size.
    for (const t of logistics) await panel.getByTestId('tag-picker-logistics').getByLabel(t.name, { exact: true }).uncheck();
    const dropped = sizes[sizes.length - 1]!;
    await panel.getByTestId('tag-picker-size').getByLabel(dropped.name, { exact: true }).uncheck();
    const [saved] = await Promise.all([answer(page, `/origin-goods/${linkId}/tags`, 200, 'PUT'), panel.getByRole('button', { name: '保存（手动设置）' }).click()]);
    const filled: { dimension: string; name: string }[] = (await saved.json()).filledDimensionTags;
    expect(filled.map((f) => f.dimension)).toEqual(logistics.map(() => 'logistics'));
    await panel.getByTestId('tags-source').getByText('手动设置').waitFor();
    for (const f of filled) await panel.getByTestId('filled-tags').getByText(`物流：${f.name}`).waitFor();
    await shot(page, 'admin-wf-link-tags-manual');
    const manual = await api.get<{ tags: { id: string }[]; tagsManual: boolean }>(`/origin-goods/${linkId}`);
    expect(manual.tagsManual).toBe(true);
    expect(manual.tags.map((t) => t.id)).not.toContain(dropped.id);

    await Promise.all([answer(page, `/origin-goods/${linkId}/tags/restore-auto`, 200, 'POST'), panel.getByRole('button', { name: '恢复自动' }).click()]);
    await panel.getByTestId('tags-source').getByText('自动生成').waitFor();
    const restored = await api.get<{ tags: { id: string }[]; tagsManual: boolean }>(`/origin-goods/${linkId}`);
    expect(restored.tagsManual).toBe(false);
    expect(restored.tags.map((t) => t.id).sort()).toEqual(before.tags.map((t) => t.id).sort());
  });

  it('creates a custom good and makes it a custom member of a family with dimension values and a price; then removes it', async () => {
    await open('goods');
    await page.getByTestId('new-good-open').click();
    const form = page.getByTestId('new-good');
    const name = '自定义马克杯 MUG01';
    await form.locator('input[name=name]').fill(name);
    await form.locator('input[name=goodPriority]').fill('7');
    await shot(page, 'admin-wf-new-good');
    const [created] = await Promise.all([answer(page, '/goods', 201, 'POST'), form.getByRole('button', { name: '创建' }).click()]);
    const goodId: string = (await created.json()).id;
    // The editor opens on it, its id in the address.
    await page.waitForURL((u) => new URLSearchParams(u.hash.split('?')[1]).get('id') === goodId);
    await until(
      () => page.getByTestId('good-editor').locator('input[name=name]').inputValue(),
      (v) => expect(v).toContain('MUG01'),
    );
    const good = await api.get<Good & { goodPriority: number }>(`/goods/${goodId}`);
    expect(good).toMatchObject({ originGoodId: null, goodPriority: 7 });
    expect(good.name).toContain('MUG01');
    // A good without a family is listed in the goods tree too.
    await open('tree');
    await page.getByTestId('tree-good').filter({ hasText: good.name }).waitFor({ state: 'attached' });

    // A cell the family does not have yet: a size none of its cells uses.
    const family = families[0]!;
    const before = await api.get<{ priceMatrix: { cells: Record<string, string>[] } }>(`/product-families/${family.id}`);
    const groups = (await api.get<{ items: { id: string; dimension: string | null }[] }>('/tag-groups?pageSize=100')).items;
    const tags = (await api.get<{ items: { name: string; groupId: string }[] }>('/tags?pageSize=1000')).items;
    const valuesOf = (d: string) => tags.filter((t) => groups.find((g) => g.id === t.groupId)?.dimension === d).map((t) => t.name);
    const size = valuesOf('size').find((v) => !before.priceMatrix.cells.some((c) => c.size === v))!;
    const chosen = {
      size: [size],
      color: [valuesOf('color')[0]!],
      printCount: [valuesOf('printCount')[0]!],
      craft: [valuesOf('craft')[0]!],
      logistics: [valuesOf('logistics')[0]!],
    };

    await open(`families?id=${family.id}`);
    await page.getByTestId('family-detail').getByRole('button', { name: '货源与成员', exact: true }).click();
    const cm = page.getByTestId('custom-member-form');
    const picker = cm.getByTestId('custom-good-search');
    await picker.getByRole('searchbox').fill('MUG01');
    await Promise.all([answer(page, '/goods', 200, 'GET'), picker.getByRole('button', { name: '搜索' }).click()]);
    await pickResult(picker, good.name).click();
    await cm.getByTestId('custom-good').filter({ hasText: good.name }).waitFor();
    for (const [d, vs] of Object.entries(chosen)) for (const v of vs) await cm.getByTestId(`custom-${d}`).getByLabel(v, { exact: true }).check();
    await cm.locator('input[name=custom-price]').fill('88.8');
    await shot(page, 'admin-wf-custom-member-form');
    const [post] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith(`/product-families/${family.id}/custom-members`) && r.method() === 'POST'),
      answer(page, `/product-families/${family.id}/custom-members`, 201, 'POST'),
      cm.getByRole('button', { name: '添加自定义成员' }).click(),
    ]);
    expect(post.postDataJSON()).toEqual({ goodId, tags: chosen, price: '88.8' });
    const row = page.locator(`[data-testid=custom-member][data-id="${goodId}"]`);
    await row.filter({ hasText: good.name }).waitFor();
    await row.getByText('¥88.80').waitFor();
    await shot(page, 'admin-wf-custom-member-added');

    const key = { size, color: chosen.color[0], printCount: chosen.printCount[0], craft: chosen.craft[0], logistics: chosen.logistics[0] };
    const after = await api.get<{ customMembers: { goodId: string; tags: unknown; price: string }[]; priceMatrix: { cells: Record<string, string>[] } }>(
      `/product-families/${family.id}`,
    );
    expect(after.customMembers).toEqual([{ goodId, tags: chosen, price: '88.80' }]);
    expect(after.priceMatrix.cells).toContainEqual({ ...key, price: '88.80' });

    await row.getByRole('button', { name: '移除' }).click();
    await Promise.all([answer(page, `/product-families/${family.id}/custom-members/${goodId}`, 200, 'DELETE'), answerDialog(page, '移除')]);
    await page.getByTestId('custom-members').getByText('没有自定义成员').waitFor();
    const removed = await api.get<{ customMembers: unknown[]; priceMatrix: { cells: Record<string, string>[] } }>(`/product-families/${family.id}`);
    expect(removed.customMembers).toEqual([]);
    expect(removed.priceMatrix.cells.some((c) => c.size === size)).toBe(false);
  });

  it('locks, unlocks and renames a family; the history lists those events and shows the family as it was', async () => {
    const family = families[1]!;
    expect(family.locked).toBe(false);
    await open(`families?id=${family.id}`);
    const detail = page.getByTestId('family-detail');
    await Promise.all([answer(page, `/product-families/${family.id}`, 200, 'PATCH'), detail.getByTestId('toggle-lock').click()]);
    await detail.getByTestId('family-locked').waitFor();
    await page.getByTestId('family-row').filter({ hasText: family.name }).getByText('锁定').waitFor();
    expect((await api.get<Family>(`/product-families/${family.id}`)).locked).toBe(true);
    await shot(page, 'admin-wf-family-locked');

    await Promise.all([answer(page, `/product-families/${family.id}`, 200, 'PATCH'), detail.getByTestId('toggle-lock').click()]);
    await detail.getByTestId('family-locked').waitFor({ state: 'detached' });
    expect((await api.get<Family>(`/product-families/${family.id}`)).locked).toBe(false);

    const newName = `${family.name} 改名`;
    await detail.locator('input[name=family-name]').fill(newName);
    await Promise.all([answer(page, `/product-families/${family.id}`, 200, 'PATCH'), detail.getByRole('button', { name: '重命名' }).click()]);
    await page.getByTestId('family-row').filter({ hasText: newName }).waitFor();
    expect((await api.get<Family>(`/product-families/${family.id}`)).name).toBe(newName);

    await detail.getByRole('button', { name: '历史记录' }).click();
    // Newest first.
    await detail.getByTestId('history-row').first().filter({ hasText: '重命名' }).waitFor();
    const types = await detail.getByTestId('history-type').allTextContents();
    expect(types.slice(0, 3)).toEqual(['重命名', '解锁', '锁定']);
    expect(types.at(-1)).toBe('创建');
    // The member links' joins are in the family's history too (an organisation run's one event per
    // link names its parts: parsed, tags derived, joined), with what each changed.
    expect(types.some((t) => t.split('、').includes('货源加入'))).toBe(true);
    await until(
      () => detail.getByTestId('history-row').filter({ hasText: '货源加入' }).first().textContent(),
      (t) => expect(t).toContain('加入货源「'),
    );
    // Who: the administrator by name for the lock, organisation's runs in words; never an id.
    expect(await detail.getByTestId('history-by').first().textContent()).toBe('admin');
    for (const by of await detail.getByTestId('history-by').allTextContents()) expect(by).not.toMatch(/\d{6,}|system:/);
    // Every type the server emitted, and every command recorded as why, has its label (no raw names).
    for (const t of types) expect(t).not.toMatch(/^Family/);
    const whys = await detail.getByTestId('history-why').allTextContents();
    expect(whys.length).toBe(types.length);
    for (const w of whys) expect(w).not.toMatch(/^[A-Z][A-Za-z]+$/);
    const rows = detail.getByTestId('history-row');
    const unlockRow = rows.nth(1);
    await Promise.all([answer(page, `/product-families/${family.id}/history`, 200, 'GET'), unlockRow.getByRole('button', { name: '查看此时' }).click()]);
    await detail.getByTestId('snapshot-name').filter({ hasText: family.name }).waitFor();
    expect(await detail.getByTestId('snapshot-name').textContent()).toBe(family.name);
    await until(
      () => detail.getByTestId('snapshot-locked').textContent(),
      (t) => expect(t).toBe('未锁定'),
    );
    // The family's lowest price then, replayed from the events, is the one it still has (no price moved since).
    const { lowestPrice } = await api.get<{ lowestPrice: string | null }>(`/product-families/${family.id}`);
    expect(await detail.getByTestId('snapshot-lowest').textContent()).toBe(lowestPrice ?? '—');
    const lockRow = rows.nth(2);
    await Promise.all([answer(page, `/product-families/${family.id}/history`, 200, 'GET'), lockRow.getByRole('button', { name: '查看此时' }).click()]);
    await detail
      .getByTestId('snapshot-locked')
      .filter({ hasText: /^锁定$/ })
      .waitFor();
    await shot(page, 'admin-wf-family-history');
  });

  it('creates a manual family, adds a link to it and removes it again, then deletes the family', async () => {
    const source = families[3]!;
    // Read now, not at the start: a good the tests before made may have put the family in the shop.
    const read = await api.get<{ name: string; public: boolean; members: { id: string; name: string }[] }>(`/product-families/${source.id}`);
    const link = read.members[0]!;
    await open('families');
    const name = '手动测试系列';
    await page.getByRole('textbox', { name: '系列名称', exact: true }).fill(name);
    const [created] = await Promise.all([answer(page, '/product-families', 201, 'POST'), page.getByRole('button', { name: '创建', exact: true }).click()]);
    const familyId: string = (await created.json()).id;
    const detail = page.getByTestId('family-detail');
    await page.waitForURL((u) => new URLSearchParams(u.hash.split('?')[1]).get('id') === familyId);
    await until(
      () => detail.locator('input[name=family-name]').inputValue(),
      (v) => expect(v).toBe(name),
    );
    await detail.getByRole('button', { name: '货源与成员', exact: true }).click();
    const picker = detail.getByTestId('member-search');
    await picker.getByRole('searchbox').fill(link.name);
    await Promise.all([answer(page, '/origin-goods', 200, 'GET'), picker.getByRole('button', { name: '搜索' }).click()]);
    // Taking the link from a family in the shop says so first (docs/domain.md, Public catalog).
    const pick = async () => {
      await pickResult(picker, link.name).click();
      if (read.public) await answerDialog(page, '移到此系列', { contains: `将从在售系列「${read.name}」移出` });
    };
    await Promise.all([answer(page, `/product-families/${familyId}/members`, 201, 'POST'), pick()]);
    const member = detail.locator(`[data-testid=link-member][data-id="${link.id}"]`);
    await member.waitFor();
    await shot(page, 'admin-wf-family-link-member');
    expect((await api.get<{ members: { id: string }[] }>(`/product-families/${familyId}`)).members.map((m) => m.id)).toEqual([link.id]);

    // Removing says what it does first: the members left, and nothing happens until agreed.
    await member.getByRole('button', { name: '移出' }).click();
    await page.getByRole('dialog').getByTestId('impact-members').filter({ hasText: '系列将剩 0 个货源（现有 1 个）' }).waitFor();
    await Promise.all([answer(page, `/product-families/${familyId}/members/${link.id}`, 200, 'DELETE'), answerDialog(page, '移出系列')]);
    await detail.getByTestId('link-members').getByText('系列中还没有货源').waitFor();
    expect((await api.get<{ members: unknown[] }>(`/product-families/${familyId}`)).members).toEqual([]);
    expect((await api.get<{ family: unknown }>(`/origin-goods/${link.id}`)).family).toBeNull();

    await detail.getByRole('button', { name: '删除', exact: true }).click();
    await Promise.all([answer(page, `/product-families/${familyId}`, 204, 'DELETE'), answerDialog(page, '确认删除', { contains: '没有任何商品、货源或系列用到它' })]);
    await page.getByText('在左侧选择一个系列').waitFor();
    expect((await api.call('GET', `/product-families/${familyId}`)).status).toBe(404);
  });

  it('tag groups: create and rename a group; create, rename, colour and delete a tag', async () => {
    await open('tag-groups');
    await page.locator('input[name=new-group]').fill('测试标签组');
    const [created] = await Promise.all([answer(page, '/tag-groups', 201, 'POST'), page.getByRole('button', { name: '创建标签组' }).click()]);
    const groupId: string = (await created.json()).id;
    const card = page.locator(`[data-testid=tag-group][data-group-id="${groupId}"]`);
    await card.getByTestId('tag-group-name').filter({ hasText: '测试标签组' }).waitFor();

    await card.getByRole('button', { name: '重命名' }).click();
    await card.locator('input[name=group-name]').fill('测试标签组（改）');
    await Promise.all([answer(page, `/tag-groups/${groupId}`, 200, 'PATCH'), card.getByRole('button', { name: '保存名称' }).click()]);
    await card.getByTestId('tag-group-name').filter({ hasText: '测试标签组（改）' }).waitFor();
    expect((await api.get<{ name: string }>(`/tag-groups/${groupId}`)).name).toBe('测试标签组（改）');

    await card.locator('input[name=new-tag]').fill('甲');
    const [tagCreated] = await Promise.all([answer(page, '/tags', 201, 'POST'), card.getByRole('button', { name: '添加标签' }).click()]);
    const tagId: string = (await tagCreated.json()).id;
    const tag = card.locator(`[data-testid=tag][data-tag-id="${tagId}"]`);
    await tag.getByRole('button', { name: '甲', exact: true }).click();
    const editor = card.getByTestId('tag-editor');
    await editor.locator('input[name=tag-name]').fill('乙');
    await editor.locator('input[name=tag-color]').fill('#d81b60');
    await shot(page, 'admin-wf-tag-editor');
    await Promise.all([answer(page, `/tags/${tagId}`, 200, 'PATCH'), editor.getByRole('button', { name: '保存标签' }).click()]);
    await tag.getByRole('button', { name: '乙', exact: true }).waitFor();
    await until(
      () => tag.locator('.swatch').getAttribute('style'),
      (style) => expect(style).toMatch(/background: rgb\(216, 27, 96\)/),
    );
    await shot(page, 'admin-wf-tag-groups');
    expect(await api.get(`/tags/${tagId}`)).toMatchObject({ name: '乙', color: '#d81b60', groupId });

    await tag.getByRole('button', { name: '删除标签 乙' }).click();
    await Promise.all([answer(page, `/tags/${tagId}`, 204, 'DELETE'), answerDialog(page, '确认删除')]);
    await tag.waitFor({ state: 'detached' });
    expect((await api.call('GET', `/tags/${tagId}`)).status).toBe(404);
  });

  it('positions: created with two goods chosen in the picker, shown on the storefront home, edited, deleted', async () => {
    const home = async () => (await (await fetch(`${svc.url}/v2-api/public/home`)).json()) as { positions: { id: string; name: string; items: { goodId: string }[] }[] };
    const [first, second] = positionGoods();
    await open('positions');
    const editor = page.getByTestId('position-editor');
    await editor.locator('input[name=position-name]').fill('本周推荐');
    await editor.locator('input[name=position-sort]').fill('3');
    const picker = editor.getByTestId('position-good-search');
    for (const g of [first, second]) {
      await picker.getByRole('searchbox').fill(g.name);
      await Promise.all([answer(page, '/goods', 200, 'GET'), picker.getByRole('button', { name: '搜索' }).click()]);
      await pickResult(picker, g.name).click();
      await editor.locator(`[data-testid=position-good][data-id="${g.id}"]`).filter({ hasText: g.name }).waitFor();
    }
    // Second first.
    await editor.getByTestId('position-good').first().getByRole('button', { name: /^下移/ }).click();
    await until(
      () => editor.getByTestId('position-good').first().getAttribute('data-id'),
      (id) => expect(id).toBe(second.id),
    );
    await shot(page, 'admin-wf-position-editor');
    const [post] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/positions' && r.method() === 'POST'),
      answer(page, '/positions', 201, 'POST'),
      editor.getByRole('button', { name: '保存' }).click(),
    ]);
    expect(post.postDataJSON()).toEqual({ name: '本周推荐', sortOrder: 3, goodIds: [second.id, first.id] });
    const positionId: string = (await (await post.response())!.json()).id;
    const row = page.getByTestId('position-row').filter({ hasText: '本周推荐' });
    await row.getByText('2 个').waitFor();
    expect(await api.get(`/positions/${positionId}`)).toMatchObject({ name: '本周推荐', sortOrder: 3, goodIds: [second.id, first.id] });
    const shown = (await home()).positions.find((p) => p.id === positionId);
    expect(shown).toEqual({ id: positionId, name: '本周推荐', items: [expect.objectContaining({ goodId: second.familyId }), expect.objectContaining({ goodId: first.familyId })] });

    // Opened afresh, the editor asks for the names of the position's goods in one request.
    await open('positions');
    const names = recordRequests(page, (r) => r.method() === 'GET' && new URL(r.url()).pathname.startsWith('/goods'));
    await row.getByRole('button', { name: '编辑' }).click();
    await editor.getByText('编辑展示位「本周推荐」').waitFor();
    for (const g of [second, first]) await editor.locator(`[data-testid=position-good][data-id="${g.id}"]`).filter({ hasText: g.name }).waitFor();
    names.stop();
    expect(names.requests.map((r) => new URL(r.url()).pathname)).toEqual(['/goods']);
    expect(new URL(names.requests[0]!.url()).searchParams.get('ids')!.split(',').sort()).toEqual([second.id, first.id].sort());
    await editor.locator('input[name=position-name]').fill('本周推荐（改）');
    await editor.locator(`[data-testid=position-good][data-id="${second.id}"]`).getByRole('button', { name: /^移除/ }).click();
    await Promise.all([answer(page, `/positions/${positionId}`, 200, 'PATCH'), editor.getByRole('button', { name: '保存' }).click()]);
    await page.getByTestId('position-row').filter({ hasText: '本周推荐（改）' }).getByText('1 个').waitFor();
    expect(await api.get(`/positions/${positionId}`)).toMatchObject({ name: '本周推荐（改）', goodIds: [first.id] });
    expect((await home()).positions.find((p) => p.id === positionId)).toEqual({
      id: positionId,
      name: '本周推荐（改）',
      items: [expect.objectContaining({ goodId: first.familyId })],
    });
    await shot(page, 'admin-wf-positions');

    await page.getByTestId('position-row').filter({ hasText: '本周推荐（改）' }).getByRole('button', { name: '删除' }).click();
    await Promise.all([answer(page, `/positions/${positionId}`, 204, 'DELETE'), answerDialog(page, '确认删除', { contains: '其中的 1 个商品不会被删除' })]);
    await page.getByTestId('positions').getByText('还没有展示位').waitFor();
    expect((await home()).positions.some((p) => p.id === positionId)).toBe(false);
  });

  describe('category order', () => {
    const treeOrder = async () => ((await (await fetch(`${svc.url}/public/tree-order`)).json()) as { categories: Record<string, string[]> }).categories;
    const rows = () => page.locator('[data-testid=sort-categories] tr');
    const rowIds = () => rows().evaluateAll((rs: any[]) => rs.map((r) => r.getAttribute('data-id') as string));

    /** The sorting page on its categories tab, showing the children of `parentId` (null: the top level) in this order. */
    async function openCategories(parentId: string | null, ids: string[]) {
      await open('sorting');
      await page.getByRole('button', { name: '类目', exact: true }).click();
      if (parentId !== null) await page.getByTestId('sort-category-parent').selectOption(parentId);
      await waitForOrder('sort-categories', ids);
    }

    /**
     * Runs `act`, expecting exactly one PATCH /categories/sort with this body and no other category
     * request: the page shows the order the answer says was saved, without reading the list again.
     */
    async function oneSortRequest(act: () => Promise<void>, parentId: string | null, ids: string[]) {
      const rec = recordRequests(page, (r) => new URL(r.url()).pathname.startsWith('/categories'));
      const [saved] = await Promise.all([answer(page, '/categories/sort', 200, 'PATCH'), act()]);
      expect(await saved.json()).toEqual({ parentId, ids });
      await page.getByText('顺序已保存').waitFor();
      await waitForOrder('sort-categories', ids);
      // A request the page makes after any it would have made on the answer: then none is missed.
      await page.evaluate(() => (globalThis as unknown as InPage).fetch('/auth/me', { credentials: 'include' }).then((r) => r.status));
      rec.stop();
      expect(rec.requests.map((r) => `${r.method()} ${new URL(r.url()).pathname}`)).toEqual(['PATCH /categories/sort']);
      expect(rec.requests[0]!.postDataJSON()).toEqual({ parentId, ids });
      expect((await treeOrder())[parentId ?? 'root']).toEqual(ids);
    }

    it('moves a top-level category down with the button: one request with the full order', async () => {
      const ids = (await treeOrder()).root!;
      await openCategories(null, ids);
      const next = [ids[1]!, ids[0]!, ...ids.slice(2)];
      await oneSortRequest(() => rows().first().getByRole('button', { name: /^下移/ }).click(), null, next);
      await shot(page, 'admin-wf-sort-categories-button');
    });

    it('reorders the children of a category by drag and drop from the handle only: one request with the full order', async () => {
      const before = await treeOrder();
      const parentId = Object.keys(before)
        .filter((k) => k !== 'root')
        .sort((a, b) => before[b]!.length - before[a]!.length)[0]!;
      const ids = before[parentId]!;
      expect(ids.length).toBeGreaterThan(2);
      // The children are asked for by parent, not picked out of the whole tree.
      const lists = recordRequests(page, (r) => r.method() === 'GET' && new URL(r.url()).pathname === '/categories');
      await openCategories(parentId, ids);
      lists.stop();
      expect(lists.requests.map((r) => new URL(r.url()).searchParams.get('parentId'))).toContain(parentId);
      await expect(rowIds()).resolves.toEqual(ids);
      const to = ids.length - 1;

      // Pressed on a handle but released elsewhere with no drag: a drag from a row's text is no move.
      // (Any request it made would be recorded before the button's below.)
      await rows().first().getByTestId('drag-handle').dispatchEvent('mousedown');
      await page.locator('body').dispatchEvent('mouseup');
      const rec = recordRequests(page, (r) => r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/categories'));
      await rows().first().locator('td').nth(1).dragTo(rows().nth(to));
      const swapped = [ids[1]!, ids[0]!, ...ids.slice(2)];
      await oneSortRequest(() => rows().first().getByRole('button', { name: /^下移/ }).click(), parentId, swapped);
      rec.stop();
      expect(rec.requests.map((r) => r.postDataJSON())).toEqual([{ parentId, ids: swapped }]);

      const next = [...swapped.slice(1, to + 1), swapped[0]!, ...swapped.slice(to + 1)];
      await oneSortRequest(() => rows().first().getByTestId('drag-handle').dragTo(rows().nth(to)), parentId, next);
      await shot(page, 'admin-wf-sort-categories-drag');
    });
  });

  it('the sync page shows each scheduled synchronisation, its last run, a tick that did not run, and when it runs next', async () => {
    type Schedule = Record<'categories' | 'goods' | 'details', { cron: string | null; next: string | null }>;
    // A tick its worker missed (busy past the next one) and one that failed to start, as the scheduler records them.
    // The miss is two full hours back, so the hourly tick after it is an hour overdue whatever the
    // minute now (within a minute of the hour, the tick just due is not yet shown as missed).
    const missedAt = new Date(Math.floor(Date.now() / 3600_000) * 3600_000 - 2 * 3600_000);
    const failedAt = new Date(missedAt.getTime() - 3600_000);
    await svc.db.pool.query(
      `INSERT INTO schedule_claims (claim, job, due_at, claimed_by, outcome, error) VALUES
         ($1, 'categories', $2, 'worker:1', 'missed', 'the worker was busy past the next tick'),
         ($3, 'goods', $4, 'worker:1', 'failed', 'connect ECONNREFUSED')`,
      [`categories:${missedAt.toISOString()}`, missedAt, `goods:${failedAt.toISOString()}`, failedAt],
    );
    const schedule = await api.get<Schedule>('/sync/schedule');
    expect(schedule.categories.cron).toBe('0 * * * *');
    // Hourly: the next full hour, within the coming hour.
    const next = new Date(schedule.categories.next!);
    expect(next.getUTCMinutes()).toBe(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
    expect(next.getTime()).toBeGreaterThan(Date.now() - 1000);
    await open('sync');
    // In words, never the cron text (the service's defaults: hourly, 02:30 and 03:00 daily).
    const words = { categories: '每小时整点', goods: '每天 02:30', details: '每天 03:00' } as const;
    expect([schedule.goods.cron, schedule.details.cron]).toEqual(['30 2 * * *', '0 3 * * *']);
    for (const job of ['categories', 'goods', 'details'] as const) {
      await until(
        () => page.getByTestId(`schedule-${job}-when`).textContent(),
        (t) => expect(t).toBe(words[job]),
      );
      await until(
        () => page.getByTestId(`schedule-${job}-next`).textContent(),
        (t) => expect(t).toMatch(/^(今天|明天) \d\d:\d\d$/),
      );
    }
    // The recorded miss, and the ticks since that no worker claimed (this service runs no scheduler).
    const notRun = (job: string, text: string) => page.getByTestId(`schedule-${job}-not-run`).filter({ hasText: text });
    await notRun('categories', '后台任务繁忙').getByText('错过', { exact: true }).waitFor();
    await notRun('categories', '没有正在运行的后台任务进程').first().getByText('错过', { exact: true }).waitFor();
    await notRun('goods', '将自动重试').getByText('启动失败', { exact: true }).waitFor();
    await shot(page, 'admin-wf-sync-schedule');
    expect(await page.getByTestId('sync-schedule').textContent()).not.toContain('* *');
  });

  it('rebuilds a projection from the page and waits until it runs again with a newer lastRebuildAt', async () => {
    const name = 'positions';
    type Projection = { name: string; state: string; lastRebuildAt: string | null };
    const before = (await api.get<{ items: Projection[] }>('/projections')).items.find((x) => x.name === name)!;
    // The database's clock, which stamps lastRebuildAt: the rebuild finishes after this.
    const asked: Date = (await svc.db.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
    await open('projections');
    const row = page.locator(`[data-testid=projection-row][data-name="${name}"]`);
    // The confirmation says how much it will process: the events the projection applied.
    const applied = (await api.get<{ items: { name: string; eventsApplied: number }[] }>('/projections')).items.find((x) => x.name === name)!.eventsApplied;
    await row.getByRole('button', { name: '重新生成「首页展示位」' }).click();
    await page
      .getByRole('dialog')
      .getByTestId('rebuild-impact')
      .filter({ hasText: `${applied} 条更改` })
      .waitFor();
    await Promise.all([answer(page, `/projections/${name}/rebuild`, 202, 'POST'), answerDialog(page, '重新生成')]);
    await page.getByTestId('rebuild-done').filter({ hasText: '首页展示位' }).waitFor();
    await row.getByTestId('projection-state').getByText('正常').waitFor();
    await row.getByRole('button', { name: '重新生成「首页展示位」', exact: true }).waitFor();
    await shot(page, 'admin-wf-projections');
    const after = (await api.get<{ items: Projection[] }>('/projections')).items.find((x) => x.name === name)!;
    expect(after.state).toBe('running');
    // From what it was (null on a fresh service) to a time after the request.
    expect(after.lastRebuildAt).not.toBeNull();
    expect(after.lastRebuildAt).not.toBe(before.lastRebuildAt);
    expect(new Date(after.lastRebuildAt!).getTime()).toBeGreaterThanOrEqual(asked.getTime());
    if (before.lastRebuildAt !== null) expect(new Date(after.lastRebuildAt!).getTime()).toBeGreaterThan(new Date(before.lastRebuildAt).getTime());
    await until(
      () => row.getByTestId('projection-rebuilt-at').textContent(),
      (t) => expect(t).not.toBe('—'),
    );
  });

  it('a rebuild that ends with the projection failed is shown as failed, and the page stops waiting', async () => {
    const name = 'positions';
    const initial = (await api.get<{ items: { name: string; lastRebuildAt: string | null }[] }>('/projections')).items.find((x) => x.name === name)!.lastRebuildAt;
    await open('projections');
    const row = page.locator(`[data-testid=projection-row][data-name="${name}"]`);
    // A poison event is not something this catalog has: once the rebuild was asked for (the real
    // projection is rebuilding, or has rebuilt), the answers say it failed, as the runner records it.
    const projections = (u: URL) => u.pathname === '/projections';
    const failing = await intercept(page, projections, async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { items: { name: string; state: string; lastRebuildAt: string | null; lastError: unknown }[] };
      for (const x of body.items) {
        if (x.name === name && (x.state === 'rebuilding' || x.lastRebuildAt !== initial))
          Object.assign(x, { state: 'failed', lastError: { message: 'poison event 42', during: 'rebuild' } });
      }
      await route.fulfill({ response: real, json: body });
    });
    try {
      await row.getByRole('button', { name: '重新生成「首页展示位」' }).click();
      await Promise.all([answer(page, `/projections/${name}/rebuild`, 202, 'POST'), answerDialog(page, '重新生成')]);
      await page.locator(`[data-testid=rebuild-failed][data-name="${name}"]`).filter({ hasText: '重新生成失败：首页展示位' }).waitFor();
      // The runner's own words only behind 更新出错, for whoever looks into it.
      await row.getByText('更新出错').click();
      await row.getByText('poison event 42').waitFor();
      await row.getByRole('button', { name: '重新生成「首页展示位」', exact: true }).waitFor();
      await until(
        () => row.getByRole('button', { name: '重新生成「首页展示位」', exact: true }).isEnabled(),
        (enabled) => expect(enabled).toBe(true),
      );
      await row.getByTestId('projection-state').getByText('出错').waitFor();
      expect(await page.getByTestId('rebuild-done').count()).toBe(0);
      await shot(page, 'admin-wf-projection-rebuild-failed');
    } finally {
      await failing.stop();
    }
  });
});
