/**
 * A shared product link (`/v2/h5/goods/:goodId`, src/web-apps.ts) as an app that previews links
 * reads it, over real HTTP from a service with the demo catalog: the storefront page with the
 * product's name as its title and its name, price and picture as Open Graph tags, escaped; the shop's
 * generic preview, never a 500, for a good the shop does not show; the page's CSP and Cache-Control
 * as every page has them, and a rename shown on the very next request.
 */
import type { PublicGoodItem } from '../../../src/contract/storefront';
import { seedDemoCatalog } from '../../../src/sync/demo';
import { startTestService, type TestService } from '../../support/service';

jest.setTimeout(180_000);

let svc: TestService;
let items: PublicGoodItem[];

beforeAll(async () => {
  svc = await startTestService({ env: { H5_CONTACT_URL: 'tel:400-800-1234' } });
  await seedDemoCatalog(svc.services);
  items = ((await (await fetch(`${svc.url}/v2-api/public/goods?pageSize=100`)).json()) as { items: PublicGoodItem[] }).items;
});
afterAll(async () => {
  await svc?.close();
});

/** The page's head as a preview reads it: the title and every `<meta property|name=… content=…>`, unescaped. */
async function preview(path: string) {
  const r = await fetch(svc.url + path);
  const html = await r.text();
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const meta: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)) meta[m[1]!] = unescape(m[2]!);
  const titles = [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => unescape(m[1]!));
  return { status: r.status, headers: r.headers, html, meta, titles };
}

it("a product's link: its name as the title, and its name, price, picture and address as Open Graph tags", async () => {
  const g = items.find((i) => i.price !== null && i.image !== null)!;
  const p = await preview(`/v2/h5/goods/${g.goodId}`);
  expect(p.status).toBe(200);
  expect(p.titles).toEqual([g.name]);
  expect(p.meta).toMatchObject({
    'og:type': 'product',
    'og:site_name': '商城',
    'og:title': g.name,
    'og:description': `¥${g.price} 起`,
    description: `¥${g.price} 起`,
    'og:url': `${svc.url}/v2/h5/goods/${g.goodId}`,
    'og:image': new URL(g.image!, svc.url).href,
    'product:price:amount': g.price,
    'product:price:currency': 'CNY',
  });
  // Still the storefront's page, with what every page of it carries.
  expect(p.html).toContain('data-testid="boot-skeleton"');
  expect(p.meta['catalog-contact']).toBe('tel:400-800-1234');
  expect(p.headers.get('cache-control')).toBe('no-cache');
  expect(p.headers.get('content-security-policy')).toContain("script-src 'self'");
  // The tags are markup, no script: nothing the CSP would have to let through.
  expect(p.html).not.toMatch(/<script(?![^>]*\bsrc=)/);
  // WeChat adds its own query to a link shared in it: the same preview.
  const fromWeChat = await preview(`/v2/h5/goods/${g.goodId}?from=singlemessage&isappinstalled=0`);
  expect([fromWeChat.status, fromWeChat.titles, fromWeChat.meta['og:url']]).toEqual([200, [g.name], `${svc.url}/v2/h5/goods/${g.goodId}`]);
});

it('an unpriced product says 暂无报价 and names no price', async () => {
  const g = items.find((i) => i.price === null)!;
  const p = await preview(`/v2/h5/goods/${g.goodId}`);
  expect(p.titles).toEqual([g.name]);
  expect(p.meta['og:description']).toBe('暂无报价');
  expect(p.meta['product:price:amount']).toBeUndefined();
});

it("an unknown, malformed or non-public good gets the shop's generic preview with 200, not a 500", async () => {
  const link = (await svc.request('GET', '/origin-goods?pageSize=1')).body.items[0].id as string;
  for (const id of ['9000000000000000001', 'abc', '-1', '99999999999999999999999', link, '%E5%95%86']) {
    const p = await preview(`/v2/h5/goods/${id}`);
    expect([id, p.status, p.titles]).toEqual([id, 200, ['商城']]);
    expect(p.meta).toMatchObject({ 'og:type': 'website', 'og:title': '商城' });
    expect(p.meta['og:image']).toBeUndefined();
    expect(p.headers.get('cache-control')).toBe('no-cache');
  }
});

it('a rename shows in the preview on the very next request, escaped into the page', async () => {
  const g = items.find((i) => i.price !== null)!;
  await preview(`/v2/h5/goods/${g.goodId}`); // cached now
  const goods = (await svc.request('GET', `/goods?familyId=${g.goodId}&pageSize=100`)).body.items as { id: string }[];
  expect(goods.length).toBeGreaterThan(0);
  const name = `分享 "测试" <b>T恤</b> & 款`;
  for (const x of goods) expect((await svc.request('PATCH', `/goods/${x.id}`, { name })).status).toBe(200);
  const shown = ((await (await fetch(`${svc.url}/v2-api/public/goods/${g.goodId}`)).json()) as { name: string }).name;
  expect(shown).toContain('测试');
  const p = await preview(`/v2/h5/goods/${g.goodId}`);
  expect(p.titles).toEqual([shown]);
  expect(p.meta['og:title']).toBe(shown);
  // Nothing of the name became markup.
  expect(p.html).not.toContain('<b>');
});
