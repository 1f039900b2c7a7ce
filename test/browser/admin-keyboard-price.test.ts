/**
 * Prices that cannot go live by mistake, and the keyboard that gets there fast, in the built admin
 * against a real service with the demo catalog (test/support/browser.ts): a far price asked about
 * before it is saved (Enter or leaving the cell), 取消/Escape putting it back, 撤销 restoring the
 * override as it was through the API, the slices holding manual prices marked; skip links to the
 * price table and the good editor's 保存 (the Tabs counted and written to
 * test-results/admin-keyboard-tabs.json), Enter saving a form, a moved item keeping the focus.
 * axe-core and screenshots (`admin-kp-<state>-wide.png`, `-narrow.png`) at 1440×900 and 390×844.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { Cell } from '../../src/contract/families';
import { answer, answerDialog, openAdmin, recordRequests, shot, SHOTS, sideways, startAdminSession, until } from '../support/browser';
import { expectAccessible } from '../support/axe';

jest.setTimeout(300_000);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 390, height: 844 };

let session: Awaited<ReturnType<typeof startAdminSession>>;
let page: Page;
let api: typeof session.api;

interface FamilyDetail {
  id: string;
  overrides?: Cell[];
  priceMatrix?: { cells: Cell[] };
}
/** What an in-page function reads of the focused element (the tests type-check without the DOM library). */
interface FocusedElement {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): { getAttribute(name: string): string | null } | null;
}
interface Focus {
  testId: string | null;
  text: string;
  label: string | null;
  row: string | null;
}

beforeAll(async () => {
  session = await startAdminSession();
  ({ page, api } = session);
  await page.setViewportSize(WIDE);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

const open = (route: string) => openAdmin(page, route);

/** The element that has the focus, as the tests compare it. */
const focused = (): Promise<Focus | null> =>
  page.evaluate(() => {
    const el = (globalThis as unknown as { document: { activeElement: FocusedElement | null } }).document.activeElement;
    if (!el || el.tagName === 'BODY') return null;
    return {
      testId: el.getAttribute('data-testid'),
      text: (el.textContent ?? '').trim(),
      label: el.getAttribute('aria-label'),
      row: el.closest('tr')?.getAttribute('data-id') ?? null,
    };
  });

/** Presses Tab until the focus satisfies `want`; answers how many presses it took. */
async function tabsUntil(want: (f: Focus) => boolean, max = 250): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused();
    if (f && want(f)) return i;
  }
  throw new Error(`not reached in ${max} Tabs; focus on ${JSON.stringify(await focused())}`);
}

/** axe and a screenshot at both sizes: `admin-kp-<name>-wide.png` and `-narrow.png`. */
async function checkBothSizes(name: string, ready: () => Locator): Promise<void> {
  for (const [size, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(viewport);
    await ready().first().waitFor();
    await expectAccessible(page, `${name} at ${viewport.width}×${viewport.height}`);
    await shot(page, `admin-kp-${name}-${size}`);
    expect({ name, size, ...(await sideways(page)) }).toEqual({ name, size, sideways: 0, outermost: [] });
  }
  await page.setViewportSize(WIDE);
}

const sliceOf = (c: Cell) => JSON.stringify([c.printCount, c.craft, c.logistics]);
const sameKey = (a: Cell, b: Cell) => a.size === b.size && a.color === b.color && sliceOf(a) === sliceOf(b);
const money = (p: string) => `¥${Number(p).toFixed(2)}`;

const SLICE = ['printCount', 'craft', 'logistics'] as const;

/**
 * A priced family with no manual price yet whose table has a second slice one choice away from the
 * first cell's (so an option leads from it back to that slice): the family, its cells, that slice's cell.
 */
async function familyWithSlices(): Promise<{ id: string; cells: Cell[]; other: Cell }> {
  const list = (await api.get<{ items: { id: string; lowestPrice: string | null }[] }>('/product-families?pageSize=100&sort=MEMBERS_DESC')).items;
  for (const f of list.filter((x) => x.lowestPrice !== null)) {
    const d = await api.get<FamilyDetail>(`/product-families/${f.id}`);
    const cells = d.priceMatrix?.cells ?? [];
    const first = cells[0];
    const other = first && cells.find((c) => SLICE.filter((k) => c[k] !== first[k]).length === 1);
    if (other && !(d.overrides ?? []).length) return { id: f.id, cells, other };
  }
  throw new Error('the demo catalog has no family with two slices');
}

/** Opens a family on the slice of `cell`; answers the cell's input. */
async function openCell(familyId: string, cell: Cell): Promise<Locator> {
  await open(`families?id=${familyId}`);
  for (const d of SLICE) await page.getByTestId(`matrix-${d}`).selectOption(cell[d]);
  const input = page.getByTestId(`cell-${cell.size}-${cell.color}`);
  await until(
    () => input.inputValue(),
    (v) => expect(v).toBe(cell.price),
  );
  return input;
}

const overrideOf = async (familyId: string, cell: Cell) => (await api.get<FamilyDetail>(`/product-families/${familyId}`)).overrides?.find((o) => sameKey(o, cell))?.price ?? null;

describe('a price typo cannot go live', () => {
  it('a far price asks first (Enter or leaving the cell); 取消 or Escape puts it back; 保存新价格 saves; 撤销 restores the automatic price through the API', async () => {
    const fam = await familyWithSlices();
    const cell = fam.cells[0]!;
    const input = await openCell(fam.id, cell);
    const dialog = page.getByRole('dialog');
    const title = new RegExp(`^新价格 ¥99999999\\.00 是原价 ${money(cell.price).replace(/[.$]/g, '\\$&')} 的 \\d+ 倍，确定保存？$`);
    const writes = recordRequests(page, (r) => r.url().includes('/price-overrides'));

    // Enter: asked, both prices and the ratio said; 取消 puts the price back and the focus on the cell.
    await input.fill('99999999');
    await input.press('Enter');
    await until(
      () => dialog.getByRole('heading').textContent(),
      (t) => expect(t).toMatch(title),
    );
    expect(await dialog.getByTestId('far-price').textContent()).toContain(`${money(cell.price)} → ¥99999999.00`);
    await checkBothSizes('far-price-dialog', () => dialog);
    await answerDialog(page, '取消，恢复原价');
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(cell.price),
    );
    expect((await focused())?.testId).toBe(`cell-${cell.size}-${cell.color}`);

    // Escape in the question: the same as 取消.
    await input.fill('99999999');
    await input.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(cell.price),
    );

    // Leaving the cell asks too, and nothing is saved unless agreed.
    await input.fill('0.01');
    await input.press('Tab');
    await until(
      () => dialog.getByRole('heading').textContent(),
      (t) => expect(t).toContain('新价格 ¥0.01 是原价'),
    );
    await answerDialog(page, '取消，恢复原价');
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(cell.price),
    );
    expect(writes.requests).toEqual([]);
    expect(await overrideOf(fam.id, cell)).toBeNull();

    // Agreed: saved, and offered back for a few seconds.
    await input.fill('99999999');
    await input.press('Enter');
    await dialog.waitFor();
    await Promise.all([answer(page, '/price-overrides', 200, 'PUT'), answerDialog(page, '保存新价格')]);
    const toast = page.getByTestId('undo-toast');
    await toast.getByText(`已保存 ${cell.size} / ${cell.color} 的手动价格 ¥99999999.00`).waitFor();
    // Held while the pointer is on it; reached with Tab from the cell.
    await toast.hover();
    expect(await overrideOf(fam.id, cell)).toBe('99999999.00');
    await input.focus();
    await tabsUntil((f) => f.text === '撤销', 120);
    await Promise.all([answer(page, '/price-overrides', 200, 'DELETE'), page.keyboard.press('Enter')]);
    await page.getByTestId('matrix-status').getByText(`已撤销：${cell.size} / ${cell.color} 恢复为自动价格`).waitFor();
    await toast.waitFor({ state: 'detached' });
    expect(await overrideOf(fam.id, cell)).toBeNull();
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(cell.price),
    );
    // The focus goes back to the table, not lost with the button.
    expect((await focused())?.testId).toBe('matrix-region');
    writes.stop();
  });

  it('撤销 puts back the manual price a change replaced; the offer goes by itself; the slices with manual prices are marked', async () => {
    const fam = await familyWithSlices();
    const cell = fam.cells[0]!;
    const input = await openCell(fam.id, cell);
    const first = (Number(cell.price) * 1.1).toFixed(2);
    const second = (Number(cell.price) * 1.2).toFixed(2);
    const toast = page.getByTestId('undo-toast');
    await input.fill(first);
    await Promise.all([answer(page, '/price-overrides', 200, 'PUT'), input.press('Enter')]);
    await toast.getByText(`¥${first}`).waitFor();
    // Not touched, the offer goes after a few seconds (the save stays).
    await toast.waitFor({ state: 'detached', timeout: 60_000 });
    expect(await overrideOf(fam.id, cell)).toBe(first);

    await input.fill(second);
    await Promise.all([answer(page, '/price-overrides', 200, 'PUT'), input.press('Enter')]);
    await toast.getByText(`¥${second}`).waitFor();
    await toast.getByRole('button', { name: '撤销' }).focus();
    await checkBothSizes('undo-toast', () => toast);
    expect(await page.locator('.toast-host').getAttribute('aria-live')).toBe('polite');
    await Promise.all([answer(page, '/price-overrides', 200, 'PUT'), page.keyboard.press('Enter')]);
    await page.getByTestId('matrix-status').getByText(`已撤销：${cell.size} / ${cell.color} 恢复为手动价格 ¥${first}`).waitFor();
    expect(await overrideOf(fam.id, cell)).toBe(first);
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(first),
    );

    // The slice shown holds one manual price: marked, in words too.
    await until(
      () => page.getByTestId('slice-overrides').textContent(),
      (t) => expect(t).toBe('● 含手动价格 1 个'),
    );
    expect(await input.getAttribute('aria-label')).toBe(`尺码 ${cell.size}，颜色 ${cell.color}，价格（手动价格）`);
    expect(await page.getByTestId('matrix-region').locator('caption').textContent()).toContain('（含 1 个手动价格）');
    // Another slice: no mark on it; the slice with the manual price offered, and its option says so.
    const other = fam.other;
    for (const d of SLICE) await page.getByTestId(`matrix-${d}`).selectOption(other[d]);
    await page.getByTestId('slice-overrides').waitFor({ state: 'detached' });
    const back = page.getByTestId('override-slices').getByRole('button', { name: `查看 ${cell.printCount} · ${cell.craft} · ${cell.logistics}（含 1 个手动价格）` });
    await back.waitFor();
    const marked = await page
      .locator('[data-testid^=matrix-] option')
      .evaluateAll((os: any[]) => os.filter((o) => o.textContent.includes('含手动价格')).map((o) => o.value as string));
    expect(marked).toEqual(SLICE.filter((d) => other[d] !== cell[d]).map((d) => cell[d]));
    await checkBothSizes('override-slices', () => page.getByTestId('override-slices'));
    await back.click();
    await page.getByTestId('slice-overrides').waitFor();
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(first),
    );
  });

  it('Escape puts back what was typed and leaving then saves nothing; leaving a cell that holds no price sends nothing and says why beside it', async () => {
    const fam = await familyWithSlices();
    const cell = fam.cells[1] ?? fam.cells[0]!;
    const input = await openCell(fam.id, cell);
    const msg = page.getByTestId(`cell-${cell.size}-${cell.color}-msg`);
    const writes = recordRequests(page, (r) => r.url().includes('/price-overrides'));
    await input.fill((Number(cell.price) * 1.5).toFixed(2));
    await input.press('Escape');
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(cell.price),
    );
    await input.press('Tab');
    await input.fill('99999999');
    await input.press('Escape');
    await input.press('Tab');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await input.fill('12.345');
    await input.press('Tab');
    await until(
      () => msg.textContent(),
      (t) => expect(t).toBe('最多两位小数，如 59.99'),
    );
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.getAttribute('aria-describedby')).toBe(await msg.getAttribute('id'));
    expect(await input.inputValue()).toBe('12.345');
    await checkBothSizes('price-invalid-left', () => msg);
    await input.press('Escape');
    await msg.waitFor({ state: 'detached' });
    writes.stop();
    expect(writes.requests).toEqual([]);
    expect(await overrideOf(fam.id, cell)).toBeNull();
  });
});

describe('the keyboard', () => {
  const counts: Record<string, number> = {};
  afterAll(() => {
    writeFileSync(path.join(SHOTS, 'admin-keyboard-tabs.json'), `${JSON.stringify(counts, null, 2)}\n`);
    console.log(`Tabs from page load: ${JSON.stringify(counts)}`);
  });

  it.each([
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const)('skip links reach the first price cell and the good editor’s 保存 in a few Tabs (%s)', async (size, viewport) => {
    await page.setViewportSize(viewport);
    try {
      const fam = await familyWithSlices();
      const good = (await api.get<{ items: { id: string }[] }>('/goods?pageSize=1')).items[0]!.id;
      const loadFamily = async () => {
        await open(`families?id=${fam.id}`);
        await page.locator('input[data-testid^=cell-]').first().waitFor();
        return page.locator('input[data-testid^=cell-]').first().getAttribute('data-testid');
      };
      // Tab alone, as it was: through the menu, the list and the family's controls.
      const firstCell = await loadFamily();
      counts[`${size}: first price cell, Tab only`] = await tabsUntil((f) => f.testId === firstCell);
      // With the skip link: it shows when focused, Enter goes to the table, the next Tab is the first cell.
      await loadFamily();
      const toSkip = await tabsUntil((f) => f.text === '跳到价格矩阵');
      const skip = page.getByTestId('skip-links').getByRole('link', { name: '跳到价格矩阵' });
      const box = (await skip.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      await shot(page, `admin-kp-skip-link-${size}`);
      await page.keyboard.press('Enter');
      expect((await focused())?.testId).toBe('matrix-region');
      const toCell = toSkip + (await tabsUntil((f) => f.testId === firstCell));
      counts[`${size}: first price cell, with 跳到价格矩阵 (+1 Enter)`] = toCell;
      expect(toCell).toBeLessThanOrEqual(10);

      const loadGood = async () => {
        await open(`goods?id=${good}`);
        await page.getByTestId('good-save').waitFor();
        // Counted once the tags are there: the count is the page's, not how far it had loaded.
        await page.getByTestId('good-editor').locator('input[type=checkbox]').first().waitFor();
        await page.getByTestId('skip-links').getByRole('link', { name: '跳到保存' }).waitFor({ state: 'attached' });
      };
      await loadGood();
      counts[`${size}: good editor 保存, Tab only`] = await tabsUntil((f) => f.testId === 'good-save');
      await loadGood();
      const toSave = await tabsUntil((f) => f.text === '跳到保存');
      await page.keyboard.press('Enter');
      expect((await focused())?.testId).toBe('good-save');
      counts[`${size}: good editor 保存, with 跳到保存 (+1 Enter)`] = toSave;
      expect(toSave).toBeLessThanOrEqual(10);
      await shot(page, `admin-kp-good-save-focused-${size}`);
    } finally {
      await page.setViewportSize(WIDE);
    }
  });

  it('Enter in a field saves the good editor, creates a new good and saves a home position', async () => {
    const good = (await api.get<{ items: { id: string; name: string }[] }>('/goods?pageSize=1')).items[0]!;
    await open(`goods?id=${good.id}`);
    const name = page.getByTestId('good-editor').locator('input[name=name]');
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(good.name),
    );
    await name.fill(`${good.name} 回车保存`);
    await Promise.all([answer(page, `/goods/${good.id}`, 200, 'PATCH'), name.press('Enter')]);
    await page.getByTestId('good-status').getByText('已保存').waitFor();
    // The server keeps the name normalised (its code last): the typed words are in it.
    expect((await api.get<{ name: string }>(`/goods/${good.id}`)).name).toContain('回车保存');

    await open('goods?id=new');
    const newName = page.getByTestId('new-good').locator('input[name=name]');
    await newName.fill('回车创建的商品');
    const [created] = await Promise.all([answer(page, '/goods', undefined, 'POST'), newName.press('Enter')]);
    expect(created.status()).toBe(201);
    await page.getByTestId('good-editor').waitFor();

    // A home position: its name and order fields save with Enter (its goods picker searches with Enter).
    await open('positions');
    const positionName = page.getByTestId('position-editor').locator('input[name=position-name]');
    await positionName.fill('回车保存的展示位');
    const [position] = await Promise.all([answer(page, '/positions', undefined, 'POST'), positionName.press('Enter')]);
    expect(position.status()).toBe(201);
    await page.getByTestId('position-row').filter({ hasText: '回车保存的展示位' }).waitFor();
  });

  it('moving a country with ↑/↓ keeps the focus on the moved country', async () => {
    await open('sorting');
    const rows = page.locator('[data-testid=sort-countries] tr');
    await rows.nth(3).waitFor();
    const id = (await rows.nth(0).getAttribute('data-id'))!;
    await rows.nth(0).getByRole('button', { name: /^下移/ }).focus();
    for (const at of [1, 2]) {
      await Promise.all([answer(page, '/countries/sort', 200, 'PATCH'), page.keyboard.press('Enter')]);
      await until(
        () => rows.nth(at).getAttribute('data-id'),
        (v) => expect(v).toBe(id),
      );
      await until(focused, (f) => expect({ row: f?.row, label: f?.label?.slice(0, 2) }).toEqual({ row: id, label: '下移' }));
    }
    await page.keyboard.press('Shift+Tab');
    await Promise.all([answer(page, '/countries/sort', 200, 'PATCH'), page.keyboard.press('Enter')]);
    await until(
      () => rows.nth(1).getAttribute('data-id'),
      (v) => expect(v).toBe(id),
    );
    await until(focused, (f) => expect({ row: f?.row, label: f?.label?.slice(0, 2) }).toEqual({ row: id, label: '上移' }));
    await checkBothSizes('sorting-moved', () => rows.nth(1));
  });
});
