/**
 * The mobile storefront (/v2/h5) as a shopper on a phone meets it, over the demo catalog: loading
 * (home's reads together, skeletons), failing loads (backoff counted request by request, on the
 * page's own clock), every error and empty state's words and way on, back navigation keeping the
 * list's place, filters as chips in a panel that stays open, search, the wording of unpriced and
 * 不打印 products, the keyboard, and axe-core on every page and state. Screenshots at 390×844 and
 * 1440×900 of each go to test-results/ (`h5-<state>-390.png`, `h5-<state>-1440.png`).
 *
 * Waits are on locators, network answers and function predicates; time the retries depend on is
 * the page's fake clock (Playwright's clock), moved on by the test, never a sleep.
 */
import path from 'node:path';
import type { BrowserContext, Locator, Page, Route } from 'playwright-core';
import type { PublicCell, PublicGoodDetail, PublicGoodItem } from '../../src/contract/storefront';
import { expectAccessible } from '../support/axe';
import { SHOTS, intercept as interceptRoute, recordRequests, shot, sideways, startBrowserSession, until, type BrowserSession } from '../support/browser';

jest.setTimeout(300_000);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const LONG = { timeout: 60_000 };

let session: BrowserSession;
let items: PublicGoodItem[];
let details: PublicGoodDetail[];

const pub = async <T = any>(p: string): Promise<T> => {
  const r = await fetch(`${session.svc.url}/v2-api${p}`);
  if (!r.ok) throw new Error(`GET ${p} → ${r.status}`);
  return (await r.json()) as T;
};

beforeAll(async () => {
  session = await startBrowserSession();
  const first = await pub<{ items: PublicGoodItem[]; total: number }>('/public/goods?pageSize=100');
  items = first.items;
  expect(items.length).toBe(first.total);
  details = await Promise.all(items.map((i) => pub<PublicGoodDetail>(`/public/goods/${i.goodId}`)));
});

afterAll(async () => {
  await session?.close();
});

/** A fresh context (its own history, network state and, when asked, clock) with a phone-sized page. */
async function phone(opts: { clock?: boolean } = {}): Promise<{ ctx: BrowserContext; p: Page }> {
  const ctx = await session.browser.newContext({ baseURL: session.svc.url, viewport: PHONE, locale: 'zh-CN' });
  if (opts.clock) {
    // The page's timers run only when the test moves the clock on.
    await ctx.clock.install({ time: new Date('2030-01-01T08:00:00Z') });
    await ctx.clock.pauseAt(new Date('2030-01-01T08:00:01Z'));
  }
  return { ctx, p: await ctx.newPage() };
}

/**
 * Screenshots at both sizes (`<name>-390.png`, `<name>-1440.png`): the whole page, or (`screen`)
 * what is on screen, scrolled to `at` when given; back to the phone after.
 */
async function shots(p: Page, name: string, opts: { screen?: boolean; at?: Locator } = {}): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await p.setViewportSize(size);
    await opts.at?.scrollIntoViewIfNeeded();
    if (opts.screen) await p.screenshot({ path: path.join(SHOTS, `${name}-${size.width}.png`) });
    else await shot(p, `${name}-${size.width}`);
  }
  await p.setViewportSize(PHONE);
}

const isList = (u: URL) => u.pathname === '/v2-api/public/goods';
const isDetail = (u: URL) => /^\/v2-api\/public\/goods\/[^/]+$/.test(u.pathname);
const cards = (p: Page) => p.getByTestId('good-card');
const scrollY = (p: Page) => p.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
const bodyText = (p: Page) => p.locator('body').innerText();

/** Rejects when `promise` has not settled within `ms`, saying `what`; a bound on a wait, not a sleep. */
function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(what())), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * Requests matching `match` answered by `answer` (a status, or 'pass' to let them through), counted
 * as they arrive and as they are answered.
 */
async function intercept(p: Page, match: (u: URL) => boolean, answer: () => number | 'pass') {
  const seen = { arrived: 0, answered: 0, urls: [] as string[], at: [] as number[] };
  const handler = async (route: Route) => {
    seen.arrived++;
    seen.at.push(pageClock.get(p) ?? 0);
    seen.urls.push(route.request().url());
    try {
      const a = answer();
      if (a === 'pass') await route.continue();
      else
        await route.fulfill({
          status: a,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: a >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED', message: 'simulated' } }),
        });
    } finally {
      seen.answered++;
    }
  };
  const route = await interceptRoute(p, match, handler);
  return { seen, stop: () => route.stop() };
}

/** How far the test has moved each page's clock on (ms). */
const pageClock = new WeakMap<Page, number>();

/** Moves the page's clock on by `ms` in steps, letting every request the timers start be answered before the next step. */
async function runClock(p: Page, ms: number, settled: () => boolean, step = 250): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await p.clock.runFor(step);
    pageClock.set(p, (pageClock.get(p) ?? 0) + step);
    await p.evaluate(() => 0);
    await until(
      async () => settled(),
      (ok) => expect(ok).toBe(true),
    );
  }
}

/** The state block (an error or an empty result): its title, hint and the names of its buttons and links. */
async function stateOf(block: Locator) {
  await block.waitFor(LONG);
  return {
    title: (await block.locator('.state-title').textContent())?.trim(),
    hint: (await block.locator('.state-hint').first().textContent())?.trim(),
    actions: (await block.locator('.actions').locator('a, button').allTextContents()).map((t) => t.trim()),
  };
}

describe('loading', () => {
  it('home asks for its three reads together, with skeletons until they answer', async () => {
    const { ctx, p } = await phone();
    try {
      const arrived: string[] = [];
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let allIn!: () => void;
      const three = new Promise<void>((r) => (allIn = r));
      const match = (u: URL) => u.pathname.startsWith('/v2-api/public/');
      // Every read is held until the test lets them go: a page asking one after the other would stop at the first.
      await p.route(match, async (route) => {
        arrived.push(new URL(route.request().url()).pathname);
        if (arrived.length >= 3) allIn();
        await released;
        await route.continue();
      });
      await p.goto('/v2/h5/');
      await within(three, 30_000, () => `while none had answered, home asked only for ${JSON.stringify(arrived)}`);
      expect([...arrived].sort()).toEqual(['/v2-api/public/categories/tree', '/v2-api/public/goods', '/v2-api/public/home']);
      await p.getByTestId('skeleton').first().waitFor();
      expect(await bodyText(p)).not.toContain('加载中');
      await shots(p, 'h5-home-loading');
      release();
      await cards(p).first().waitFor(LONG);
      await until(
        () => p.getByTestId('skeleton').count(),
        (n) => expect(n).toBe(0),
      );
      await expectAccessible(p, 'home');
      await shots(p, 'h5-home');
    } finally {
      await ctx.close();
    }
  });

  it('before its script has arrived, the page shows its frame and skeletons, not a blank screen', async () => {
    const { ctx, p } = await phone();
    try {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const script = (u: URL) => /^\/v2\/h5\/assets\/.+\.js$/.test(u.pathname);
      await p.route(script, async (route) => {
        await released;
        await route.continue();
      });
      // Not waiting for the load: the held script keeps it from happening.
      await p.goto('/v2/h5/', { waitUntil: 'commit' });
      const boot = p.getByTestId('boot-skeleton');
      await boot.locator('.sk-card').first().waitFor({ state: 'visible' });
      expect(await p.getByRole('status').textContent()).toBe('正在打开商城');
      await expectAccessible(p, 'the storefront before its script');
      await shots(p, 'h5-boot', { screen: true });
      release();
      await cards(p).first().waitFor(LONG);
      expect(await boot.count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('a script that never arrives: after a while the frame says what to do, not skeletons for ever', async () => {
    const { ctx, p } = await phone();
    try {
      await p.route(
        (u) => /^\/v2\/h5\/assets\/.+\.js$/.test(u.pathname),
        (route) => route.abort('internetdisconnected'),
      );
      await p.goto('/v2/h5/', { waitUntil: 'commit' });
      const slow = p.getByTestId('boot-slow');
      await slow.waitFor({ state: 'visible', ...LONG });
      expect(await slow.textContent()).toBe('网络有点慢，商城还没打开：请检查网络，然后刷新页面。');
      await expectAccessible(p, 'the storefront whose script failed');
      await shots(p, 'h5-boot-failed', { screen: true });
    } finally {
      await ctx.close();
    }
  });

  it('a picture still on its way is a grey square where it will be, not white on the white card', async () => {
    const { ctx, p } = await phone();
    try {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const pictures = new Set(items.map((g) => g.image).filter((u): u is string => !!u));
      await p.route(
        (u) => pictures.has(u.href) || pictures.has(u.pathname),
        async (route) => {
          await released;
          await route.continue();
        },
      );
      await p.goto('/v2/h5/#/list');
      const cover = cards(p).first().locator('img.cover');
      await cover.waitFor(LONG);
      expect(await cover.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor)).toBe(
        'rgb(240, 240, 240)',
      );
      await shots(p, 'h5-pictures-loading', { screen: true });
      release();
    } finally {
      await ctx.close();
    }
  });

  it('the list and a product show skeletons while they load, never 加载中…', async () => {
    const { ctx, p } = await phone();
    try {
      for (const [hash, match, ready, name] of [
        ['#/list', isList, '[data-testid=good-card]', 'h5-list-loading'],
        [`#/goods/${items[0]!.goodId}`, isDetail, '[data-testid=h5-detail]', 'h5-detail-loading'],
        ['#/categories', (u: URL) => u.pathname === '/v2-api/public/categories/tree', '.catbody', 'h5-categories-loading'],
      ] as const) {
        let release!: () => void;
        const released = new Promise<void>((r) => (release = r));
        const hold = async (route: Route) => {
          await released;
          await route.continue();
        };
        const holding = await interceptRoute(p, match, hold);
        await p.goto(`/v2/h5/${hash}`);
        await p.getByTestId('skeleton').first().waitFor();
        expect(await bodyText(p)).not.toContain('加载中');
        await expectAccessible(p, `${name} (loading)`);
        await shots(p, name);
        release();
        await p.locator(ready).first().waitFor(LONG);
        await holding.stop();
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('failing loads back off instead of flooding', () => {
  it('a list answering 500 is asked at most 5 times in 10 s, then only when the shopper asks', async () => {
    const { ctx, p } = await phone({ clock: true });
    try {
      let failing = true;
      const list = await intercept(p, isList, () => (failing ? 500 : 'pass'));
      const settled = () => list.seen.arrived === list.seen.answered;
      await p.goto('/v2/h5/#/list');
      const error = p.getByTestId('error-state');
      await error.filter({ hasText: '服务器开小差了' }).waitFor(LONG);
      expect(await error.locator('.state-hint').textContent()).toBe('商品暂时加载不出来，稍后会自动重试');
      await runClock(p, 10_000, settled);
      expect(list.seen.arrived).toBeLessThanOrEqual(5);
      expect(list.seen.arrived).toBeGreaterThanOrEqual(2); // it does try again by itself
      // ... each time after a longer wait, the first about a second.
      const gaps = list.seen.at.slice(1).map((t, i) => t - list.seen.at[i]!);
      expect(gaps[0]).toBeGreaterThanOrEqual(750);
      for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1]!);
      // Later it stops, and waits for the shopper.
      await runClock(p, 120_000, settled, 1_000);
      const afterAuto = list.seen.arrived;
      expect(afterAuto).toBeLessThanOrEqual(6);
      await runClock(p, 600_000, settled, 10_000);
      expect(list.seen.arrived).toBe(afterAuto);
      expect(await error.locator('.state-hint').textContent()).toBe('商品暂时加载不出来，请稍后重试');
      // The shopper's 重试 is one request.
      await error.getByRole('button', { name: '重试' }).click();
      await until(
        async () => list.seen.arrived,
        (n) => expect(n).toBe(afterAuto + 1),
      );
      await error.getByRole('button', { name: '重试' }).waitFor();
      expect(list.seen.arrived).toBe(afterAuto + 1);
      failing = false;
      await error.getByRole('button', { name: '重试' }).click();
      await cards(p).nth(19).waitFor(LONG);
      await list.stop();
    } finally {
      await ctx.close();
    }
  });

  it('while the server cannot be reached, the list page asks at most 5 times in 10 s, its other reads included', async () => {
    const { ctx, p } = await phone({ clock: true });
    try {
      let down = true;
      const seen = { arrived: 0, answered: 0, paths: [] as string[] };
      await p.route(
        (u) => u.pathname.startsWith('/v2-api/'),
        async (route) => {
          seen.arrived++;
          seen.paths.push(new URL(route.request().url()).pathname);
          try {
            if (down) await route.abort('connectionrefused');
            else await route.continue();
          } finally {
            seen.answered++;
          }
        },
      );
      const settled = () => seen.arrived === seen.answered;
      await p.goto('/v2/h5/#/list');
      await p.getByTestId('error-state').filter({ hasText: '网络不给力' }).waitFor(LONG);
      await runClock(p, 10_000, settled);
      expect(seen.arrived).toBeLessThanOrEqual(5);
      expect(new Set(seen.paths)).toEqual(new Set(['/v2-api/public/goods']));
      // The server back: the list comes on the next retry, then the filter panel's countries and tags.
      down = false;
      await runClock(p, 60_000, settled, 1_000);
      await cards(p).first().waitFor(LONG);
      await p.getByTestId('open-filters').click();
      await p
        .getByTestId('filter-panel')
        .getByRole('button', { name: /全店 \d+ 款/ })
        .first()
        .waitFor(LONG);
    } finally {
      await ctx.close();
    }
  });

  it('offline, the list asks once, says so, and loads by itself when the network returns', async () => {
    const { ctx, p } = await phone({ clock: true });
    try {
      await p.goto('/v2/h5/');
      await cards(p).first().waitFor(LONG);
      await ctx.setOffline(true);
      const asked = recordRequests(p, (r) => isList(new URL(r.url())));
      await p.getByRole('link', { name: '全部商品', exact: true }).click();
      const error = p.getByTestId('error-state');
      await error.filter({ hasText: '网络已断开' }).waitFor(LONG);
      await runClock(p, 10_000, () => true);
      expect(asked.requests.length).toBeLessThanOrEqual(5);
      expect(asked.requests.length).toBe(1);
      await ctx.setOffline(false);
      // No tap and no timer: the network's return is enough.
      await cards(p).nth(19).waitFor(LONG);
      expect(asked.requests.length).toBe(2);
      asked.stop();
    } finally {
      await ctx.close();
    }
  });

  it('a refused filter (400) is asked once until the shopper clears it', async () => {
    const { ctx, p } = await phone({ clock: true });
    try {
      const asked = recordRequests(p, (r) => isList(new URL(r.url())));
      await p.goto('/v2/h5/#/list?countryId=abc');
      const error = p.getByTestId('error-state');
      await error.filter({ hasText: '筛选条件无效' }).waitFor(LONG);
      await runClock(p, 600_000, () => true, 5_000);
      expect(asked.requests.map((r) => new URL(r.url()).searchParams.get('countryId'))).toEqual(['abc']);
      await error.getByRole('link', { name: '清除筛选' }).click();
      await cards(p).first().waitFor(LONG);
      expect(asked.requests).toHaveLength(2);
      expect(new URL(asked.requests[1]!.url()).searchParams.get('countryId')).toBeNull();
      asked.stop();
    } finally {
      await ctx.close();
    }
  });

  it('a product that is gone (404) is asked for once', async () => {
    const { ctx, p } = await phone({ clock: true });
    try {
      const asked = recordRequests(p, (r) => isDetail(new URL(r.url())));
      await p.goto('/v2/h5/#/goods/999999');
      await p.getByTestId('gone-state').waitFor(LONG);
      await runClock(p, 600_000, () => true, 5_000);
      expect(asked.requests).toHaveLength(1);
      asked.stop();
    } finally {
      await ctx.close();
    }
  });

  it('a further page that fails is retried on the backoff too, however much the shopper scrolls', async () => {
    const { ctx, p } = await phone({ clock: true });
    try {
      let failing = true;
      const more = await intercept(
        p,
        (u) => isList(u) && u.searchParams.get('page') !== '1',
        () => (failing ? 503 : 'pass'),
      );
      const settled = () => more.seen.arrived === more.seen.answered;
      await p.goto('/v2/h5/#/list');
      await cards(p).nth(19).waitFor(LONG);
      const footer = p.getByTestId('list-footer');
      await footer.scrollIntoViewIfNeeded();
      const error = footer.getByTestId('error-state');
      await error.filter({ hasText: '当前访问人数较多' }).waitFor(LONG);
      for (let i = 0; i < 5; i++) {
        await p.mouse.wheel(0, -300);
        await p.mouse.wheel(0, 600);
        await runClock(p, 2_000, settled);
      }
      expect(more.seen.arrived).toBeLessThanOrEqual(5);
      expect(await cards(p).count()).toBe(20);
      failing = false;
      await runClock(p, 60_000, settled, 1_000);
      await cards(p).nth(20).waitFor(LONG);
      await more.stop();
    } finally {
      await ctx.close();
    }
  });
});

describe('every error says what happened, in Chinese, with a way on', () => {
  const states: [string, string, (p: Page, ctx: BrowserContext) => Promise<void>, { title: string; hint?: string; actions: string[]; testId?: string; within?: string }][] = [
    [
      'h5-home-error',
      'home while the server fails',
      async (p) => {
        await intercept(
          p,
          (u) => u.pathname === '/v2-api/public/home',
          () => 500,
        );
        await p.goto('/v2/h5/');
      },
      { title: '服务器开小差了', hint: '首页商品暂时加载不出来', actions: ['重试', '逛逛全部商品'] },
    ],
    [
      'h5-home-empty',
      'home before anything is listed (a new shop, or the demo still being set up)',
      async (p) => {
        await p.route(
          (u) => u.pathname === '/v2-api/public/home',
          (r) => r.fulfill({ json: { positions: [] } }),
        );
        await p.route(
          (u) => u.pathname === '/v2-api/public/categories/tree',
          (r) => r.fulfill({ json: { items: [] } }),
        );
        await p.route(isList, (r) => r.fulfill({ json: { items: [], total: 0, page: 1, pageSize: 10 } }));
        await p.goto('/v2/h5/');
        // No empty blocks: no heading over nothing, no category row without categories.
        await p.getByTestId('empty-state').waitFor(LONG);
        expect(await p.getByRole('navigation', { name: '商品分类' }).count()).toBe(0);
        expect(await p.locator('.grid').count()).toBe(0);
        expect(await p.getByRole('heading', { name: '新品推荐' }).count()).toBe(0);
      },
      { title: '暂时还没有商品', hint: '商品正在上架中，晚些再来看看', actions: ['刷新'], testId: 'empty-state' },
    ],
    [
      'h5-categories-error',
      'the categories while the server fails',
      async (p) => {
        await intercept(
          p,
          (u) => u.pathname === '/v2-api/public/categories/tree',
          () => 500,
        );
        await p.goto('/v2/h5/#/categories');
      },
      { title: '服务器开小差了', hint: '分类暂时加载不出来', actions: ['重试', '返回首页'] },
    ],
    [
      'h5-list-offline',
      'the list offline',
      async (p, ctx) => {
        await p.goto('/v2/h5/');
        await cards(p).first().waitFor(LONG);
        await ctx.setOffline(true);
        await p.getByRole('link', { name: '全部商品', exact: true }).click();
      },
      { title: '网络已断开', hint: '网络恢复后会自动重新加载', actions: ['重试', '返回首页'] },
    ],
    [
      'h5-list-invalid',
      'the list with a filter the server refuses',
      async (p) => {
        await p.goto('/v2/h5/#/list?countryId=abc');
      },
      { title: '筛选条件无效', actions: ['清除筛选', '返回首页'] },
    ],
    [
      'h5-list-busy',
      'the list while the server is busy (503)',
      async (p) => {
        await intercept(p, isList, () => 503);
        await p.goto('/v2/h5/#/list');
      },
      { title: '当前访问人数较多', actions: ['重试', '返回首页'] },
    ],
    [
      'h5-list-more-error',
      'a further page of the list failing',
      async (p) => {
        await intercept(
          p,
          (u) => isList(u) && u.searchParams.get('page') === '2',
          () => 500,
        );
        await p.goto('/v2/h5/#/list');
        await cards(p).nth(19).waitFor(LONG);
        await p.getByTestId('list-footer').scrollIntoViewIfNeeded();
      },
      { title: '服务器开小差了', hint: '更多商品暂时加载不出来', actions: ['重试'], within: 'list-footer' },
    ],
    [
      'h5-detail-gone',
      'an old link to a product that is gone',
      async (p) => {
        await p.goto('/v2/h5/#/goods/999999');
      },
      { title: '商品已下架或不存在', actions: ['返回首页', '逛逛全部商品'], testId: 'gone-state' },
    ],
    [
      'h5-detail-bad-link',
      'a product link that is malformed',
      async (p) => {
        await p.goto('/v2/h5/#/goods/abc');
      },
      { title: '链接无效', actions: ['返回首页', '逛逛全部商品'], testId: 'gone-state' },
    ],
    [
      'h5-detail-network',
      'a product whose request gets no answer',
      async (p) => {
        await p.route(isDetail, (r) => r.abort('connectionreset'));
        await p.goto(`/v2/h5/#/goods/${items[0]!.goodId}`);
      },
      { title: '网络不给力', actions: ['重试', '返回首页'] },
    ],
    [
      'h5-detail-error',
      'a product while the server fails',
      async (p) => {
        await intercept(p, isDetail, () => 500);
        await p.goto(`/v2/h5/#/goods/${items[0]!.goodId}`);
      },
      { title: '服务器开小差了', hint: '商品详情暂时加载不出来', actions: ['重试', '返回首页'] },
    ],
  ];

  it.each(states)('%s: %s', async (name, _what, arrange, expected) => {
    const { ctx, p } = await phone();
    try {
      await arrange(p, ctx);
      const block = (expected.within ? p.getByTestId(expected.within) : p).getByTestId(expected.testId ?? 'error-state').filter({ hasText: expected.title });
      // A running retry relabels its button for a moment; the state settles back to it.
      await until(
        () => stateOf(block),
        (s) => {
          expect(s.title).toBe(expected.title);
          if (expected.hint) expect(s.hint).toContain(expected.hint);
          expect(s.actions).toEqual(expected.actions);
        },
        60_000,
      );
      expect(await bodyText(p)).not.toMatch(/[A-Za-z]{4,}/); // no server English (no_public_good, internal error, Failed to fetch)
      await expectAccessible(p, name);
      await shots(p, name, expected.within ? { screen: true, at: p.getByTestId(expected.within) } : {});
      await ctx.setOffline(false);
    } finally {
      await ctx.close();
    }
  });

  it('the ways on work: 重试 loads, 返回首页 goes home, 逛逛全部商品 lists', async () => {
    const { ctx, p } = await phone({ clock: true });
    try {
      const failing = await intercept(p, isDetail, () => 500);
      await p.goto(`/v2/h5/#/goods/${items[0]!.goodId}`);
      const error = p.getByTestId('error-state');
      await error.waitFor(LONG);
      await failing.stop();
      await error.getByRole('button', { name: '重试' }).click();
      await p.getByTestId('h5-detail').waitFor(LONG);

      await p.goto('/v2/h5/#/goods/999999');
      await p.getByTestId('gone-state').getByRole('link', { name: '逛逛全部商品' }).click();
      await cards(p).first().waitFor(LONG);
      await p.goto('/v2/h5/#/goods/999999');
      await p.getByTestId('gone-state').getByRole('link', { name: '返回首页' }).click();
      await p.getByTestId('h5-home').waitFor(LONG);
    } finally {
      await ctx.close();
    }
  });
});

describe('browsing state', () => {
  it('back from a product returns to the same place in the list, with the pages already loaded', async () => {
    const { ctx, p } = await phone();
    try {
      await p.goto('/v2/h5/#/list');
      // Every page, to the end of the list.
      const footer = p.getByTestId('list-footer');
      for (let n = 19; n < items.length; n += 20) {
        await footer.scrollIntoViewIfNeeded();
        await cards(p).nth(n).waitFor(LONG);
      }
      await footer.scrollIntoViewIfNeeded();
      await footer.filter({ hasText: `共 ${items.length} 款，已经到底了` }).waitFor(LONG);
      const loaded = await cards(p).count();
      expect(loaded).toBe(items.length);
      for (const leave of ['返回', 'browser back'] as const) {
        const target = cards(p).nth(Math.floor(loaded / 2));
        await target.scrollIntoViewIfNeeded();
        // Where the page came to rest (two reads alike), well down the list.
        let last = -1;
        await until(
          async () => [last, (last = await scrollY(p))] as const,
          ([before, now]) => expect(now).toBe(before),
        );
        const y = await scrollY(p);
        expect(y).toBeGreaterThan(1000);
        const href = await target.getAttribute('href');
        const asked = recordRequests(p, (r) => isList(new URL(r.url())));
        await target.click();
        await p.getByTestId('h5-detail').waitFor(LONG);
        expect(await scrollY(p)).toBeLessThan(y);
        if (leave === '返回') await p.getByRole('button', { name: '返回上一页' }).click();
        else await p.goBack();
        await until(
          () => cards(p).count(),
          (n) => expect(n).toBe(loaded),
        );
        await until(
          () => scrollY(p),
          (now) => expect(Math.abs(now - y)).toBeLessThanOrEqual(2),
        );
        expect(
          await cards(p)
            .nth(Math.floor(loaded / 2))
            .getAttribute('href'),
        ).toBe(href);
        expect(asked.requests).toHaveLength(0);
        asked.stop();
      }
      await shots(p, 'h5-list-back', { screen: true });
    } finally {
      await ctx.close();
    }
  });

  it("the product's 返回 goes where the shopper came from; from a shared link, home", async () => {
    const { ctx, p } = await phone();
    try {
      await p.goto('/v2/h5/');
      await cards(p).first().click();
      await p.getByTestId('h5-detail').waitFor(LONG);
      await p.getByRole('button', { name: '返回上一页' }).click();
      await p.getByTestId('h5-home').waitFor(LONG);

      const shared = await ctx.newPage();
      await shared.goto(`/v2/h5/#/goods/${items[1]!.goodId}`);
      await shared.getByTestId('h5-detail').waitFor(LONG);
      await shared.getByRole('button', { name: '返回上一页' }).click();
      await shared.getByTestId('h5-home').waitFor(LONG);
      expect(new URL(shared.url()).pathname).toBe('/v2/h5/');
    } finally {
      await ctx.close();
    }
  });

  it('filters: a panel that stays open while choosing, 重置 and 确定, counts said to be catalogue-wide, then chips', async () => {
    const { ctx, p } = await phone();
    try {
      const countries = (await pub<{ items: { id: string; name: string; familyCount: number }[] }>('/public/countries')).items;
      const groups = (await pub<{ items: { name: string; tags: { id: string; name: string; familyCount: number }[] }[] }>('/public/tag-groups')).items;
      const country = countries[0]!;
      const tag = groups.find((g) => g.name === '尺码')!.tags[0]!;
      await p.goto('/v2/h5/#/list');
      await cards(p).first().waitFor(LONG);
      const before = p.url();
      await p.getByTestId('open-filters').click();
      const panel = p.getByTestId('filter-panel');
      await panel.waitFor();
      await panel.getByText('选项后的数字是全店的商品款数，不随已选条件变化').waitFor();
      // Each country and each tag with its count, the catalogue-wide one, said so.
      const countryButton = panel.getByRole('button', { name: `${country.name}（全店 ${country.familyCount} 款）`, exact: true });
      expect(await countryButton.textContent()).toBe(`${country.name}${country.familyCount}`);
      const countryOnly = await pub<{ total: number }>(`/public/goods?countryId=${country.id}&pageSize=1`);
      expect(country.familyCount).toBe(countryOnly.total);
      const tagButton = panel.getByRole('button', { name: `${tag.name}（全店 ${tag.familyCount} 款）`, exact: true });
      await countryButton.click();
      await tagButton.click();
      // Still open, nothing applied yet.
      await expect(countryButton.getAttribute('aria-pressed')).resolves.toBe('true');
      await expect(tagButton.getAttribute('aria-pressed')).resolves.toBe('true');
      expect(await panel.isVisible()).toBe(true);
      expect(p.url()).toBe(before);
      await panel.getByRole('button', { name: '确定（已选 2 项）' }).waitFor();
      await expectAccessible(p, 'the filter panel');
      await shots(p, 'h5-list-filters', { screen: true });
      await panel.getByRole('button', { name: '重置' }).click();
      await until(
        () => countryButton.getAttribute('aria-pressed'),
        (v) => expect(v).toBe('false'),
      );
      expect(await tagButton.getAttribute('aria-pressed')).toBe('false');
      expect(await panel.getByRole('button', { name: '不限' }).getAttribute('aria-pressed')).toBe('true');
      expect(await panel.isVisible()).toBe(true);
      // Esc closes without applying, back on the button that opened it.
      await countryButton.click();
      await p.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(p.url()).toBe(before);
      expect(await p.getByTestId('open-filters').evaluate((e) => e === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);

      await p.getByTestId('open-filters').click();
      await countryButton.click();
      await tagButton.click();
      await panel.getByRole('button', { name: /^确定/ }).click();
      await panel.waitFor({ state: 'hidden' });
      const url = new URL(p.url().replace('#/list', 'list'));
      expect(url.searchParams.get('countryId')).toBe(country.id);
      expect(url.searchParams.get('tagIds')).toBe(tag.id);
      const chips = p.getByTestId('filter-chips');
      await until(
        () => chips.locator('.fchip').allTextContents(),
        (t) => expect(t.map((x) => x.replace(/\s*×$/, ''))).toEqual([country.name, tag.name]),
      );
      const both = await pub<{ total: number }>(`/public/goods?countryId=${country.id}&tagIds=${tag.id}&pageSize=1`);
      await p
        .getByTestId('result-count')
        .filter({ hasText: `共 ${both.total} 款` })
        .waitFor(LONG);
      expect(await p.getByTestId('open-filters').textContent()).toBe('筛选（2）');
      await expectAccessible(p, 'the list with filters');
      await shots(p, 'h5-list-chips', { screen: true });

      await chips.getByRole('link', { name: `移除条件：${tag.name}` }).click();
      await p
        .getByTestId('result-count')
        .filter({ hasText: `共 ${countryOnly.total} 款` })
        .waitFor(LONG);
      expect(await chips.locator('.fchip').allTextContents()).toEqual([`${country.name} ×`]);
      await chips.getByRole('link', { name: '清除全部' }).click();
      await p
        .getByTestId('result-count')
        .filter({ hasText: `共 ${items.length} 款` })
        .waitFor(LONG);
      expect(await p.getByTestId('filter-chips').count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('the list has a search box; no result offers to clear the filters', async () => {
    const { ctx, p } = await phone();
    try {
      await p.goto('/v2/h5/#/list');
      await cards(p).first().waitFor(LONG);
      const box = p.getByRole('searchbox', { name: '搜索商品' });
      await box.fill('卫衣');
      await box.press('Enter');
      const found = await pub<{ total: number }>(`/public/goods?keyword=${encodeURIComponent('卫衣')}&pageSize=1`);
      expect(found.total).toBeGreaterThan(0);
      expect(found.total).toBeLessThan(items.length);
      await p
        .getByTestId('result-count')
        .filter({ hasText: `共 ${found.total} 款` })
        .waitFor(LONG);
      await p.getByTestId('filter-chips').getByRole('link', { name: '移除条件：搜索：卫衣' }).waitFor();
      for (const name of await cards(p).locator('.gname').allTextContents()) expect(name).toContain('卫衣');
      expect(await p.getByRole('searchbox', { name: '搜索商品' }).inputValue()).toBe('卫衣');
      await shots(p, 'h5-list-search', { screen: true });

      await p.getByRole('searchbox', { name: '搜索商品' }).fill('没有这种商品');
      await p.getByRole('button', { name: '搜索' }).click();
      const empty = p.getByTestId('empty-results');
      expect(await stateOf(empty)).toEqual({ title: '没有找到相关商品', hint: '换个关键词，或清除筛选条件再看看', actions: ['清除筛选', '返回首页'] });
      // Categories to try instead, when the keyword found nothing: links that lead somewhere.
      await expect(empty.getByTestId('search-suggestions').getByRole('link').count()).resolves.toBeGreaterThan(0);
      await expectAccessible(p, 'an empty result');
      await shots(p, 'h5-list-empty');
      await empty.getByRole('link', { name: '清除筛选' }).click();
      await p
        .getByTestId('result-count')
        .filter({ hasText: `共 ${items.length} 款` })
        .waitFor(LONG);
    } finally {
      await ctx.close();
    }
  });
});

describe('no broken phrases or empty blocks', () => {
  it('an unpriced product: 暂无报价 on its card and page, no 起, no empty selectors', async () => {
    const unpriced = items.find((i) => i.price === null);
    expect(unpriced).toBeDefined();
    const { ctx, p } = await phone();
    try {
      await p.goto(`/v2/h5/#/list?keyword=${encodeURIComponent(unpriced!.name)}`);
      const card = p.locator(`a[data-testid=good-card][href="#/goods/${unpriced!.goodId}"]`);
      await card.waitFor(LONG);
      expect(await card.locator('.price').textContent()).toBe('暂无报价');
      await card.click();
      const page = p.getByTestId('unpriced-detail');
      await page.waitFor(LONG);
      expect(await p.getByTestId('cell-price').textContent()).toBe('暂无报价');
      expect(await page.textContent()).toContain('这件商品还没有定价');
      expect(await p.locator('[data-testid^=sel-]').count()).toBe(0);
      expect(await bodyText(p)).not.toMatch(/暂无报价\s*起/);
      await expectAccessible(p, 'an unpriced product');
      await shots(p, 'h5-detail-unpriced');
    } finally {
      await ctx.close();
    }
  });

  it('categories word their counts: N 款 · ¥X 起, N 款, or 暂无商品', async () => {
    const { ctx, p } = await phone();
    try {
      await p.goto('/v2/h5/#/categories');
      await p.locator('.catbody h2').first().waitFor(LONG);
      for (const side of await p.locator('.cats-side button').all()) {
        await side.click();
        await until(
          () => side.getAttribute('aria-pressed'),
          (v) => expect(v).toBe('true'),
        );
        for (const t of await p.locator('.catbody small').allTextContents()) expect(t).toMatch(/^(\d+ 款 · ¥\d+\.\d{2} 起|\d+ 款|暂无商品)$/);
        expect(await bodyText(p)).not.toMatch(/暂无报价\s*起/);
      }
      await expectAccessible(p, 'categories');
      await shots(p, 'h5-categories');
    } finally {
      await ctx.close();
    }
  });

  /** A family with a 不打印 cell and a printed double-sided one. */
  const noPrintFamily = () => {
    const d = details.find((x) => x.priceMatrix.cells.some((c) => c.craft === '不打印') && x.priceMatrix.cells.some((c) => c.printCount === '双面印花' && c.craft !== '不打印'));
    expect(d).toBeDefined();
    return d!;
  };
  const pressed = (p: Page, dim: string) => p.getByTestId(`sel-${dim}`).locator('button[aria-pressed=true]').allTextContents();
  const address = (id: string, c: PublicCell) =>
    `/v2/h5/#/goods/${id}?${new URLSearchParams({ size: c.size, color: c.color, printCount: c.printCount, craft: c.craft, logistics: c.logistics })}`;

  it('不打印: no printing side shown as chosen, and a side tapped changes the craft visibly', async () => {
    const d = noPrintFamily();
    const cell = d.priceMatrix.cells.find((c) => c.craft === '不打印')!;
    expect(cell.printCount).toBe('单面印花'); // the matrix's placeholder, kept in the key
    const { ctx, p } = await phone();
    try {
      await p.goto(address(d.goodId, cell));
      await p
        .getByTestId('cell-price')
        .filter({ hasText: `¥${cell.price}` })
        .waitFor(LONG);
      expect(await pressed(p, 'craft')).toEqual(['不打印']);
      expect(await pressed(p, 'printCount')).toEqual([]);
      expect(await p.getByTestId('no-print-note').textContent()).toContain('不打印的款式不分印花面数');
      expect(await p.getByTestId('sel-printCount').locator('h2').textContent()).toBe('印花面数：无需选择（不打印）');
      await expectAccessible(p, 'a 不打印 product');
      await shots(p, 'h5-detail-no-print');

      await p.getByTestId('sel-printCount').getByRole('button', { name: '双面印花' }).click();
      await until(
        () => pressed(p, 'printCount'),
        (v) => expect(v).toEqual(['双面印花']),
      );
      const craft = (await pressed(p, 'craft'))[0]!;
      expect(craft).not.toBe('不打印');
      expect(await p.getByTestId('choice-notice').textContent()).toContain(`工艺换成「${craft}」`);
      expect(await p.getByTestId('no-print-note').count()).toBe(0);
      // The address follows the choice, so a shared link shows it again.
      expect(new URLSearchParams(p.url().split('?')[1]).get('printCount')).toBe('双面印花');
      await shots(p, 'h5-detail-no-print-side');
    } finally {
      await ctx.close();
    }
  });

  it('a tap that forces another choice says which; one that does not changes nothing else', async () => {
    const dims = ['size', 'color', 'craft', 'printCount', 'logistics'] as const;
    const label: Record<string, string> = { size: '尺码', color: '颜色', craft: '工艺', printCount: '印花面数', logistics: '物流' };
    const axis = { size: 'sizes', color: 'colors', craft: 'crafts', printCount: 'printCounts', logistics: 'logistics' } as const;
    // A printed cell and a size, colour or logistics value no cell has together with its other four.
    let forced: { d: PublicGoodDetail; cell: PublicCell; dim: (typeof dims)[number]; value: string } | undefined;
    let kept: typeof forced;
    for (const d of details) {
      const cells = d.priceMatrix.cells.filter((c) => c.craft !== '不打印');
      for (const cell of cells)
        for (const dim of ['size', 'color', 'logistics'] as const)
          for (const value of d.priceMatrix[axis[dim]]) {
            if (value === cell[dim]) continue;
            const withOthers = cells.some((c) => c[dim] === value && dims.every((o) => o === dim || c[o] === cell[o]));
            if (!withOthers && !forced && d.priceMatrix.cells.some((c) => c[dim] === value)) forced = { d, cell, dim, value };
            if (withOthers && !kept) kept = { d, cell, dim, value };
          }
    }
    expect(forced).toBeDefined();
    expect(kept).toBeDefined();
    const { ctx, p } = await phone();
    try {
      const shown = async () => Object.fromEntries(await Promise.all(dims.map(async (k) => [k, (await pressed(p, k))[0] ?? null] as const)));
      for (const [name, c] of [
        ['kept', kept!],
        ['forced', forced!],
      ] as const) {
        await p.goto(address(c.d.goodId, c.cell));
        await p
          .getByTestId('cell-price')
          .filter({ hasText: `¥${c.cell.price}` })
          .waitFor(LONG);
        const before = await shown();
        // A value that cannot keep the other choices says so before it is tapped.
        const button = p.getByTestId(`sel-${c.dim}`).getByRole('button', { name: name === 'kept' ? c.value : `${c.value}（需调整其他选项）`, exact: true });
        await button.click();
        await until(
          () => pressed(p, c.dim),
          (v) => expect(v).toEqual([c.value]),
        );
        const after = await shown();
        const changed = dims.filter((k) => k !== c.dim && before[k] !== after[k] && before[k] !== null && after[k] !== null);
        const notice = p.getByTestId('choice-notice');
        if (name === 'kept') {
          expect(changed).toEqual([]);
          expect(await notice.count()).toBe(0);
        } else {
          expect(changed.length).toBeGreaterThan(0);
          // Said under the group tapped, and to screen readers.
          expect(await p.getByTestId(`sel-${c.dim}`).getByTestId('choice-notice').count()).toBe(1);
          const said = (await notice.textContent()) ?? '';
          expect(await p.getByRole('status').filter({ hasText: said }).count()).toBe(1);
          for (const k of changed) expect(said).toContain(`${label[k]}换成「${after[k]}」`);
          await expectAccessible(p, 'a product after a forced change');
          await shots(p, 'h5-detail-forced');
        }
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('keyboard and accessibility', () => {
  interface Focused {
    testId: string | null;
    text: string;
    pressed: string | null;
    inDialog: boolean;
    outline: string;
  }
  const focused = (p: Page): Promise<Focused> =>
    p.evaluate(() => {
      const g = globalThis as unknown as {
        document: { activeElement: { getAttribute(n: string): string | null; textContent: string | null; closest(s: string): unknown } | null };
        getComputedStyle(e: unknown): { outlineStyle: string };
      };
      const a = g.document.activeElement;
      return {
        testId: a?.getAttribute('data-testid') ?? null,
        text: (a?.textContent ?? '').trim(),
        pressed: a?.getAttribute('aria-pressed') ?? null,
        inDialog: !!a?.closest('dialog'),
        outline: a ? g.getComputedStyle(a).outlineStyle : 'none',
      };
    });
  /** Presses Tab until the focused element satisfies `want` (at most `max` times). */
  async function tabTo(p: Page, want: (f: Focused) => boolean, max = 60): Promise<Focused> {
    for (let i = 0; i < max; i++) {
      await p.keyboard.press('Tab');
      const f = await focused(p);
      if (want(f)) return f;
    }
    throw new Error('the keyboard never reached it');
  }

  it('the list, its filter panel, a card and the product options work from the keyboard', async () => {
    const { ctx, p } = await phone();
    try {
      await p.goto('/v2/h5/#/list');
      await cards(p).first().waitFor(LONG);
      const sort = await tabTo(p, (f) => f.text === '价格↓');
      expect(sort.pressed).toBe('false');
      expect(sort.outline).not.toBe('none');
      await p.keyboard.press('Enter');
      await until(
        () => p.getByRole('button', { name: '价格从高到低' }).getAttribute('aria-pressed'),
        (v) => expect(v).toBe('true'),
      );
      await cards(p).first().waitFor(LONG);

      await tabTo(p, (f) => f.testId === 'open-filters');
      await p.keyboard.press('Enter');
      await p.getByTestId('filter-panel').waitFor();
      const option = await tabTo(p, (f) => f.inDialog && f.pressed === 'false');
      await p.keyboard.press('Space');
      await until(
        () => focused(p),
        (f) => expect(f).toMatchObject({ text: option.text, pressed: 'true', inDialog: true }),
      );
      // Focus stays in the panel.
      for (let i = 0; i < 80; i++) {
        await p.keyboard.press('Tab');
        expect((await focused(p)).inDialog).toBe(true);
      }
      await p.keyboard.press('Escape');
      await p.getByTestId('filter-panel').waitFor({ state: 'hidden' });
      expect((await focused(p)).testId).toBe('open-filters');

      await tabTo(p, (f) => f.testId === 'good-card');
      await p.keyboard.press('Enter');
      await p.getByTestId('h5-detail').waitFor(LONG);
      const choice = await tabTo(p, (f) => f.pressed === 'false');
      await p.keyboard.press('Enter');
      await until(
        () => focused(p),
        (f) => expect(f).toMatchObject({ text: choice.text, pressed: 'true' }),
      );
      await expectAccessible(p, 'a product');
      await shots(p, 'h5-detail');
    } finally {
      await ctx.close();
    }
  });

  it('categories and home from the keyboard', async () => {
    const { ctx, p } = await phone();
    try {
      await p.goto('/v2/h5/#/categories');
      await p.locator('.catbody h2').first().waitFor(LONG);
      const side = await tabTo(p, (f) => f.pressed === 'false');
      await p.keyboard.press('Enter');
      await until(
        () => focused(p),
        (f) => expect(f).toMatchObject({ text: side.text, pressed: 'true' }),
      );
      await until(
        () => p.locator('.catbody .all').textContent(),
        (t) => expect(t).toContain(`全部${side.text}`),
      );
      await tabTo(p, (f) => f.text.startsWith('全部'));
      await p.keyboard.press('Enter');
      await cards(p).first().waitFor(LONG);
      await p.getByTestId('filter-chips').waitFor();

      await p.goto('/v2/h5/');
      await cards(p).first().waitFor(LONG);
      await tabTo(p, (f) => f.text === '分类');
      await p.keyboard.press('Enter');
      await p.getByTestId('h5-categories').waitFor();
      expect(await p.getByRole('link', { name: '分类' }).getAttribute('aria-current')).toBe('page');
    } finally {
      await ctx.close();
    }
  });

  it.each([
    ['home', '/v2/h5/', '[data-testid=good-card]'],
    ['categories', '/v2/h5/#/categories', '.catbody h2'],
    ['list', '/v2/h5/#/list', '[data-testid=good-card]'],
    ['product', '', '[data-testid=sel-size]'],
  ])('axe finds nothing serious on %s, at both sizes', async (name, at, ready) => {
    const { ctx, p } = await phone();
    try {
      await p.goto(at || `/v2/h5/#/goods/${items[0]!.goodId}`);
      await p.locator(ready).first().waitFor(LONG);
      for (const size of [PHONE, DESKTOP]) {
        await p.setViewportSize(size);
        await expectAccessible(p, `${name} at ${size.width}×${size.height}`);
        expect({ page: name, width: size.width, ...(await sideways(p)) }).toEqual({ page: name, width: size.width, sideways: 0, outermost: [] });
      }
    } finally {
      await ctx.close();
    }
  });
});
