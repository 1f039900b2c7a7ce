/**
 * The storefront's product page as something to share, and home as a way into the whole catalogue,
 * as a shopper on a phone meets them (test/support/browser.ts: a real service with the demo catalog,
 * Debian's Chromium): each page's own title (a product's is its name), a product opened at its own
 * address, the bottom bar's 分享 (the Web Share API where the browser has it, else the link copied
 * and said on screen) and 客服 (H5_CONTACT_URL; none without it), cards with at most three tags,
 * and home going on below its curated positions to the last good. axe-core on each, screenshots at
 * 390×844 and 1440×900 into test-results/ (`h5-share-<state>-390.png`, `…-1440.png`).
 */
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { PublicGoodItem } from '../../src/contract/storefront';
import { expectAccessible } from '../support/axe';
import { SHOTS, shot, sideways, startBrowserSession, until, type BrowserSession } from '../support/browser';
import { ADMIN } from '../support/service';

jest.setTimeout(300_000);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const LONG = { timeout: 60_000 };
const CONTACT = 'tel:400-800-1234';

let session: BrowserSession;
let items: PublicGoodItem[];

const pub = async <T = any>(p: string): Promise<T> => {
  const r = await fetch(`${session.svc.url}/v2-api${p}`);
  if (!r.ok) throw new Error(`GET ${p} → ${r.status}`);
  return (await r.json()) as T;
};

beforeAll(async () => {
  session = await startBrowserSession({ env: { H5_CONTACT_URL: CONTACT } });
  // The demo's families, once the storefront lists them (newest first, as home shows them).
  await until(
    () => pub<{ items: PublicGoodItem[]; total: number }>('/public/goods?pageSize=100&sort=NEWEST'),
    (all) => {
      expect(all.items.length).toBe(all.total);
      expect(all.items.filter((i) => i.price !== null && i.tags.length > 3).length).toBeGreaterThan(0);
      items = all.items;
    },
    120_000,
  );
});

/** The administrator's API over HTTP (registered and signed in on first use), for what a test arranges. */
let token: string | undefined;
async function admin(method: string, p: string, body?: unknown): Promise<any> {
  const url = session.svc.url;
  if (!token) {
    const post = (path: string) => fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    await post('/auth/register');
    const cookie = (await post('/auth/login')).headers.getSetCookie().find((c) => c.startsWith('svc_at='));
    token = cookie!.slice('svc_at='.length).split(';')[0]!;
  }
  const r = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} ${p} → ${r.status} ${await r.text()}`);
  return r.json();
}

afterAll(async () => {
  await session?.close();
});

async function phone(): Promise<{ ctx: BrowserContext; p: Page }> {
  const ctx = await session.browser.newContext({ baseURL: session.svc.url, viewport: PHONE, locale: 'zh-CN' });
  return { ctx, p: await ctx.newPage() };
}

/** Screenshots at both sizes, axe at both, and no sideways scrolling at either; back to the phone after. */
async function check(p: Page, name: string, opts: { screen?: boolean; at?: Locator } = {}): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await p.setViewportSize(size);
    await expectAccessible(p, `${name} at ${size.width}`);
    expect({ name, width: size.width, ...(await sideways(p)) }).toEqual({ name, width: size.width, sideways: 0, outermost: [] });
    if (opts.at) await opts.at.scrollIntoViewIfNeeded();
    if (opts.screen) await p.screenshot({ path: path.join(SHOTS, `h5-share-${name}-${size.width}.png`) });
    else await shot(p, `h5-share-${name}-${size.width}`);
  }
  await p.setViewportSize(PHONE);
}

const cards = (p: Page) => p.getByTestId('good-card');
const title = (p: Page, want: string) =>
  until(
    () => p.title(),
    (t) => expect(t).toBe(want),
  );

describe('titles', () => {
  it('each page has its own title; a product is called by its name', async () => {
    const { ctx, p } = await phone();
    try {
      await p.goto('/v2/h5/');
      await cards(p).first().waitFor(LONG);
      await title(p, '商城');
      await p.getByRole('link', { name: '分类', exact: true }).click();
      await p.locator('.catbody h2').first().waitFor(LONG);
      await title(p, '商品分类');
      await p.getByRole('link', { name: '全部商品', exact: true }).click();
      await cards(p).first().waitFor(LONG);
      await title(p, '全部商品');
      await p.getByRole('searchbox', { name: '搜索商品' }).fill('卫衣');
      await p.getByRole('button', { name: '搜索' }).click();
      await title(p, '搜索：卫衣');
      const first = cards(p).first();
      const name = (await first.locator('.gname').textContent())!;
      await first.click();
      await p.getByTestId('h5-detail').waitFor(LONG);
      await title(p, name);
      // Back: the list's title again, not the product's.
      await p.goBack();
      await cards(p).first().waitFor(LONG);
      await title(p, '搜索：卫衣');
      await p.goto('/v2/h5/#/goods/9000000000000000001');
      await p.getByTestId('gone-state').waitFor(LONG);
      await title(p, '商品已下架或不存在');
    } finally {
      await ctx.close();
    }
  });
});

describe('a product at its own address', () => {
  it('a shared link opens the product; its page came with the preview, the title is the name', async () => {
    const g = items.find((i) => i.price !== null && i.image !== null)!;
    const { ctx, p } = await phone();
    try {
      const answer = await p.goto(`/v2/h5/goods/${g.goodId}`);
      const html = await answer!.text();
      expect(html).toContain(`<meta property="og:title" content="${g.name}" />`);
      await p.getByTestId('h5-detail').waitFor(LONG);
      expect(await p.locator('.info h1').textContent()).toBe(g.name);
      await title(p, g.name);
      // The storefront's own addresses from here on: the same base as every other page.
      expect(new URL(p.url()).pathname).toBe('/v2/h5/');
      expect(new URL(p.url()).hash).toBe(`#/goods/${g.goodId}`);
      // From a shared link, 返回 goes home.
      await p.getByRole('button', { name: '返回上一页' }).click();
      await p.getByTestId('h5-home').waitFor(LONG);
      await title(p, '商城');
    } finally {
      await ctx.close();
    }
  });
});

describe('the bottom bar', () => {
  /** In the page before its script: a Web Share API that records what it was given (this Chromium has none). */
  const fakeShare = () => {
    const w = globalThis as unknown as { navigator: Record<string, unknown>; shared: unknown[] };
    w.shared = [];
    Object.defineProperty(w.navigator, 'share', {
      configurable: true,
      value: (data: unknown) => {
        w.shared.push(data);
        return Promise.resolve();
      },
    });
  };

  it('分享 hands the product to the system share sheet where the browser has one', async () => {
    const g = items.find((i) => i.price !== null)!;
    const { ctx, p } = await phone();
    try {
      await ctx.addInitScript(fakeShare);
      await p.goto(`/v2/h5/#/goods/${g.goodId}`);
      const bar = p.getByTestId('action-bar');
      await bar.getByRole('button', { name: '分享' }).click();
      await until(
        () => p.evaluate(() => (globalThis as unknown as { shared: unknown[] }).shared),
        (shared) => expect(shared).toEqual([{ title: g.name, text: `¥${g.price} 起`, url: `${session.svc.url}/v2/h5/goods/${g.goodId}` }]),
      );
      // The system's sheet says what happened; the page adds nothing.
      expect(await p.getByTestId('share-note').count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('without it, 分享 copies the link and says so; 客服 leads to the configured contact', async () => {
    const g = items.find((i) => i.price !== null && i.tags.length > 0)!;
    const { ctx, p } = await phone();
    try {
      await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.svc.url });
      await p.goto(`/v2/h5/#/goods/${g.goodId}`);
      const bar = p.getByTestId('action-bar');
      await bar.waitFor(LONG);
      expect(await p.evaluate(() => typeof (globalThis as unknown as { navigator: { share?: unknown } }).navigator.share)).toBe('undefined');
      expect(await bar.getByRole('link', { name: '客服' }).getAttribute('href')).toBe(CONTACT);
      await check(p, 'detail', { screen: true });
      await bar.getByRole('button', { name: '分享' }).click();
      const note = p.getByTestId('share-note');
      await note.filter({ hasText: '链接已复制，粘贴给好友即可分享' }).waitFor();
      expect(await note.getAttribute('role')).toBe('status');
      expect(await p.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(
        `${session.svc.url}/v2/h5/goods/${g.goodId}`,
      );
      await check(p, 'copied', { screen: true });
      // The bar never hides the end of the page: the last table or text can be scrolled above it.
      await p.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 1e6));
      const barTop = await bar.evaluate((el) => (el as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top);
      const lastBottom = await p
        .getByTestId('h5-detail')
        .locator(':scope > :not([data-testid=action-bar])')
        .last()
        .evaluate((el) => (el as unknown as { getBoundingClientRect(): { bottom: number } }).getBoundingClientRect().bottom);
      expect(lastBottom).toBeLessThanOrEqual(barTop + 1);
    } finally {
      await ctx.close();
    }
  });

  it('nothing can copy: the link is shown, selected, to copy by hand', async () => {
    const g = items[0]!;
    const { ctx, p } = await phone();
    try {
      // A WebView on an http page: no clipboard API, and the copy command refused.
      await ctx.addInitScript(() => {
        const w = globalThis as unknown as { navigator: object; document: { execCommand: unknown } };
        Object.defineProperty(w.navigator, 'clipboard', { configurable: true, value: undefined });
        w.document.execCommand = () => false;
      });
      await p.goto(`/v2/h5/#/goods/${g.goodId}`);
      await p.getByTestId('action-bar').getByRole('button', { name: '分享' }).click();
      const field = p.getByRole('textbox', { name: '复制不了，请长按下面的链接复制' });
      await field.waitFor();
      expect(await field.inputValue()).toBe(`${session.svc.url}/v2/h5/goods/${g.goodId}`);
      await check(p, 'manual', { screen: true });
    } finally {
      await ctx.close();
    }
  });

  it('no 客服 where none is configured', async () => {
    const { ctx, p } = await phone();
    try {
      // The page as a service without H5_CONTACT_URL serves it (test/integration/web/static.test.ts: no meta then).
      await p.route(
        (u) => u.pathname === '/v2/h5/',
        async (route) => {
          const r = await route.fetch();
          const html = (await r.text()).replace(/<meta name="catalog-contact"[^>]*>/, '');
          await route.fulfill({ response: r, body: html });
        },
      );
      await p.goto(`/v2/h5/#/goods/${items[0]!.goodId}`);
      const bar = p.getByTestId('action-bar');
      await bar.getByRole('button', { name: '分享' }).waitFor(LONG);
      expect(await bar.getByRole('link', { name: '客服' }).count()).toBe(0);
      await check(p, 'no-contact', { screen: true });
    } finally {
      await ctx.close();
    }
  });
});

describe('cards and home', () => {
  it('a card shows at most three tags, and how many more', async () => {
    const many = items.find((i) => i.tags.length > 3);
    const { ctx, p } = await phone();
    try {
      await p.goto('/v2/h5/#/list');
      await cards(p).first().waitFor(LONG);
      for (const card of await cards(p).all()) expect(await card.locator('.gtag:not(.gtag-more)').count()).toBeLessThanOrEqual(3);
      expect(many).toBeDefined();
      await p.goto(`/v2/h5/#/list?keyword=${encodeURIComponent(many!.name)}`);
      const card = p.locator(`a[data-testid=good-card][href="#/goods/${many!.goodId}"]`);
      await card.waitFor(LONG);
      expect(await card.locator('.gtag:not(.gtag-more)').allTextContents()).toEqual(many!.tags.slice(0, 3).map((t) => t.name));
      expect(await card.getByTestId('more-tags').textContent()).toBe(`+${many!.tags.length - 3}`);
      expect(await card.getByTestId('good-tags').locator('.sr-only').textContent()).toBe(`另有 ${many!.tags.length - 3} 个标签`);
      // One line of chips, each as tall as its text: none stretched, none cut off.
      const heights = await card
        .locator('.gtag')
        .evaluateAll((els) => els.map((e) => (e as unknown as { getBoundingClientRect(): { height: number; top: number } }).getBoundingClientRect()));
      expect(new Set(heights.map((h) => Math.round(h.top))).size).toBe(1);
      await check(p, 'tags', { screen: true, at: card });
      expect(heights.map((h) => h.height)).toEqual(heights.map(() => expect.any(Number)));
      for (const h of heights) expect(h.height).toBeLessThan(24);
    } finally {
      await ctx.close();
    }
  });

  it('home goes on below the curated positions to the last good, then offers a way on', async () => {
    const { ctx, p } = await phone();
    try {
      // No position curated yet (the demo has none): the newest goods, and they go on too.
      await p.goto('/v2/h5/');
      const all = p.getByTestId('home-all');
      await all.getByRole('heading', { name: '新品推荐' }).waitFor(LONG);
      expect(await all.getByTestId('good-card').count()).toBe(20);
      // A position curated by the merchant: the whole catalogue goes on below it.
      const placed = items.slice(3, 7);
      const goodIds = await Promise.all(placed.map(async (g) => (await admin('GET', `/goods?familyId=${g.goodId}&pageSize=1`)).items[0].id as string));
      await admin('POST', '/positions', { name: '本周推荐', goodIds });
      await until(
        () => pub<{ positions: { name: string; items: unknown[] }[] }>('/public/home'),
        (home) => expect(home.positions.map((x) => [x.name, x.items.length])).toEqual([['本周推荐', placed.length]]),
      );
      await p.goto('/v2/h5/#/');
      const position = p.getByRole('region', { name: '本周推荐' });
      await position
        .getByTestId('good-card')
        .nth(placed.length - 1)
        .waitFor(LONG);
      await all.getByRole('heading', { name: '全部商品' }).waitFor(LONG);
      // Below the curated positions.
      expect(await p.locator('section h2').allTextContents()).toEqual(['本周推荐', '全部商品']);
      const footer = p.getByTestId('home-footer');
      const end = footer.getByText(`共 ${items.length} 款，已经到底了`);
      for (let i = 0; i < 50 && !(await end.isVisible()); i++) {
        await footer.scrollIntoViewIfNeeded();
        await p.mouse.wheel(0, 2000);
        await until(
          () => p.getByText('正在加载更多商品').count(),
          (n) => expect(n).toBe(0),
        );
      }
      await end.waitFor();
      // Every good once, newest first.
      const hrefs = await all.getByTestId('good-card').evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string }).getAttribute('href')));
      expect(hrefs).toEqual(items.map((g) => `#/goods/${g.goodId}`));
      await footer.getByRole('link', { name: '按分类找' }).waitFor();
      await footer.getByRole('link', { name: '搜索与筛选' }).waitFor();
      await check(p, 'home-end', { screen: true, at: footer });
      // Back from a product deep in the list: the pages loaded, where they were.
      const deep = all.getByTestId('good-card').nth(items.length - 2);
      await deep.click();
      await p.getByTestId('h5-detail').waitFor(LONG);
      await p.goBack();
      await end.waitFor(LONG);
      expect(await all.getByTestId('good-card').count()).toBe(items.length);
    } finally {
      await ctx.close();
    }
  });
});
