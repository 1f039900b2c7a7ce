/**
 * The admin as a merchant meets it, clicked through the built SPA against a real service with the demo
 * catalog (test/support/browser.ts): an overview that orients, Chinese messages next to what caused
 * them, confirmations that say what a delete will do (and where a delete would be refused, where the
 * thing is used), lists whose state is the address, unsaved edits that ask before leaving, history in
 * words, an organise report that can be acted on, the keyboard, and axe-core on every page at
 * 1440×900 and 390×844 (screenshots of each page, and of each state shown, at both sizes into
 * test-results/). Waits are on locators, network answers and in-page functions, never on fixed sleeps.
 */
import type { BrowserContext, Locator, Page, Route } from 'playwright-core';
import { answer, answerDialog, intercept, recordRequests, registerAndLogin, sessionApi, shot, sideways, startBrowserSession, until, type BrowserSession } from '../support/browser';
import { expectAccessible } from '../support/axe';
import type { TestService } from '../support/service';

// A busy machine: the demo catalog, Chromium and other suites share two cores.
jest.setTimeout(300_000);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 390, height: 844 };

let session: BrowserSession;
let svc: TestService;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof sessionApi>;

interface FamilyItem {
  id: string;
  name: string;
  locked: boolean;
  memberCount: number;
  goodCount: number;
  lowestPrice: string | null;
  country: { id: string | null; name: string } | null;
}
interface Usage {
  counts: Record<string, number>;
  blockedBy: string[];
}
/** What an in-page function reads of the focused element (the tests type-check without the DOM library). */
interface ActiveElement {
  hasAttribute(name: string): boolean;
  closest(selector: string): { getAttribute(name: string): string | null } | null;
}

/** The pager's total ("… · 93 个"), exactly. */
const pagerTotal = (n: number) => page.getByTestId('pager').getByText(new RegExp(`· ${n} 个$`));

beforeAll(async () => {
  // Enough links that the organise report's lists run over a page.
  session = await startBrowserSession({ env: { SIMULATOR_LINKS: '1000' } });
  ({ svc, context, page } = session);
  page.setDefaultTimeout(60_000);
  await page.setViewportSize(WIDE);
  api = sessionApi(context, svc.url);
  // A test that stops with edits unsaved must not keep the next one from loading its page.
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
  await registerAndLogin(page);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

let loads = 0;
/** A full load of an admin address. */
async function open(route: string, p: Page = page): Promise<void> {
  await p.goto(`/admin/?load=${++loads}#/${route}`);
  await p.getByTestId(`page-${route.split('?')[0]}`).waitFor();
}

/** Nothing on the page is loading any more. */
const settled = (p: Page = page) =>
  until(
    () => p.locator('[aria-busy="true"], [data-testid=list-loading], [role=status]:text-is("加载中…")').count(),
    (n) => expect(n).toBe(0),
  );

/** The address's query. */
const hashParams = (p: Page = page) => new URLSearchParams(new URL(p.url()).hash.split('?')[1] ?? '');

/** axe at both sizes, and a screenshot of each: `admin-<name>-wide.png`, `admin-<name>-narrow.png`. */
async function checkBothSizes(name: string, ready: () => Locator, p: Page = page): Promise<void> {
  for (const [size, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await p.setViewportSize(viewport);
    await ready().first().waitFor({ state: 'attached' });
    await settled(p);
    await expectAccessible(p, `${name} at ${viewport.width}×${viewport.height}`);
    await shot(p, `admin-${name}-${size}`);
    // Wide content scrolls inside its own region; the page itself never scrolls sideways.
    expect({ page: name, size, ...(await sideways(p)) }).toEqual({ page: name, size, sideways: 0, outermost: [] });
  }
  await p.setViewportSize(WIDE);
}

/** A state of a page at both sizes, as it stands (no waiting): `admin-<name>-wide.png` and `admin-<name>-narrow.png`. */
async function shots(name: string): Promise<void> {
  for (const [size, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(viewport);
    await shot(page, `admin-${name}-${size}`);
  }
  await page.setViewportSize(WIDE);
}

describe('every admin page', () => {
  const ids = { family: '', good: '', link: '' };
  beforeAll(async () => {
    ids.family = (await api.get<{ items: FamilyItem[] }>('/product-families?pageSize=5&sort=MEMBERS_DESC')).items[0]!.id;
    ids.good = (await api.get<{ items: { id: string }[] }>('/goods?pageSize=1')).items[0]!.id;
    ids.link = (await api.get<{ items: { id: string; detailSyncedAt: string | null }[] }>('/origin-goods?pageSize=50')).items.find((l) => l.detailSyncedAt)!.id;
  });
  const pages: [string, () => string, () => Locator][] = [
    ['overview', () => 'overview', () => page.getByTestId('overview-figures')],
    ['families', () => `families?id=${ids.family}`, () => page.getByTestId('family-detail').locator('input[data-testid^=cell-]')],
    ['families-members', () => `families?id=${ids.family}&tab=members`, () => page.getByTestId('link-member')],
    ['families-history', () => `families?id=${ids.family}&tab=history`, () => page.getByTestId('history-row')],
    ['goods', () => `goods?id=${ids.good}`, () => page.getByTestId('good-editor').locator('input[name=name]')],
    ['goods-new', () => 'goods?id=new', () => page.getByTestId('new-good')],
    ['batch-goods', () => 'batch-goods', () => page.getByTestId('batch-link')],
    ['links', () => `links?id=${ids.link}`, () => page.getByTestId('link-variant')],
    ['tree', () => 'tree', () => page.getByTestId('tree-family')],
    ['categories', () => 'categories', () => page.getByTestId('category-row')],
    ['countries', () => 'countries', () => page.getByTestId('country-row')],
    ['tag-groups', () => 'tag-groups', () => page.getByTestId('tag-group')],
    ['stats', () => 'stats', () => page.getByTestId('stats-row')],
    ['sync', () => 'sync', () => page.getByTestId('sync-run')],
    ['positions', () => 'positions', () => page.getByTestId('position-editor')],
    ['sorting', () => 'sorting', () => page.locator('[data-testid=sort-countries] tr')],
    ['organise', () => 'organise', () => page.getByTestId('organise-report')],
    ['projections', () => 'projections', () => page.getByTestId('projection-row')],
  ];
  it.each(pages)('%s passes axe (no serious or critical violation) at 1440×900 and 390×844', async (name, route, ready) => {
    await open(route());
    await checkBothSizes(name, ready);
  });

  it('a dialog over a page, and the login, pass axe at both sizes; on a phone the menu opens from 菜单', async () => {
    await open('countries');
    await page.getByTestId('country-row').first().getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByTestId('impact').locator('.dialog-actions').waitFor();
    await until(
      () => page.getByRole('dialog').getByRole('status').count(),
      (n) => expect(n).toBe(0),
    );
    await checkBothSizes('delete-dialog', () => page.getByRole('dialog'));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // Signed out: the login and the first administrator's registration.
    const fresh = await context.browser()!.newContext({ baseURL: svc.url, locale: 'zh-CN' });
    try {
      const p = await fresh.newPage();
      await p.goto('/admin/');
      await p.getByRole('heading', { name: '管理员登录' }).waitFor();
      await checkBothSizes('login', () => p.getByRole('heading', { name: '管理员登录' }), p);
      // Too short for registration: said in words beside each field, the first one focused, nothing sent.
      await p.getByRole('button', { name: '首次使用？创建管理员' }).click();
      await p.getByLabel('用户名').fill('ab');
      await p.getByLabel('密码').fill('short');
      const sent = recordRequests(p, (r) => r.url().includes('/auth/'));
      await p.getByRole('button', { name: '创建并登录' }).click();
      // Each message is its field's description, read out with it.
      const message = (text: string) => p.getByRole('alert').filter({ hasText: text });
      await message('用户名至少 3 个字符（现在 2 个）').waitFor();
      await message('密码至少 12 个字符（现在 5 个）').waitFor();
      expect(await p.getByLabel('密码').getAttribute('aria-describedby')).toBe(await message('密码至少 12 个字符').getAttribute('id'));
      expect(await p.getByLabel('用户名').evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
      expect(await p.getByLabel('密码').getAttribute('aria-invalid')).toBe('true');
      await checkBothSizes('register-too-short', () => message('密码至少 12 个字符（现在 5 个）'), p);
      sent.stop();
      expect(sent.requests.map((r) => r.url())).toEqual([]);
      // Typing again clears a field's message.
      await p.getByLabel('密码').fill('long enough now');
      await until(
        () => message('密码至少 12 个字符').count(),
        (n) => expect(n).toBe(0),
      );
    } finally {
      await fresh.close();
    }
    // Before its script has arrived: a word that the admin is opening, not a blank page.
    const slow = await context.browser()!.newContext({ baseURL: svc.url, locale: 'zh-CN' });
    try {
      const p = await slow.newPage();
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      await p.route(
        (u) => /^\/admin\/assets\/.+\.js$/.test(u.pathname),
        async (route) => {
          await released;
          await route.continue();
        },
      );
      // Not waiting for the load: the held script keeps it from happening.
      await p.goto('/admin/', { waitUntil: 'commit' });
      await p.getByTestId('boot').getByRole('status').waitFor();
      expect(await p.getByRole('status').textContent()).toBe('正在打开管理后台…');
      await checkBothSizes('boot', () => p.getByTestId('boot'), p);
      release();
      await p.getByRole('heading', { name: '管理员登录' }).waitFor();
      expect(await p.getByTestId('boot').count()).toBe(0);
      // A script that never arrives (the network fails it): after a while the page says what to do.
      const failing = await slow.newPage();
      await failing.route(
        (u) => /^\/admin\/assets\/.+\.js$/.test(u.pathname),
        (route) => route.abort('internetdisconnected'),
      );
      await failing.goto('/admin/', { waitUntil: 'commit' });
      await failing.getByTestId('boot-slow').waitFor({ state: 'visible' });
      expect(await failing.getByTestId('boot-slow').textContent()).toBe('打开得比平常慢：请检查网络，然后刷新页面。');
      await checkBothSizes('boot-failed', () => failing.getByTestId('boot-slow'), failing);
    } finally {
      await slow.close();
    }
    // The menu on a phone: closed behind 菜单, every item reachable once opened.
    await page.setViewportSize(NARROW);
    try {
      await open('overview');
      const menu = page.getByRole('button', { name: '菜单' });
      await until(
        () => menu.getAttribute('aria-expanded'),
        (v) => expect(v).toBe('false'),
      );
      await menu.click();
      await page.getByRole('navigation', { name: '主菜单' }).getByRole('link', { name: '商品系列' }).click();
      await page.getByTestId('page-families').waitFor();
    } finally {
      await page.setViewportSize(WIDE);
    }
  });
});

describe('the overview', () => {
  it('opens the admin: figures as the server counts them, runs and schedules in words, data health, next steps', async () => {
    await page.goto('/admin/');
    await page.getByTestId('page-overview').waitFor();
    const o = await api.get<{ families: Record<string, number>; goods: Record<string, number>; links: Record<string, number>; vocabulary: Record<string, number> }>('/overview');
    const figure = (id: string) => page.getByTestId(id).locator('b');
    await until(
      () => figure('figure-families').textContent(),
      (t) => expect(t).toBe(String(o.families.total)),
    );
    expect(await figure('figure-public').textContent()).toBe(String(o.families.public));
    expect(await figure('figure-goods').textContent()).toBe(String(o.goods.total));
    expect(await figure('figure-links').textContent()).toBe(String(o.links.total));
    expect(await figure('attention-unpriced').textContent()).toBe(String(o.families.unpriced));
    expect(await figure('attention-incomplete').textContent()).toBe(String(o.links.incomplete));
    const run = (await api.get<{ items: { runId: string }[] }>('/product-families/organize/runs')).items[0]!;
    const counts = (await api.get<{ counts: Record<string, number> }>(`/product-families/organize/runs/${run.runId}`)).counts;
    await until(
      () => figure('attention-unparseable').textContent(),
      (t) => expect(t).toBe(String(counts.unparseable)),
    );
    // Runs: who in words, schedules in words with the next run.
    for (const kind of ['categories', 'origin_goods', 'details', 'organise']) {
      await until(
        () => page.getByTestId(`run-${kind}`).textContent(),
        (t) => expect(t).toContain('演示数据初始化'),
      );
    }
    await until(
      () => page.getByTestId('schedule-categories').textContent(),
      (t) => expect(t).toMatch(/^每小时整点（下次 (今天|明天) \d\d:00）$/),
    );
    expect(await page.getByTestId('schedule-origin_goods').textContent()).toMatch(/^每天 02:30（下次 (今天|明天) 02:30）$/);
    expect(await page.getByTestId('overview-runs').textContent()).not.toMatch(/\* \*|system:/);
    await page.getByTestId('overview-health').getByText('数据已是最新').waitFor();
    // A fresh demo: synchronised, organised, goods made; no position yet.
    expect(await page.getByTestId('step-sync').getAttribute('data-done')).toBe('true');
    expect(await page.getByTestId('step-goods').getAttribute('data-done')).toBe('true');
    expect(await page.getByTestId('step-positions').getAttribute('data-done')).toBe('false');
    await shots('overview-fresh');
    // A figure leads to the list behind it.
    await page.getByTestId('attention-unpriced').click();
    await page.getByTestId('page-families').waitFor();
    await until(
      () => page.getByTestId('filter-unpriced').getAttribute('aria-pressed'),
      (v) => expect(v).toBe('true'),
    );
    const unpriced = await api.get<{ total: number }>('/product-families?priced=false&pageSize=1');
    await pagerTotal(unpriced.total).waitFor();
    for (const badge of await page.getByTestId('family-row').locator('.badge.red').allTextContents()) expect(badge).toBe('未定价');
    expect(await page.getByTestId('family-row').count()).toBe(Math.min(30, unpriced.total));
  });
});

describe('lists', () => {
  it('families: country shown, filters and orders in the address, a page jump, back and forward move between items', async () => {
    const locked = (await api.get<{ items: FamilyItem[] }>('/product-families?pageSize=4&sort=NAME')).items;
    for (const f of locked.slice(0, 2)) expect((await api.call('PATCH', `/product-families/${f.id}`, { locked: true })).status).toBe(200);
    await open('families');
    const rows = page.getByTestId('family-row');
    const first = (await api.get<{ items: FamilyItem[] }>('/product-families?page=1&pageSize=30')).items;
    await until(
      () => rows.count(),
      (n) => expect(n).toBe(first.length),
    );
    // The country column (after the box that picks the row, the family and its shelf state): told apart by it.
    for (const [i, f] of first.slice(0, 5).entries()) expect(await rows.nth(i).locator('td').nth(3).textContent()).toBe(f.country?.name ?? '—');

    // A filter: pressed, in the address, the server's answer.
    const [req] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/product-families' && new URL(r.url()).searchParams.get('locked') === 'true'),
      page.getByTestId('filter-locked').click(),
    ]);
    expect(req.method()).toBe('GET');
    await until(
      () => page.getByTestId('filter-locked').getAttribute('aria-pressed'),
      (v) => expect(v).toBe('true'),
    );
    expect(hashParams().get('locked')).toBe('1');
    await until(
      () => rows.evaluateAll((rs: any[]) => rs.map((r) => r.getAttribute('data-id'))),
      (ids) =>
        expect(ids.sort()).toEqual(
          locked
            .slice(0, 2)
            .map((f) => f.id)
            .sort(),
        ),
    );
    await shots('families-filtered');
    await page.getByTestId('filter-locked').click();
    await until(
      () => page.getByTestId('filter-locked').getAttribute('aria-pressed'),
      (v) => expect(v).toBe('false'),
    );

    // An order, then a page jump: the rows are that slice of the server's order.
    await page.getByTestId('family-sort').selectOption('MEMBERS_DESC');
    await until(
      async () => hashParams().get('sort'),
      (v) => expect(v).toBe('MEMBERS_DESC'),
    );
    const page3 = (await api.get<{ items: FamilyItem[] }>('/product-families?sort=MEMBERS_DESC&page=3&pageSize=30')).items;
    await page.getByTestId('page-jump').fill('3');
    await page.getByTestId('page-jump').press('Enter');
    await until(
      () => rows.evaluateAll((rs: any[]) => rs.map((r) => r.getAttribute('data-id'))),
      (ids) => expect(ids).toEqual(page3.map((f) => f.id)),
    );
    expect(hashParams().get('page')).toBe('3');

    // Selection in the address: A, then B; back shows A again, forward B; a reload (a bookmark) keeps all.
    const [a, b] = page3;
    await rows.nth(0).click();
    await until(
      () => page.getByTestId('family-detail').locator('input[name=family-name]').inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
    await rows.nth(1).locator('a').click();
    await until(
      () => page.getByTestId('family-detail').locator('input[name=family-name]').inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
    expect(hashParams().get('id')).toBe(b!.id);
    await page.goBack();
    await until(
      () => page.getByTestId('family-detail').locator('input[name=family-name]').inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
    await page.goForward();
    await until(
      () => page.getByTestId('family-detail').locator('input[name=family-name]').inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
    await page.reload();
    await until(
      () => page.getByTestId('family-detail').locator('input[name=family-name]').inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
    await until(
      () => rows.evaluateAll((rs: any[]) => rs.map((r) => r.getAttribute('data-id'))),
      (ids) => expect(ids).toEqual(page3.map((f) => f.id)),
    );
    expect(await page.getByTestId('family-sort').inputValue()).toBe('MEMBERS_DESC');
    expect(await rows.nth(1).getAttribute('class')).toContain('selected');
  });

  it('shows that a search is loading and dims the rows it will replace', async () => {
    await open('families');
    const rows = page.getByTestId('family-row');
    await rows.first().waitFor();
    const before = await rows.count();
    // The search's answer is held until the test has seen the loading state.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const hold = async (route: Route) => {
      if (new URL(route.request().url()).searchParams.get('keyword')) await held;
      await route.continue();
    };
    const families = (u: URL) => u.pathname === '/product-families';
    const holding = await intercept(page, families, hold);
    try {
      const keyword = (await rows.first().locator('a').textContent())!.slice(0, 4);
      await page.getByRole('searchbox', { name: '搜索系列' }).fill(keyword);
      await page.getByRole('searchbox', { name: '搜索系列' }).press('Enter');
      await page.getByTestId('list-loading').waitFor();
      await page.locator('[data-testid=family-list] table[data-stale=true][aria-busy=true]').waitFor();
      expect(await rows.count()).toBe(before);
      await shots('families-loading');
      release();
      await page.getByTestId('list-loading').waitFor({ state: 'detached' });
      await page.locator('[data-testid=family-list] table[data-stale=true]').waitFor({ state: 'detached' });
      const expected = await api.get<{ total: number }>(`/product-families?keyword=${encodeURIComponent(keyword)}&pageSize=1`);
      await until(
        () => rows.count(),
        (n) => expect(n).toBe(Math.min(30, expected.total)),
      );
    } finally {
      release();
      await holding.stop();
    }
  });

  it('rows are reached with Tab, moved through with ↑/↓ and opened with Enter', async () => {
    await open('families');
    const rows = page.getByTestId('family-row');
    await rows.nth(2).waitFor();
    await page.getByRole('searchbox', { name: '搜索系列' }).focus();
    // The row whose link has the focus (null: focus is elsewhere).
    const activeRow = () =>
      page.evaluate(() => {
        const el = (globalThis as unknown as { document: { activeElement: ActiveElement | null } }).document.activeElement;
        return el && el.hasAttribute('data-row-focus') ? (el.closest('tr')?.getAttribute('data-id') ?? null) : null;
      });
    let reached: string | null = null;
    for (let i = 0; i < 30 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await activeRow();
    }
    const ids = await rows.evaluateAll((rs: any[]) => rs.map((r) => r.getAttribute('data-id') as string));
    expect(reached).toBe(ids[0]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await until(activeRow, (id) => expect(id).toBe(ids[2]));
    await page.keyboard.press('ArrowUp');
    await until(activeRow, (id) => expect(id).toBe(ids[1]));
    await page.keyboard.press('Enter');
    await until(
      async () => hashParams().get('id'),
      (id) => expect(id).toBe(ids[1]),
    );
    await page.getByTestId('family-detail').waitFor();
  });

  it('goods: thumbnail, price, country, category and whether the shop shows it, as the server has them', async () => {
    const goods = (
      await api.get<{ items: { id: string; image: string | null; price: string | null; countryId: string | null; categoryId: string | null; shelf: string; public: boolean }[] }>(
        '/goods?page=1&pageSize=30',
      )
    ).items;
    const countries = new Map((await api.get<{ items: { id: string; name: string }[] }>('/countries?pageSize=1000')).items.map((c) => [c.id, c.name]));
    const categories = new Map((await api.get<{ items: { id: string; name: string }[] }>('/categories?pageSize=1000')).items.map((c) => [c.id, c.name]));
    await open('goods');
    const row = (i: number) => page.getByTestId('good-row').nth(i);
    await until(
      () => page.getByTestId('good-row').count(),
      (n) => expect(n).toBe(goods.length),
    );
    for (const [i, g] of goods.slice(0, 5).entries()) {
      const cells = row(i).locator('td');
      if (g.image) expect(await row(i).locator('img.thumb').getAttribute('src')).toBe(g.image);
      // The cells after the box that picks the row and the good itself.
      expect(await cells.nth(2).textContent()).toBe(g.price === null ? '—' : `¥${Number(g.price).toFixed(2)}`);
      await until(
        () => cells.nth(3).textContent(),
        (t) => expect(t).toBe((g.countryId && countries.get(g.countryId)) || '—'),
      );
      expect(await cells.nth(4).textContent()).toBe((g.categoryId && categories.get(g.categoryId)) || '—');
      expect(await cells.nth(5).textContent()).toBe(g.shelf === 'off' ? '已下架' : '已上架');
      expect(await cells.nth(6).textContent()).toBe(g.public ? '在售' : '未展示');
    }
  });
});

describe('unsaved edits', () => {
  it('ask before another item, another page or back takes them away', async () => {
    const [a, b] = (await api.get<{ items: FamilyItem[] }>('/product-families?pageSize=2')).items;
    await open(`families?id=${a!.id}`);
    const name = page.getByTestId('family-detail').locator('input[name=family-name]');
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
    await name.fill(`${a!.name} 未保存`);
    // Another row: asked; staying keeps the edit.
    await page.locator(`[data-testid=family-row][data-id="${b!.id}"] a`).click();
    await page.getByRole('dialog').getByText('放弃未保存的修改？').waitFor();
    await shots('unsaved-edits');
    await answerDialog(page, '留在此页');
    expect(hashParams().get('id')).toBe(a!.id);
    expect(await name.inputValue()).toBe(`${a!.name} 未保存`);
    // Another page from the menu: asked again; leaving drops the edit.
    await page.getByTestId('nav-goods').click();
    await answerDialog(page, '放弃修改并离开');
    await page.getByTestId('page-goods').waitFor();
    expect((await api.get<FamilyItem>(`/product-families/${a!.id}`)).name).toBe(a!.name);
    // Back, with edits again: asked, and the address stays until answered.
    await open(`families?id=${b!.id}`);
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
    await page.locator(`[data-testid=family-row][data-id="${a!.id}"] a`).click();
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
    await name.fill(`${a!.name} 又改了`);
    await page.goBack();
    await page.getByRole('dialog').getByText('放弃未保存的修改？').waitFor();
    expect(hashParams().get('id')).toBe(a!.id);
    await answerDialog(page, '放弃修改并离开');
    await until(
      async () => hashParams().get('id'),
      (id) => expect(id).toBe(b!.id),
    );
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
  });
});

describe('messages in Chinese, next to what caused them', () => {
  it('a price typed as abc, 59.999 or 0 says why beside its cell and sends nothing; a refused save puts the stored price back; a later success clears the error', async () => {
    const family = (await api.get<{ items: FamilyItem[] }>('/product-families?pageSize=50')).items.find((f) => f.lowestPrice !== null)!;
    const detail = await api.get<{ priceMatrix: { cells: Record<string, string>[] } }>(`/product-families/${family.id}`);
    const cell = detail.priceMatrix.cells[0]!;
    await open(`families?id=${family.id}`);
    for (const d of ['printCount', 'craft', 'logistics']) await page.getByTestId(`matrix-${d}`).selectOption(cell[d]!);
    const input = page.getByTestId(`cell-${cell.size}-${cell.color}`);
    const msg = page.getByTestId(`cell-${cell.size}-${cell.color}-msg`);
    // Labelled by its size and colour.
    expect(await input.getAttribute('aria-label')).toBe(`尺码 ${cell.size}，颜色 ${cell.color}，价格`);
    const puts = recordRequests(page, (r) => r.method() === 'PUT');
    for (const [typed, why] of [
      ['abc', '请输入数字金额，如 59.90'],
      ['59.999', '最多两位小数，如 59.99'],
      ['0', '价格须大于 0'],
    ]) {
      await input.fill(typed!);
      await input.press('Enter');
      await until(
        () => msg.textContent(),
        (t) => expect(t).toBe(why),
      );
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      expect(await input.inputValue()).toBe(typed);
    }
    await shots('price-refused-locally');
    puts.stop();
    expect(puts.requests).toEqual([]);
    await input.press('Escape');
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(cell.price),
    );

    // The server refuses (someone else changed the family meanwhile): the stored price comes back, said so.
    const refuse = (route: Route) => route.fulfill({ status: 409, json: { error: { code: 'EVENT_STORE.WRONG_REVISION', message: 'family 1 changed meanwhile (revision 9)' } } });
    const overrides = (u: URL) => u.pathname.endsWith('/price-overrides');
    const refusing = await intercept(page, overrides, refuse);
    // Near the stored price: saved without a question (common/price.ts, farChange).
    const near = (Number(cell.price) * 1.1).toFixed(2);
    await input.fill(near);
    await Promise.all([answer(page, '/price-overrides', 409), input.press('Enter')]);
    await until(
      () => msg.textContent(),
      (t) => expect(t).toBe(`内容已被其他人修改，请刷新后重试；已恢复为 ¥${Number(cell.price).toFixed(2)}`),
    );
    await until(
      () => input.inputValue(),
      (v) => expect(v).toBe(cell.price),
    );
    await page.getByTestId('matrix-status').getByRole('alert').waitFor();
    expect(await page.getByTestId('family-detail').textContent()).not.toMatch(/changed meanwhile|revision|EVENT_STORE/);
    await shots('price-save-refused');
    await refusing.stop();

    // Then it is accepted: the error is gone, the success said.
    await input.fill(near);
    await Promise.all([answer(page, '/price-overrides', 200, 'PUT'), input.press('Enter')]);
    await page.getByTestId('undo-toast').getByText(`已保存 ${cell.size} / ${cell.color} 的手动价格 ¥${near}`).waitFor();
    await page.getByTestId('matrix-status').getByRole('alert').waitFor({ state: 'detached' });
    await msg.waitFor({ state: 'detached' });
    await page.getByTestId(`cell-${cell.size}-${cell.color}-clear`).waitFor();
    await Promise.all([answer(page, '/price-overrides', 200, 'DELETE'), page.getByTestId(`cell-${cell.size}-${cell.color}-clear`).click()]);
  });

  it('the server’s validation issues show next to the field, never its English; the network’s failure too', async () => {
    await open('categories');
    const form = page.getByTestId('new-category');
    // Only an invisible character: the server refuses the name, and the page says so beside it.
    await form.locator('input[name=category-name]').fill('\u200b');
    await Promise.all([answer(page, '/categories', 400, 'POST'), form.getByRole('button', { name: '创建类目' }).click()]);
    await form.locator('.field-error').filter({ hasText: '名称须包含可见的文字' }).waitFor();
    expect(await form.locator('input[name=category-name]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('body').textContent()).not.toMatch(/invalid|must contain|VALIDATION/);
    // A country code another country has: its Chinese text, not "country 1 already has code US".
    const taken = (await api.get<{ items: { code: string }[] }>('/countries?pageSize=1')).items[0]!.code;
    await open('countries');
    const country = page.getByTestId('new-country');
    await country.locator('input[name=country-name]').fill('重复代码国');
    await country.locator('input[name=country-code]').fill(taken);
    await Promise.all([answer(page, '/countries', 409, 'POST'), country.getByRole('button', { name: '创建国家' }).click()]);
    await country.getByRole('alert').filter({ hasText: '已有其他国家使用这个代码' }).waitFor();
    expect(await page.locator('body').textContent()).not.toMatch(/already has code|CODE_TAKEN/);
    // Offline: the request never answers.
    const offline = (route: Route) => route.abort('internetdisconnected');
    const countries = (u: URL) => u.pathname === '/countries';
    const offlineRoute = await intercept(page, countries, offline);
    try {
      await country.locator('input[name=country-code]').fill('QX');
      await country.getByRole('button', { name: '创建国家' }).click();
      await country.getByRole('alert').filter({ hasText: '网络连接失败，请检查网络后重试' }).waitFor();
      expect(await page.locator('body').textContent()).not.toMatch(/Failed to fetch/);
      await shots('offline-error');
    } finally {
      await offlineRoute.stop();
    }
    // The next attempt succeeds: the stale error clears.
    await Promise.all([answer(page, '/countries', 201, 'POST'), country.getByRole('button', { name: '创建国家' }).click()]);
    await country.getByText('已创建国家').waitFor();
    expect(await country.getByRole('alert').count()).toBe(0);
  });
});

describe('destructive actions say what they will do', () => {
  it('a tag still on goods: the counts and where, with a way there, and no delete sent', async () => {
    const tags = (await api.get<{ items: { id: string; name: string; groupId: string }[] }>('/tags?pageSize=1000')).items;
    let tag: (typeof tags)[number] | undefined;
    let usage: Usage | undefined;
    for (const t of tags) {
      const u = await api.get<Usage>(`/tags/${t.id}/usage`);
      if (u.counts.goods! > 0 && tags.filter((x) => x.name === t.name).length === 1) {
        [tag, usage] = [t, u];
        break;
      }
    }
    expect(tag && usage).toBeTruthy();
    await open('tag-groups');
    const deletes = recordRequests(page, (r) => r.method() === 'DELETE');
    await page
      .locator(`[data-testid=tag][data-tag-id="${tag!.id}"]`)
      .getByRole('button', { name: `删除标签 ${tag!.name}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('[data-testid=impact][data-refused=true]').waitFor();
    await dialog.getByRole('heading', { name: `「${tag!.name}」仍在使用中，不能删除` }).waitFor();
    await dialog
      .getByTestId('impact-goods')
      .filter({ hasText: `${usage!.counts.goods} 个商品带有它` })
      .waitFor();
    if (usage!.counts.links)
      await dialog
        .getByTestId('impact-links')
        .filter({ hasText: `${usage!.counts.links} 个货源` })
        .waitFor();
    expect(await dialog.getByRole('button', { name: '确认删除' }).count()).toBe(0);
    await shots('delete-tag-refused');
    // The way there: the goods that carry it.
    await dialog.getByRole('link', { name: `${usage!.counts.goods} 个商品带有它` }).click();
    await page.getByTestId('page-goods').waitFor();
    await page.getByTestId('goods-tag-chip').filter({ hasText: tag!.name }).waitFor();
    await pagerTotal(usage!.counts.goods!).waitFor();
    deletes.stop();
    expect(deletes.requests).toEqual([]);
    expect((await api.call('GET', `/tags/${tag!.id}`)).status).toBe(200);
  });

  it('a country and a tag group in use, a family with members: refused with their counts; a good: what its delete takes with it', async () => {
    const deletes = recordRequests(page, (r) => r.method() === 'DELETE');
    // The country most goods are in.
    const countries = (await api.get<{ items: { id: string; name: string }[] }>('/countries?pageSize=1000')).items;
    const used = await Promise.all(countries.map(async (c) => ({ c, u: await api.get<Usage>(`/countries/${c.id}/usage`) })));
    const { c: country, u: cu } = used.sort((x, y) => y.u.counts.goods! - x.u.counts.goods!)[0]!;
    await open('countries');
    await page.locator(`[data-testid=country-row][data-id="${country.id}"]`).getByRole('button', { name: '删除' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByTestId('impact-goods')
      .filter({ hasText: `${cu.counts.goods} 个商品` })
      .waitFor();
    await dialog
      .getByTestId('impact-families')
      .filter({ hasText: `店铺中 ${cu.counts.families} 个商品系列属于它` })
      .waitFor();
    await shots('delete-country-refused');
    await dialog.getByRole('link', { name: `${cu.counts.goods} 个商品` }).click();
    await page
      .getByTestId('goods-scope')
      .filter({ hasText: `国家：${country.name}` })
      .waitFor();
    await pagerTotal(cu.counts.goods!).waitFor();

    // A tag group with tags.
    const group = (await api.get<{ items: { id: string; name: string; tagCount: number }[] }>('/tag-groups?pageSize=100')).items.find((g) => g.tagCount > 0)!;
    await open('tag-groups');
    await page
      .locator(`[data-testid=tag-group][data-group-id="${group.id}"]`)
      .getByRole('button', { name: `删除标签组 ${group.name}` })
      .click();
    await dialog
      .getByTestId('impact-tags')
      .filter({ hasText: `${group.tagCount} 个标签` })
      .waitFor();
    await answerDialog(page, '知道了');

    // A family with members.
    const family = (await api.get<{ items: FamilyItem[] }>('/product-families?pageSize=1&sort=MEMBERS_DESC')).items[0]!;
    const fu = await api.get<Usage>(`/product-families/${family.id}/usage`);
    await open(`families?id=${family.id}`);
    await page.getByTestId('family-detail').getByRole('button', { name: '删除', exact: true }).click();
    await dialog
      .getByTestId('impact-members')
      .filter({ hasText: `${fu.counts.members} 个货源` })
      .waitFor();
    await dialog
      .getByTestId('impact-goods')
      .filter({ hasText: `${fu.counts.goods} 个商品` })
      .waitFor();
    await answerDialog(page, '知道了');

    // A good: allowed, and what it takes along is said first; cancelled, nothing happens.
    const good = (await api.get<{ items: { id: string; name: string; familyId: string | null }[] }>('/goods?pageSize=50')).items.find((g) => g.familyId)!;
    const gu = await api.get<Usage>(`/goods/${good.id}/usage`);
    await open(`goods?id=${good.id}`);
    await page.getByTestId('good-editor').getByRole('button', { name: '删除商品' }).click();
    const familyLine =
      gu.counts.familyGoods === 1 ? '它是所在系列唯一的商品：删除后该系列将从店铺下架' : `所在系列还有 ${gu.counts.familyGoods! - 1} 个其他商品，店铺中仍会显示该系列`;
    await dialog.getByTestId('impact-familyGoods').filter({ hasText: familyLine }).waitFor();
    await dialog.getByTestId('impact-confirm').waitFor();
    await shots('delete-good-impact');
    await answerDialog(page, '取消');
    deletes.stop();
    expect(deletes.requests).toEqual([]);
    expect((await api.call('GET', `/goods/${good.id}`)).status).toBe(200);
  });
});

describe('history in words', () => {
  it('who by name, what in Chinese, no X → X, and an own action that changed nothing visible still listed and marked', async () => {
    // A manual family: the administrator adds a link (the family's own record of it changes nothing
    // visible; the link's joining does), renames it, locks it.
    const created = await api.call('POST', '/product-families', { name: '历史测试系列' });
    const familyId: string = created.body.id;
    const link = (await api.get<{ items: { id: string; name: string; family: unknown }[] }>('/origin-goods?organised=true&pageSize=100')).items.find((l) => l.family)!;
    expect((await api.call('POST', `/product-families/${familyId}/members`, { originGoodId: link.id })).status).toBe(201);
    expect((await api.call('PATCH', `/product-families/${familyId}`, { name: '历史测试系列（改）' })).status).toBe(200);
    await open(`families?id=${familyId}&tab=history`);
    const rows = page.getByTestId('history-row');
    await rows.first().filter({ hasText: '重命名' }).waitFor();
    const own = rows.filter({ hasText: '记录加入的货源' });
    await own.getByTestId('history-by').filter({ hasText: 'admin' }).waitFor();
    await own.getByTestId('history-nothing-visible').waitFor();
    await rows
      .filter({ hasText: '货源加入' })
      .getByTestId('history-changes')
      .filter({ hasText: `加入货源「${link.name}」` })
      .waitFor();
    await shots('family-history');

    // Across the demo's families: no change whose two sides read the same, no internal key or id.
    const families = (await api.get<{ items: FamilyItem[] }>('/product-families?pageSize=8&sort=MEMBERS_DESC')).items;
    for (const f of [{ id: familyId }, ...families]) {
      await open(`families?id=${f.id}&tab=history`);
      await rows.first().waitFor();
      await settled();
      // The names of the links and goods named: loaded.
      await until(
        () => page.getByTestId('history-changes').allTextContents(),
        (ts) => expect(ts.join('')).not.toContain('…'),
      );
      for (const text of await page.getByTestId('history-changes').allTextContents()) {
        expect(text).not.toMatch(/「([^」]+)」 → 「\1」|(¥[\d.]+) → \2(?!\d)/);
        expect(text).not.toMatch(/familyNameKey|mediaByColor|good-\d|link-\d|\d{12,}/);
      }
      for (const by of await page.getByTestId('history-by').allTextContents()) expect(by).toMatch(/^(admin|演示数据初始化)$/);
      for (const t of await page.getByTestId('history-type').allTextContents()) expect(t).not.toMatch(/[A-Z][a-z]+[A-Z]/);
    }
  });
});

describe('the organise report', () => {
  it('review first, long lists folded and paged, each unparseable name saying which part failed, and figures that add up', async () => {
    const [run] = (await api.get<{ items: { runId: string; total: number }[] }>('/product-families/organize/runs')).items;
    const { report } = await api.get<{ report: { unparseable: { id: string; name: string; problem: { part: string } }[]; unchanged: number; parsed: number; created: number } }>(
      `/product-families/organize/runs/${run!.runId}`,
    );
    expect(report.unparseable.length).toBeGreaterThan(20);
    await open('organise');
    const shown = page.locator(`[data-testid=organise-report][data-run-id="${run!.runId}"]`);
    await shown.waitFor();
    // The figures of a first run add up: every link is updated, untouched or unparseable.
    const summary = (await shown.getByTestId('report-summary').textContent())!;
    const m = /共检查 (\d+) 个货源：(\d+) 个有更新，(\d+) 个无需改动，(\d+) 个名称无法识别。/.exec(summary)!;
    expect(m).not.toBeNull();
    const [total, updated, untouched, unparseable] = m.slice(1).map(Number) as [number, number, number, number];
    expect(total).toBe(run!.total);
    expect(updated + untouched + unparseable).toBe(total);
    expect(unparseable).toBe(report.unparseable.length);
    // A first run: nothing was there to leave untouched.
    expect(untouched).toBe(0);
    // Review before the lists; the lists folded.
    const order = await shown
      .locator('[data-testid=organise-review-section], [data-testid=report-unparseable], [data-testid=report-incomplete]')
      .evaluateAll((els: any[]) => els.map((e) => e.getAttribute('data-testid')));
    expect(order[0]).toBe('organise-review-section');
    const folded = shown.getByTestId('report-unparseable');
    expect(await folded.evaluate((d: any) => d.open)).toBe(false);
    await folded.locator('summary').click();
    const items = folded.getByTestId('unparseable-row');
    await until(
      () => items.count(),
      (n) => expect(n).toBe(20),
    );
    // Each says which part of its name could not be read, as the server found it.
    const PART: Record<string, string> = { country: '国家', logistics: '物流', productName: '品名', sku: '款号' };
    for (const [i, u] of report.unparseable.slice(0, 20).entries()) {
      expect(await items.nth(i).locator('a').textContent()).toBe(u.name);
      expect(await items.nth(i).getByTestId('unparseable-why').textContent()).toMatch(new RegExp(`^读不出${PART[u.problem.part]}：`));
    }
    await shots('organise-report');
    await folded.getByRole('button', { name: '下一页' }).click();
    await until(
      () => items.first().locator('a').textContent(),
      (t) => expect(t).toBe(report.unparseable[20]!.name),
    );
    // A link's own page says the same.
    await items.first().locator('a').click();
    await page
      .getByTestId('link-parsed')
      .getByText(new RegExp(`名称无法识别：读不出${PART[report.unparseable[20]!.problem.part]}`))
      .waitFor();
  });
});
