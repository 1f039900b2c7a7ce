/**
 * The browser clients end to end: the built admin SPA (/admin) and mobile storefront (/v2/h5),
 * served by a real service (test/support/service.ts) with the demo catalog, driven in Debian's
 * Chromium through playwright-core. Screenshots of every main page land in test-results/.
 * Synchronisation is on selectors and network answers only, never on fixed sleeps.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { answer, intercept, registerAndLogin, shot as shotOf, startBrowserSession, until, type BrowserSession, type InPage } from '../support/browser';
import { ADMIN, type TestService } from '../support/service';

jest.setTimeout(180_000);

let session: BrowserSession;
let svc: TestService;
let context: BrowserContext;
let page: Page;

const shot = (name: string, p: Page = page) => shotOf(p, name);

beforeAll(async () => {
  session = await startBrowserSession();
  ({ svc, context, page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('administrator SPA', () => {
  it('registers the first administrator, then logs in', async () => {
    await registerAndLogin(page, { screenshot: 'admin-login' });
  });

  it('keeps the session across a reload and stores no token in the page', async () => {
    await page.reload();
    await page.getByTestId('current-user').filter({ hasText: ADMIN.username }).waitFor();
    const stored = await page.evaluate(() => {
      const { localStorage, sessionStorage, document } = globalThis as unknown as InPage;
      return JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie });
    });
    expect(stored).not.toMatch(/eyJ|svc_at|svc_rt|token/i);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'svc_at')?.httpOnly).toBe(true);
    expect(cookies.find((c) => c.name === 'svc_rt')?.httpOnly).toBe(true);
  });

  it('refreshes once and retries when the access cookie has expired', async () => {
    await context.clearCookies({ name: 'svc_at' });
    const me401 = answer(page, '/auth/me', 401);
    const refreshed = answer(page, '/auth/refresh', 200);
    const me200 = answer(page, '/auth/me', 200);
    await page.reload();
    await Promise.all([me401, refreshed, me200]);
    await page.getByTestId('current-user').filter({ hasText: ADMIN.username }).waitFor();
    expect((await context.cookies()).some((c) => c.name === 'svc_at')).toBe(true);
  });

  it('starts a synchronisation and follows its progress to the end', async () => {
    await page.goto('/admin/#/sync');
    // The answer to the start is held until the run is over on the server, so the page first sees it
    // finished (a short run can end before its first poll): the list must show it all the same.
    const held = await intercept(page, '**/sync/categories', async (route) => {
      const started = await route.fetch();
      const { runId } = (await started.json()) as { runId: string };
      await until(
        async () => ((await (await context.request.get(`${svc.url}/sync/runs/${runId}`)).json()) as { state: string }).state,
        (state) => expect(state).not.toBe('running'),
      );
      await route.fulfill({ response: started });
    });
    await page.getByRole('button', { name: '同步类目' }).click();
    const live = page.getByTestId('live-run');
    await live.waitFor();
    await live.locator('.badge', { hasText: '成功' }).waitFor();
    // Who started each run, by name: this administrator's run first, the demo's seeding in words.
    const by = page.getByTestId('sync-run-by');
    await until(
      () => by.first().textContent(),
      (t) => expect(t).toBe(ADMIN.username),
    );
    await until(
      () => by.allTextContents(),
      (names) => expect(names).toContain('演示数据初始化'),
    );
    expect(await page.getByTestId('sync-runs').textContent()).not.toMatch(/system:|\d{12,}/);
    await shot('admin-sync');
    await held.stop();
  });

  it('runs the organisation and shows its report', async () => {
    await page.goto('/admin/#/organise');
    await page.getByRole('button', { name: '开始整理' }).click();
    await page.getByTestId('organise-report').waitFor();
    await page.getByText('名称无法识别的货源').waitFor();
    // the run's status: finished, every link of the catalog gone through
    const status = page.getByTestId('organise-status');
    await status.locator('.badge', { hasText: '成功' }).waitFor();
    const links = (await (await page.request.get(`${svc.url}/origin-goods?pageSize=1`)).json()).total as number;
    await until(
      () => status.getByTestId('organise-progress').textContent(),
      (t) => expect(t).toBe(`${links}/${links}`),
    );
    // Started here: the status and the run's record name this administrator.
    await status.getByText(`发起 ${ADMIN.username}`).waitFor();
    await until(
      () => page.getByTestId('organise-run-by').first().textContent(),
      (t) => expect(t).toBe(ADMIN.username),
    );
    await shot('admin-organise');
    // reopened later, the page still shows how the last run ended
    await page.reload();
    await page.getByTestId('organise-status').locator('.badge', { hasText: '成功' }).waitFor();
  });

  it('a second run: a late status of the previous run is not shown as this one, and status requests never overlap', async () => {
    const statusUrl = `${svc.url}/product-families/organize/status`;
    const previous = await (await page.request.get(statusUrl)).json();
    expect(previous.state).toBe('succeeded');
    await page.goto('/admin/#/organise');
    const status = page.getByTestId('organise-status');
    await status.and(page.locator(`[data-started-at="${previous.startedAt}"]`)).waitFor();
    // A slow network: each status answer is held until the run's own answer has come, and until the
    // test says otherwise it is the previous run's status.
    let posted!: () => void;
    const postAnswered = new Promise<void>((r) => (posted = r));
    let stale = true;
    let inFlight = 0;
    let most = 0;
    let arrivals = 0;
    const waiting: [number, () => void][] = [];
    // Bounded like the locators' waits, so a page that stops asking fails here rather than hanging.
    const untilArrivals = (n: number) =>
      new Promise<void>((resolve, reject) => {
        if (arrivals >= n) return resolve();
        const t = setTimeout(() => reject(new Error(`the page asked for the status ${arrivals} times, not ${n}`)), 30_000);
        waiting.push([n, () => (clearTimeout(t), resolve())]);
      });
    const statusPath = (u: URL) => u.pathname === '/product-families/organize/status';
    const statusRoute = await intercept(page, statusPath, async (route) => {
      inFlight++;
      most = Math.max(most, inFlight);
      arrivals++;
      // Decided when the request arrives, not when its answer is ready: a request that arrived
      // while the status was stale is answered stale however long the real read takes.
      const answerStale = stale;
      for (const [n, r] of waiting) if (arrivals >= n) r();
      try {
        await postAnswered;
        const real = await route.fetch();
        await route.fulfill({ response: real, json: answerStale ? previous : await real.json() });
      } finally {
        inFlight--;
      }
    });
    try {
      await Promise.all([answer(page, '/product-families/organize', 200, 'POST'), page.getByRole('button', { name: '开始整理' }).click()]);
      // The page asks for the status again only once it has the answer before: then it has seen a
      // status of the previous run after its own had finished, and must not show it as this one.
      await untilArrivals(1);
      posted();
      await untilArrivals(2);
      await page.getByTestId('organise-report').waitFor();
      await expect(status.locator('h2').textContent()).resolves.toContain('正在整理…');
      await expect(status.getAttribute('data-started-at')).resolves.toBeNull();
      stale = false;
      const current = await (await page.request.get(statusUrl)).json();
      expect(current).toMatchObject({ state: 'succeeded' });
      expect(new Date(current.startedAt).getTime()).toBeGreaterThan(new Date(previous.startedAt).getTime());
      await status
        .and(page.locator(`[data-started-at="${current.startedAt}"]`))
        .locator('.badge', { hasText: '成功' })
        .waitFor();
      await until(
        () => status.locator('h2').textContent(),
        (t) => expect(t).toContain('上次整理'),
      );
      expect(most).toBe(1);
      expect(arrivals).toBeGreaterThanOrEqual(3);
    } finally {
      posted();
      await statusRoute.stop();
    }
  });

  const pages: [string, string][] = [
    ['tree', '[data-testid=tree-family]'],
    ['goods', 'tbody tr'],
    ['links', 'tbody tr'],
    ['families', '[data-testid=family-row]'],
    ['sorting', '[data-testid=sort-countries] tr'],
    ['tag-groups', '[data-testid=tag-group-name]'],
    ['positions', 'tbody tr'],
    ['projections', 'tbody tr'],
  ];
  it.each(pages)('shows the %s page', async (name, ready) => {
    await page.goto(`/admin/#/${name}`);
    await page.getByTestId(`page-${name}`).waitFor();
    await page.locator(ready).first().waitFor({ state: 'attached' });
    if (name === 'goods' || name === 'links' || name === 'families') {
      await page
        .locator(name === 'families' ? '[data-testid=family-row]' : 'tbody tr')
        .first()
        .click();
      await page.getByTestId(name === 'goods' ? 'good-editor' : name === 'links' ? 'link-tags' : 'family-detail').waitFor();
    }
    await shot(`admin-${name}`);
  });

  it('a tree family row shows its configuration count only', async () => {
    await page.goto('/admin/#/tree');
    const row = page.getByTestId('tree-family').first();
    await row.waitFor({ state: 'attached' });
    expect(await row.textContent()).toMatch(/在售商品 \d+ 个$/);
  });

  it('moves a country down with one request carrying the full order', async () => {
    await page.goto('/admin/#/sorting');
    const rows = page.locator('[data-testid=sort-countries] tr');
    await rows.first().waitFor();
    const first = (await rows.nth(0).locator('td').nth(1).textContent())!.trim();
    const second = (await rows.nth(1).locator('td').nth(1).textContent())!.trim();
    const [req] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/countries/sort') && r.method() === 'PATCH'),
      answer(page, '/countries/sort'),
      rows.nth(0).getByRole('button', { name: /下移/ }).click(),
    ]);
    const ids: string[] = req.postDataJSON().ids;
    expect(ids.length).toBe(await rows.count());
    await page.getByText('顺序已保存').waitFor();
    await until(
      () => rows.nth(0).locator('td').nth(1).textContent(),
      (t) => expect(t).toContain(second),
    );
    await until(
      () => rows.nth(1).locator('td').nth(1).textContent(),
      (t) => expect(t).toContain(first),
    );
  });
});

describe('price override, admin to storefront', () => {
  it('an override edited in the admin matrix is the price of that cell in the storefront detail', async () => {
    const list: any = await (await fetch(`${svc.url}/v2-api/public/goods?pageSize=1`)).json();
    const familyId: string = list.items[0].goodId;
    const detail: any = await (await fetch(`${svc.url}/v2-api/public/goods/${familyId}`)).json();
    const cell = detail.priceMatrix.cells[0];
    const newPrice = (Number(cell.price) + 11.11).toFixed(2);

    await page.goto(`/admin/#/families?id=${familyId}`);
    await page.getByTestId('family-detail').waitFor();
    for (const d of ['printCount', 'craft', 'logistics']) await page.getByTestId(`matrix-${d}`).selectOption(cell[d]);
    const input = page.getByTestId(`cell-${cell.size}-${cell.color}`);
    await input.fill(newPrice);
    await Promise.all([answer(page, '/price-overrides', 200), input.press('Enter')]);
    await page.getByTestId(`cell-${cell.size}-${cell.color}-clear`).waitFor();
    await shot('admin-family-override');

    const h5 = await context.newPage();
    await h5.setViewportSize({ width: 390, height: 844 });
    const q = new URLSearchParams({ size: cell.size, color: cell.color, printCount: cell.printCount, craft: cell.craft, logistics: cell.logistics });
    await h5.goto(`/v2/h5/#/goods/${familyId}?${q}`);
    await h5
      .getByTestId('cell-price')
      .filter({ hasText: `¥${newPrice}` })
      .waitFor();
    for (const [k, v] of Object.entries(Object.fromEntries(q))) {
      await until(
        () => h5.getByTestId(`sel-${k}`).locator('button.on').textContent(),
        (t) => expect(t).toBe(v),
      );
    }
    if (detail.mediaByColor?.[cell.color]?.length) await h5.getByTestId('media-color').filter({ hasText: cell.color }).waitFor();
    await shot('h5-detail', h5);
    await h5.close();
  });
});

describe('mobile storefront', () => {
  let h5: Page;
  beforeAll(async () => {
    h5 = await context.newPage();
    await h5.setViewportSize({ width: 390, height: 844 });
  });
  afterAll(() => h5.close());

  it('home', async () => {
    const home = answer(h5, '/v2-api/public/home', 200);
    await h5.goto('/v2/h5/');
    await home;
    await h5.getByTestId('h5-home').waitFor();
    await h5.getByTestId('good-card').first().waitFor();
    await shot('h5-home', h5);
  });

  it('category tree', async () => {
    await h5.goto('/v2/h5/#/categories');
    await h5.locator('.catbody h2').first().waitFor();
    await shot('h5-categories', h5);
  });

  it('list: sorts, and a further page when scrolled to the end', async () => {
    await h5.goto('/v2/h5/#/list?sort=PRICE_ASC');
    const cards = h5.getByTestId('good-card');
    await cards.nth(19).waitFor();
    const prices = (await cards.locator('.price').allTextContents()).map((t) => Number(t.replace(/[^\d.]/g, '')));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    await shot('h5-list', h5);
    const page2 = answer(h5, '/public/goods', 200);
    await h5.getByTestId('list-footer').scrollIntoViewIfNeeded();
    await page2;
    await cards.nth(20).waitFor();
  });

  it('never asks the API with a double slash', async () => {
    const urls: string[] = [];
    h5.on('request', (r) => urls.push(r.url()));
    await h5.goto('/v2/h5/#/list');
    await h5.getByTestId('good-card').first().waitFor();
    expect(urls.filter((u) => u.includes('/public/')).length).toBeGreaterThan(0);
    for (const u of urls) expect(new URL(u).pathname).not.toContain('//');
  });
});
