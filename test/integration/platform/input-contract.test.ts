/**
 * The HTTP contract for bad input and concurrent writes (docs/http-contract.md): text no query or
 * event may carry, values the storefront shows, money and numbers, references, writes from other
 * origins, and writes that race each other.
 */
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';

describe('bad input is a 4xx with a code; a write answers its own result', () => {
  let svc: TestService;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => svc.request(method, path, body, headers);
  const events = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
  const newGood = async (name: string, extra: Record<string, unknown> = {}) => {
    const r = await api('POST', '/goods', { name, ...extra });
    expect(r.status).toBe(201);
    return r.body as { id: string; revision: string; name: string };
  };

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
  });

  describe('NUL and lone surrogates', () => {
    it('in a public or admin query: 400 REQUEST.INVALID_TEXT naming the parameter', async () => {
      for (const path of ['/public/goods?keyword=%00', '/goods?keyword=a%00b', '/origin-goods?keyword=%00', '/product-families?keyword=%00']) {
        const r = await api('GET', path);
        expect([path, r.status, r.body.error]).toEqual([path, 400, expect.objectContaining({ code: 'REQUEST.INVALID_TEXT', details: { path: 'query.keyword' } })]);
      }
    });

    it('in any JSON text field, nested or in a batch: 400 naming where, and nothing is appended', async () => {
      const good = await newGood('文本检查 T1');
      const before = await events();
      const cases: [string, string, unknown, string][] = [
        ['POST', '/goods', { name: 'a\u0000b' }, 'body.name'],
        ['POST', '/goods', { name: 'ok', description: '\ud800' }, 'body.description'],
        ['PATCH', `/goods/${good.id}`, { tagFontColor: '\udc00#fff' }, 'body.tagFontColor'],
        ['POST', '/goods/batch', { goods: [{ name: 'ok' }, { name: 'x\u0000' }] }, 'body.goods.1.name'],
        ['POST', '/countries', { name: '国\u0000', code: 'QQ' }, 'body.name'],
        ['POST', '/tag-groups', { name: '\ud83d' }, 'body.name'],
      ];
      for (const [method, path, body, where] of cases) {
        const r = await api(method, path, body);
        expect([path, r.status, r.body.error]).toEqual([path, 400, expect.objectContaining({ code: 'REQUEST.INVALID_TEXT', details: { path: where } })]);
      }
      // A pair of surrogates is one character, and fine.
      expect((await api('PATCH', `/goods/${good.id}`, { name: '文本检查 😀' })).status).toBe(200);
      expect(await events()).toBe(before + 1);
    });

    it('in a path parameter: 400', async () => {
      const r = await api('GET', '/goods/1%00');
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('REQUEST.INVALID_TEXT');
    });
  });

  describe('values the storefront shows', () => {
    it("images: http(s) URLs or this service's uploads; anything else 400", async () => {
      for (const image of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', '//evil.example/x.png', 'x.png', 'https://a.example/"onerror=x']) {
        const r = await api('POST', '/goods', { name: '图片检查', image });
        expect([image, r.status, r.body.error?.code]).toEqual([image, 400, 'VALIDATION_FAILED']);
      }
      for (const image of [
        'https://img.example.com/a.png',
        'http://img.example.com:8080/a.jpg?v=1',
        '/uploads/0f8fad5b-d9cb-469f-a165-70867728950e.png',
        '/v2-api/uploads/0f8fad5b-d9cb-469f-a165-70867728950e.webp',
      ]) {
        const r = await api('POST', '/goods', { name: '图片检查', image });
        expect([image, r.status, r.body.image]).toEqual([image, 201, image]);
      }
    });

    it('colours are #rgb or #rrggbb; names must keep something visible', async () => {
      for (const tagFontColor of ['red;background:url(x)', '#fff"><script>', 'red', '#ff00ff00']) {
        expect((await api('POST', '/goods', { name: '颜色检查', tagFontColor })).status).toBe(400);
      }
      expect((await api('POST', '/goods', { name: '颜色检查', tagFontColor: '#0aF' })).body.tagFontColor).toBe('#0aF');
      for (const name of ['\u200b', ' \u200b\u200d\ufeff ', '\u2060']) {
        expect((await api('POST', '/goods', { name })).status).toBe(400);
        expect((await api('POST', '/tag-groups', { name })).status).toBe(400);
        expect((await api('POST', '/product-families', { name })).status).toBe(400);
      }
    });

    it('names are at most their documented maxLength as sent: white space around or inside does not stretch it', async () => {
      const tooLong: [string, string, Record<string, unknown>][] = [
        ['POST', '/categories', { name: `甲${' '.repeat(100)}乙` }], // folds to "甲 乙", but 102 characters were sent
        ['POST', '/tag-groups', { name: `${'组'.repeat(100)} ` }],
        ['POST', '/goods', { name: `${' '.repeat(150)}${'杯'.repeat(60)}` }], // trims to 60, but 210 were sent
        ['POST', '/product-families', { name: `${'族'.repeat(200)}\t` }],
      ];
      for (const [method, path, body] of tooLong) {
        const r = await api(method, path, body);
        expect([path, r.status, r.body.error.code, r.body.error.details?.[0]?.path]).toEqual([path, 400, 'VALIDATION_FAILED', 'name']);
      }
      expect((await api('POST', '/categories', { name: `${'类'.repeat(98)}  ` })).body.name).toBe('类'.repeat(98));
      expect((await api('POST', '/goods', { name: '杯'.repeat(200) })).status).toBe(201);
    });

    it('category icons follow the image rule, "" meaning none', async () => {
      expect((await api('POST', '/categories', { name: '图标检查', icon: 'relative.png' })).status).toBe(400);
      expect((await api('POST', '/categories', { name: '图标检查', icon: 'javascript:alert(1)' })).status).toBe(400);
      expect((await api('POST', '/categories', { name: '图标检查', icon: '' })).body.icon).toBeNull();
      expect((await api('POST', '/categories', { name: '图标检查 2', icon: 'https://img.example.com/i.png' })).body.icon).toBe('https://img.example.com/i.png');
    });
  });

  describe('money and numbers', () => {
    it('goodPriority is a 32-bit integer, never rounded', async () => {
      const good = await newGood('优先级检查');
      for (const goodPriority of [2.5, -2.5, 1e308, 2 ** 31, -(2 ** 31) - 1, '3']) {
        expect([goodPriority, (await api('PATCH', `/goods/${good.id}`, { goodPriority })).status]).toEqual([goodPriority, 400]);
      }
      // 18446744073709551616 as JSON text: a number far outside the range.
      const raw = await fetch(`${svc.url}/goods/${good.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${svc.adminToken}`, 'content-type': 'application/json' },
        body: '{"goodPriority": 18446744073709551616}',
      });
      expect(raw.status).toBe(400);
      expect((await api('PATCH', `/goods/${good.id}`, { goodPriority: -7 })).body.goodPriority).toBe(-7);
      expect((await api('PATCH', `/goods/${good.id}`, { goodPriority: 2 ** 31 - 1 })).body.goodPriority).toBe(2 ** 31 - 1);
    });
  });

  describe('references and country codes', () => {
    const unknown = '1125899906842627999';

    it('unknown category, country or tags on a good (batch too): 400 UNKNOWN_REFERENCE naming the field', async () => {
      const good = await newGood('引用检查');
      const before = await events();
      for (const [field, body] of [
        ['categoryId', { categoryId: unknown }],
        ['countryId', { countryId: unknown }],
        ['tagIds', { tagIds: [unknown] }],
      ] as const) {
        const patch = await api('PATCH', `/goods/${good.id}`, body);
        expect([field, patch.status, patch.body.error]).toEqual([field, 400, expect.objectContaining({ code: 'UNKNOWN_REFERENCE', details: { field, missing: [unknown] } })]);
        const create = await api('POST', '/goods', { name: '引用检查 2', ...body });
        expect(create.status).toBe(400);
      }
      const batch = await api('POST', '/goods/batch', { goods: [{ name: 'ok' }, { name: 'ok 2', categoryId: unknown }] });
      expect(batch.status).toBe(400);
      expect(batch.body.error).toMatchObject({ code: 'UNKNOWN_REFERENCE', details: { field: 'goods.1.categoryId' } });
      expect(await events()).toBe(before);
    });

    it('unknown goods on a position: 400 UNKNOWN_REFERENCE', async () => {
      const good = await newGood('位置引用检查');
      const r = await api('POST', '/positions', { name: '位置', goodIds: [good.id, unknown] });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'UNKNOWN_REFERENCE', details: { field: 'goodIds', missing: [unknown] } });
      expect((await api('POST', '/positions', { name: '位置', goodIds: [good.id] })).status).toBe(201);
    });

    it('a reference to nothing, in any body or query, is 400 UNKNOWN_REFERENCE naming the field and the id; the path’s own resource stays 404', async () => {
      // Links to refer to: the listing of the built-in supplier.
      expect((await (await svc.services.sync.start('origin_goods', { by: 'system:test' })).finished).state).toBe('succeeded');
      const link = (await svc.db.pool.query<{ id: string }>(`SELECT id::text FROM origin_goods ORDER BY id LIMIT 1`)).rows[0]!.id;
      const good = await newGood('引用统一');
      const family = (await api('POST', '/product-families', { name: '引用统一家族' })).body;
      const category = (await api('POST', '/categories', { name: '引用统一类目' })).body;
      const group = (await api('POST', '/tag-groups', { name: '引用统一组' })).body;
      const tag = (await api('POST', '/tags', { name: '引用统一标签', groupId: group.id })).body;
      const tags = { size: [], color: [], printCount: [], craft: [], logistics: [] };
      const before = await events();
      const refused: [string, string, unknown, string][] = [
        ['POST', '/goods', { originGoodId: unknown }, 'originGoodId'],
        ['PUT', `/goods/${good.id}/origins`, { secondaryOriginGoodIds: [link, unknown] }, 'secondaryOriginGoodIds'],
        ['POST', `/product-families/${family.id}/members`, { originGoodId: unknown }, 'originGoodId'],
        ['POST', `/product-families/${family.id}/custom-members`, { goodId: unknown, tags, price: '9.90' }, 'goodId'],
        ['POST', '/categories', { name: '无父类目', parentId: unknown }, 'parentId'],
        ['PATCH', `/categories/${category.id}`, { parentId: unknown }, 'parentId'],
        ['PATCH', '/categories/sort', { parentId: unknown, ids: [] }, 'parentId'],
        ['POST', '/tags', { name: '无组标签', groupId: unknown }, 'groupId'],
        ['PATCH', `/tags/${tag.id}`, { groupId: unknown }, 'groupId'],
        ['PUT', `/origin-goods/${link}/tags`, { tagIds: [tag.id, unknown] }, 'tagIds'],
        ['POST', '/sync/details', { linkId: unknown }, 'linkId'],
        ['POST', `/sync/details?linkId=${unknown}`, undefined, 'linkId'],
      ];
      for (const [method, path, body, field] of refused) {
        const r = await api(method, path, body);
        expect([method, path, r.status, r.body.error]).toEqual([method, path, 400, expect.objectContaining({ code: 'UNKNOWN_REFERENCE', details: { field, missing: [unknown] } })]);
      }
      expect(await events()).toBe(before);
      // The resource the path names is the 404's, each with its own code.
      for (const [method, path, body, code] of [
        ['GET', `/goods/${unknown}`, undefined, 'GOOD.NOT_FOUND'],
        ['PATCH', `/categories/${unknown}`, { name: '无' }, 'CATEGORY.NOT_FOUND'],
        ['POST', `/product-families/${unknown}/members`, { originGoodId: link }, 'FAMILY.NOT_FOUND'],
        ['PUT', `/origin-goods/${unknown}/tags`, { tagIds: [] }, 'ORIGIN_GOOD.NOT_FOUND'],
        ['POST', `/sync/origin-goods/${unknown}/detail`, undefined, 'ORIGIN_GOOD.NOT_FOUND'],
      ] as const) {
        const r = await api(method, path, body);
        expect([method, path, r.status, r.body.error?.code]).toEqual([method, path, 404, code]);
      }
      // Named rightly, the same writes go through.
      expect((await api('POST', `/product-families/${family.id}/members`, { originGoodId: link })).status).toBe(201);
      expect((await api('POST', '/goods', { originGoodId: link })).status).toBe(201);
    });

    it('country codes are two letters, stored upper-case, unique among live countries', async () => {
      const us = await api('POST', '/countries', { name: '美国', code: 'us' });
      expect(us.status).toBe(201);
      expect(us.body.code).toBe('US');
      const again = await api('POST', '/countries', { name: '美利坚', code: 'US' });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'COUNTRY.CODE_TAKEN', details: { countryId: us.body.id } });
      for (const code of ['<x>', 'USA', 'U', '1A']) expect([code, (await api('POST', '/countries', { name: 'x', code })).status]).toEqual([code, 400]);
      const other = (await api('POST', '/countries', { name: '加拿大', code: 'CA' })).body;
      expect((await api('PATCH', `/countries/${other.id}`, { code: 'us' })).status).toBe(409);
      // Deleted, the code is free again.
      expect((await api('DELETE', `/countries/${us.body.id}`)).status).toBe(204);
      expect((await api('PATCH', `/countries/${other.id}`, { code: 'us' })).body.code).toBe('US');
    });
  });

  describe('writes from another origin; bodies that are not JSON', () => {
    it('a write with a foreign Origin is 403; this origin, an allowed one or none passes', async () => {
      const good = await newGood('来源检查');
      const evil = await api('PATCH', `/goods/${good.id}`, { name: '来源检查 2' }, { origin: 'https://evil.example' });
      expect(evil.status).toBe(403);
      expect(evil.body.error.code).toBe('REQUEST.CROSS_ORIGIN');
      expect((await api('POST', '/auth/logout', undefined, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await api('PATCH', `/goods/${good.id}`, { name: '来源检查 3' }, { origin: svc.url })).status).toBe(200);
      // Same host and port on another scheme is this origin too (a TLS proxy in front).
      expect((await api('PATCH', `/goods/${good.id}`, { name: '来源检查 4' }, { origin: svc.url.replace('http:', 'https:') })).status).toBe(200);
      expect((await api('PATCH', `/goods/${good.id}`, { name: '来源检查 5' }, { origin: svc.url.replace(/:\d+$/, ':1') })).status).toBe(403);
      // Reads are not refused.
      expect((await api('GET', `/goods/${good.id}`, undefined, { origin: 'https://evil.example' })).status).toBe(200);
    });

    it('CORS_ORIGINS and, behind a trusted proxy, X-Forwarded-Host count as this origin', async () => {
      const other = await startTestService({ env: { CORS_ORIGINS: 'https://shop.example', TRUST_PROXY: 'true' } });
      try {
        const name = { name: '来源检查 P' };
        expect((await other.request('POST', '/goods', name, { origin: 'https://shop.example' })).status).toBe(201);
        expect((await other.request('POST', '/goods', name, { origin: 'https://evil.example' })).status).toBe(403);
        expect((await other.request('POST', '/goods', name, { origin: 'https://catalog.example', 'x-forwarded-host': 'catalog.example' })).status).toBe(201);
      } finally {
        await other.close();
      }
      // Without TRUST_PROXY the forwarded host is not believed.
      expect((await api('POST', '/goods', { name: 'x' }, { origin: 'https://catalog.example', 'x-forwarded-host': 'catalog.example' })).status).toBe(403);
    });

    it('a text/plain or form body on a JSON route is 415; a body-less POST still works', async () => {
      const good = await newGood('类型检查');
      const send = (path: string, body: string, type: string) =>
        fetch(svc.url + path, { method: 'POST', headers: { authorization: `Bearer ${svc.adminToken}`, 'content-type': type }, body });
      const before = await events();
      const plain = await send('/goods', '{"name":"类型检查 2"}', 'text/plain');
      expect(plain.status).toBe(415);
      expect(((await plain.json()) as { error: { code: string } }).error.code).toBe('REQUEST.UNSUPPORTED_MEDIA_TYPE');
      expect((await send('/auth/logout', 'a=b', 'application/x-www-form-urlencoded')).status).toBe(415);
      expect(await events()).toBe(before);
      const bare = await fetch(`${svc.url}/goods/${good.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${svc.adminToken}` } });
      expect(bare.status).toBe(204);
    });
  });

  describe('concurrent writes and revisions', () => {
    it('20 parallel PATCHes without If-Match all answer 200 with their own name; the last appended wins', async () => {
      const good = await newGood('并发 基础');
      const names = Array.from({ length: 20 }, (_, i) => `并发 名称${String(i).padStart(2, '0')}`);
      const answers = await Promise.all(names.map((name) => api('PATCH', `/goods/${good.id}`, { name })));
      expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));
      expect(answers.map((a) => a.body.name)).toEqual(names);
      const revisions = answers.map((a) => Number(a.body.revision));
      expect(new Set(revisions).size).toBe(20);
      const last = answers[revisions.indexOf(Math.max(...revisions))]!;
      expect((await api('GET', `/goods/${good.id}`)).body).toMatchObject({ name: last.body.name, revision: last.body.revision });
    });

    it('20 parallel price-override PUTs all answer 200 with their own price', async () => {
      const custom = await newGood('并发 定制');
      const family = (await api('POST', '/product-families', { name: '并发 家族' })).body;
      const tags = { size: ['M'], color: ['黑色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] };
      expect((await api('POST', `/product-families/${family.id}/custom-members`, { goodId: custom.id, tags, price: '20.00' })).status).toBe(201);
      const cell = { size: 'M', color: '黑色', printCount: '单面印花', craft: '直喷', logistics: '包邮' };
      const prices = Array.from({ length: 20 }, (_, i) => `11.${String(i + 1).padStart(2, '0')}`);
      const answers = await Promise.all(prices.map((price) => api('PUT', `/product-families/${family.id}/price-overrides`, { ...cell, price })));
      expect(answers.map((a) => a.status)).toEqual(prices.map(() => 200));
      expect(answers.map((a) => a.body.overrides)).toEqual(prices.map((price) => [{ ...cell, price }]));
      const after = (await api('GET', `/product-families/${family.id}`)).body;
      // The family shows its stream's revision: created, custom member, 20 overrides.
      expect(after.revision).toBe('21');
      const last = answers.find((a) => a.body.revision === '21')!;
      expect(after.overrides).toEqual(last.body.overrides);
    });

    it('money: prices positive with at most two decimals', async () => {
      const custom = await newGood('价格 定制');
      const family = (await api('POST', '/product-families', { name: '价格 家族' })).body;
      const tags = { size: ['L'], color: ['白色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] };
      for (const price of ['0.001', '12.3456', '0', '0.00', '-1', '1e3', '.5', 1]) {
        expect([price, (await api('POST', `/product-families/${family.id}/custom-members`, { goodId: custom.id, tags, price })).status]).toEqual([price, 400]);
      }
      expect((await api('POST', `/product-families/${family.id}/custom-members`, { goodId: custom.id, tags, price: '0.01' })).status).toBe(201);
      const cell = { size: 'L', color: '白色', printCount: '单面印花', craft: '直喷', logistics: '包邮' };
      for (const price of ['0.015', '0', '12.3456']) {
        expect((await api('PUT', `/product-families/${family.id}/price-overrides`, { ...cell, price })).status).toBe(400);
      }
      expect((await api('PUT', `/product-families/${family.id}/price-overrides`, { ...cell, price: '9.9' })).body.overrides).toEqual([{ ...cell, price: '9.90' }]);
    });

    it('with If-Match a stale revision is 409 naming the resource, on goods, families, origin goods and admin resources', async () => {
      const good = await newGood('修订 检查');
      const stale = { 'if-match': `"${good.revision}"` };
      expect((await api('PATCH', `/goods/${good.id}`, { name: '修订 检查 2' }, stale)).status).toBe(200);
      const conflict = await api('PATCH', `/goods/${good.id}`, { name: '修订 检查 3' }, stale);
      expect(conflict.status).toBe(409);
      expect(conflict.body.error).toMatchObject({ code: 'EVENT_STORE.WRONG_REVISION', details: { resource: `good ${good.id}`, expected: good.revision, actual: '1' } });
      expect(JSON.stringify(conflict.body)).not.toContain(`good-${good.id}`);
      expect((await api('DELETE', `/goods/${good.id}`, undefined, stale)).status).toBe(409);

      const family = (await api('POST', '/product-families', { name: '修订 家族' })).body;
      expect(family.revision).toBe('0');
      const renamed = await api('PATCH', `/product-families/${family.id}`, { name: '修订 家族 2' }, { 'if-match': '"0"' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.revision).toBe('1');
      expect(renamed.headers.get('etag')).toBe('"1"');
      const staleFamily = await api('PATCH', `/product-families/${family.id}`, { locked: true }, { 'if-match': '"0"' });
      expect(staleFamily.status).toBe(409);
      expect(staleFamily.body.error.details.resource).toBe(`family ${family.id}`);

      const tagGroup = (await api('POST', '/tag-groups', { name: '修订 组' })).body;
      expect((await api('PATCH', `/tag-groups/${tagGroup.id}`, { name: '修订 组 2' }, { 'if-match': '"0"' })).status).toBe(200);
      const staleGroup = await api('PATCH', `/tag-groups/${tagGroup.id}`, { name: '修订 组 3' }, { 'if-match': '"0"' });
      expect(staleGroup.status).toBe(409);
      expect(staleGroup.body.error.details.resource).toBe(`tag group ${tagGroup.id}`);
    });
  });
});
