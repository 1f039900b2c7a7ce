/**
 * The demo looks like a catalogue: `bin/catalog.js serve` as `npm start` runs it (fresh database,
 * the built-in simulator, no network beyond loopback), and Chromium at 1440×900 and 390×844 on the
 * storefront (home, list, a product's detail) and the admin (categories, a link's supplier detail, a
 * good). Every product picture and category icon on screen loads (a natural width, an answer of 200,
 * no failed request), from the service's own /demo-pictures/; the detail's pictures show the garment
 * in the colour chosen (a pixel of it read back through a canvas). Screenshots: test-results/demo-*.png.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { COLOUR_HEX } from '../../src/sync/simulator/pictures';
import { COLORS } from '../../src/sync/simulator/vocabulary';
import type { PublicGoodDetail } from '../../src/contract/storefront';
import { launchBrowser, shot } from '../support/browser';
import { startChildService, type ChildService } from '../support/child-service';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { freePort } from '../support/free-port';
import { ADMIN } from '../support/service';

jest.setTimeout(300_000);

const SIZES = [
  { name: '1440', viewport: { width: 1440, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
] as const;

let db: TestDatabase;
let svc: ChildService;
let browser: Browser;
/** where the service says browsers reach it, and where its pictures are */
let origin: string;

/** What an in-page predicate reads of an <img>. */
interface Picture {
  src: string;
  complete: boolean;
  naturalWidth: number;
  getBoundingClientRect(): { top: number; bottom: number; left: number; right: number; width: number };
}
interface Doc {
  document: { querySelectorAll(s: string): Iterable<Picture> };
  innerHeight: number;
  innerWidth: number;
}

/**
 * The demo's pictures whose address contains `pattern`, at least `min` of them, each loaded with a
 * natural width: those on screen (`onScreen`, the storefront's lazy pictures load there), or every one
 * on the page (the admin's load at once). Returns them, those on screen first in page order.
 */
async function picturesShown(page: Page, min: number, pattern: string, opts: { onScreen: boolean } = { onScreen: true }): Promise<{ src: string; naturalWidth: number }[]> {
  const found = await page.waitForFunction(
    ({ min, pattern, onScreen }) => {
      const { document, innerHeight, innerWidth } = globalThis as unknown as Doc;
      const shown = [...document.querySelectorAll('img')].filter((i) => {
        if (!i.src.includes(pattern)) return false;
        const r = i.getBoundingClientRect();
        return !onScreen || (r.width > 0 && r.top < innerHeight && r.bottom > 0 && r.left < innerWidth && r.right > 0);
      });
      const ready = shown.length >= min && shown.every((i) => i.complete && i.naturalWidth > 0);
      return ready && shown.map((i) => ({ src: i.src, naturalWidth: i.naturalWidth }));
    },
    { min, pattern, onScreen: opts.onScreen },
    { timeout: 60_000, polling: 100 },
  );
  return (await found.jsonValue()) as { src: string; naturalWidth: number }[];
}

/** The colour of the picture at `src` at a point of its 800 px canvas (the page's own origin: the canvas is readable). */
function pixelOf(page: Page, src: string, x: number, y: number): Promise<[number, number, number]> {
  return page.evaluate(
    ({ src, x, y }) =>
      new Promise<[number, number, number]>((resolve, reject) => {
        type Canvas = {
          width: number;
          height: number;
          getContext(k: '2d'): { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: number[] } };
        };
        const g = globalThis as unknown as {
          document: { createElement(t: 'canvas'): Canvas };
          Image: new () => { src: string; onload: () => void; onerror: () => void; naturalWidth: number };
        };
        const img = new g.Image();
        img.onload = () => {
          const canvas = g.document.createElement('canvas');
          canvas.width = canvas.height = img.naturalWidth;
          const ctx = canvas.getContext('2d');
          ctx.drawImage(img, 0, 0);
          const d = ctx.getImageData(x, y, 1, 1).data;
          resolve([d[0]!, d[1]!, d[2]!]);
        };
        img.onerror = () => reject(new Error(`${src} did not load`));
        img.src = src;
      }),
    { src, x, y },
  );
}

const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/** Every picture request of the page answered 200, none failed. */
function watchPictures(page: Page): { failures: string[] } {
  const failures: string[] = [];
  page.on('requestfailed', (r) => r.url().includes('/demo-pictures/') && failures.push(`${r.url()} failed: ${r.failure()?.errorText}`));
  page.on('response', (r) => r.url().includes('/demo-pictures/') && r.status() !== 200 && failures.push(`${r.url()} answered ${r.status()}`));
  return { failures };
}

beforeAll(async () => {
  db = await createTestDatabase();
  const port = await freePort();
  origin = `http://localhost:${port}`;
  svc = startChildService({
    PATH: process.env.PATH!,
    NODE_ENV: 'production',
    UPSTREAM_SIMULATOR: 'true',
    DATABASE_URL: db.url,
    JWT_SECRET: 'demo-pictures-secret-that-is-at-least-32-characters',
    HOST: '127.0.0.1',
    PORT: String(port),
    SIMULATOR_LINKS: '300',
    PROJECTION_POLL_MS: '50',
    // info: the line "demo ready" says when the catalogue is there
    LOG_LEVEL: 'info',
  });
  await svc.waitForLine(/demo ready/, 240_000);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (svc?.child.exitCode !== null) process.stderr.write(`the service exited early:\n${svc?.lines().slice(-40).join('\n')}\n`);
  await svc?.cleanUp();
  await db?.drop();
});

describe.each(SIZES)('the demo at $name px', ({ name, viewport }) => {
  let context: BrowserContext;
  let page: Page;
  let watched: { failures: string[] };

  beforeAll(async () => {
    context = await browser.newContext({ baseURL: origin, viewport, locale: 'zh-CN' });
    page = await context.newPage();
    watched = watchPictures(page);
  });
  afterAll(async () => {
    expect(watched.failures).toEqual([]);
    await context.close();
  });

  it('storefront home: category icons and product pictures', async () => {
    await page.goto('/v2/h5/');
    const shown = await picturesShown(page, 5, '/demo-pictures/');
    expect(shown.filter((p) => p.src.includes('/demo-pictures/icons/')).length).toBeGreaterThanOrEqual(3);
    expect(shown.filter((p) => p.src.includes('/demo-pictures/goods/')).length).toBeGreaterThanOrEqual(2);
    for (const p of shown) expect(p.src.startsWith(`${origin}/demo-pictures/`)).toBe(true);
    await shot(page, `demo-h5-home-${name}`);
  });

  it('storefront list', async () => {
    await page.goto('/v2/h5/#/list');
    await picturesShown(page, 2, '/demo-pictures/goods/');
    await shot(page, `demo-h5-list-${name}`);
  });

  it("storefront detail: the product's pictures in the colour chosen", async () => {
    const list = (await (await context.request.get('/v2-api/public/goods?pageSize=50')).json()) as { items: { goodId: string; image: string }[] };
    const tee = list.items.find((g) => /\/tee-[A-Z]{3}\.svg$/.test(g.image))!;
    const detail = (await (await context.request.get(`/v2-api/public/goods/${tee.goodId}`)).json()) as PublicGoodDetail;
    // two colours the matrix prices, each as a cell a link names (#/goods/<id>?size=…&color=…&…)
    const cells = Object.keys(detail.mediaByColor)
      .map((colour) => detail.priceMatrix.cells.find((c) => c.color === colour))
      .filter((c) => c !== undefined)
      .slice(0, 2);
    expect(cells.length).toBe(2);
    for (const [i, { price: _price, ...cell }] of cells.entries()) {
      const code = COLORS.find((c) => c.name === cell.color)!.code;
      // a fresh load: a change of the hash alone keeps the detail on the cell it has
      await page.goto('about:blank');
      await page.goto(`/v2/h5/#/goods/${tee.goodId}?${new URLSearchParams(cell).toString()}`);
      // the gallery shows this colour's pictures, the front first
      const [picture] = await picturesShown(page, 1, '/demo-pictures/media/');
      expect(picture!.src).toMatch(new RegExp(`/tee-${code}-1\\.svg$`));
      expect(picture!.naturalWidth).toBe(800);
      // the body of the tee, below its print: the colour of the variant
      const [r, g, b] = await pixelOf(page, picture!.src, 400, 600);
      const [er, eg, eb] = rgb(COLOUR_HEX[code]);
      expect([Math.abs(r - er), Math.abs(g - eg), Math.abs(b - eb)].every((d) => d <= 24)).toBe(true);
      await shot(page, `demo-h5-detail-${i + 1}-${name}`);
    }
  });

  it("admin: category icons, a link's supplier pictures, a good's picture", async () => {
    if (name === '1440') {
      // the first administrator, over the API (the sign-up screen is another test's)
      const post = (p: string) => context.request.post(p, { data: ADMIN, headers: { origin } });
      expect((await post('/auth/register')).status()).toBe(201);
    }
    expect((await context.request.post('/auth/login', { data: ADMIN, headers: { origin } })).status()).toBe(200);
    const everyOne = { onScreen: false };
    await page.goto('/admin/#/categories');
    await picturesShown(page, 3, '/demo-pictures/icons/', everyOne);
    await shot(page, `demo-admin-categories-${name}`);

    await page.goto('/admin/#/links');
    await page.getByTestId('link-row').first().click();
    await picturesShown(page, 2, '/demo-pictures/media/', everyOne);
    await page.getByTestId('link-media-image').first().scrollIntoViewIfNeeded();
    await shot(page, `demo-admin-link-${name}`);

    await page.goto('/admin/#/goods');
    await page.getByTestId('good-row').first().click();
    await picturesShown(page, 1, '/demo-pictures/goods/', everyOne);
    await page.getByTestId('good-image').scrollIntoViewIfNeeded();
    await shot(page, `demo-admin-good-${name}`);
  });
});
