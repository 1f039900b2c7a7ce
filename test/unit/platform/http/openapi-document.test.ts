/**
 * What the OpenAPI document tells a client (src/platform/http/openapi.ts, src/openapi.ts): every
 * answer's body from the wire contract, the errors as the Error schema, each operation's real
 * statuses and headers, and the constraints the service enforces, in patterns a JSON Schema
 * validator reads as the service does.
 */
import fc from 'fast-check';
import { apiDocument } from '../../../../src/openapi';
import { registerBody } from '../../../../src/auth/requests';
import { priceField, imageField, visibleName, isImageUrl, hasVisibleText } from '../../../../src/platform/http/fields';
import { decimalsUpTo, isInt64 } from '../../../../src/platform/ids';
import { expectedRevisionOf } from '../../../../src/platform/http/revision';
import { nameField } from '../../../../src/catalog/request-fields';
import { listGoodsQuery } from '../../../../src/catalog/goods/requests';
import { listLinksQuery } from '../../../../src/catalog/links/requests';
import { publicGoodsQuery } from '../../../../src/storefront/requests';
import { MAX_TAG_FILTER } from '../../../../src/catalog/domain/ordering';
import { answerMismatch } from '../../../support/openapi-check';
import { ERROR_CODES, type ErrorCode } from '../../../../src/platform/error-codes';

type Op = { operationId: string; parameters?: any[]; responses: Record<string, any>; requestBody?: any; security?: unknown };
const doc = JSON.parse(JSON.stringify(apiDocument(''))) as {
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, any> };
};
const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method, path, op })));
const op = (key: string) => ops.find((o) => o.key === key)!.op;
const json = (r: any) => r?.content?.['application/json']?.schema;
/** The codes an operation lists for a status (its Error schema narrowed to them). */
const codesOf = (o: Op, status: string): string[] => json(o.responses[status])?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [];
/** A JSON Schema pattern as a validator reads it (ECMA-262, Unicode). */
const pattern = (p: string) => new RegExp(p, 'u');

describe('the OpenAPI document', () => {
  it('describes every success with a schema of the wire contract, never a bare object', () => {
    expect(ops.length).toBeGreaterThan(90);
    const thin = ops.flatMap(({ key, op }) =>
      Object.entries(op.responses)
        .filter(([s, r]) => /^2/.test(s) && json(r) && !json(r).$ref && !json(r).properties && !json(r).anyOf && !json(r).oneOf && !json(r).additionalProperties)
        .map(([s]) => `${key} ${s}`),
    );
    expect(thin).toEqual([]);
    expect(json(op('GET /goods/{id}').responses['200'])).toEqual({ $ref: '#/components/schemas/Good' });
    expect(json(op('GET /public/goods/{goodId}').responses['200'])).toEqual({ $ref: '#/components/schemas/PublicGoodDetail' });
  });

  it('answers every error with the Error schema, its code held to the codes of that status, and no `default`', () => {
    for (const { key, op } of ops) {
      expect({ key, default: op.responses.default }).toEqual({ key, default: undefined });
      for (const [status, r] of Object.entries(op.responses)) {
        if (Number(status) < 400 || key === 'GET /readyz' || key === 'POST /sync/origin-goods/{id}/detail') continue;
        const codes = codesOf(op, status);
        // The shared Error, narrowed to codes the registry gives this very status, each described.
        expect({ key, status, ref: json(r).allOf[0] }).toEqual({ key, status, ref: { $ref: '#/components/schemas/Error' } });
        expect({ key, status, codes: codes.length > 0 }).toEqual({ key, status, codes: true });
        expect({ key, status, wrong: codes.filter((c) => ERROR_CODES[c as ErrorCode]?.status !== Number(status)) }).toEqual({ key, status, wrong: [] });
        for (const c of codes) expect(r.description).toContain(`\`${c}\`: ${ERROR_CODES[c as ErrorCode].description}`);
      }
    }
    // The writes: another origin (403), a body that is not JSON (415) or too large (413); a reused key (422).
    expect(Object.keys(op('PATCH /goods/{id}').responses)).toEqual(['200', '202', '400', '401', '403', '404', '409', '413', '415', '422', '500', '503']);
    expect(codesOf(op('POST /auth/register'), '403')).toEqual(['REQUEST.CROSS_ORIGIN', 'AUTH.REGISTRATION_CLOSED']);
    expect(codesOf(op('POST /auth/login'), '415')).toEqual(['UNSUPPORTED_ENCODING', 'REQUEST.UNSUPPORTED_MEDIA_TYPE']);
    expect(codesOf(op('POST /countries'), '409')).toContain('COUNTRY.CODE_TAKEN');
    expect(codesOf(op('GET /public/goods/{goodId}'), '404')).toEqual(['PUBLIC_GOOD.NOT_FOUND']);
    expect(codesOf(op('GET /goods/{id}'), '404')).toEqual(['GOOD.NOT_FOUND']);
    // Each operation its own: a read of goods has no idempotency key, a write of goods no PUBLIC_GOOD.NOT_FOUND.
    expect(codesOf(op('GET /goods'), '409')).toEqual([]);
    expect(codesOf(op('PATCH /goods/{id}'), '409')).toEqual(['IDEMPOTENCY.IN_PROGRESS', 'EVENT_STORE.WRONG_REVISION', 'EVENT_STORE.BUSY', 'LOCK.BUSY']);
    expect(codesOf(op('PATCH /goods/{id}'), '400')).toEqual(expect.arrayContaining(['UNKNOWN_REFERENCE', 'INVALID_IF_MATCH', 'IDEMPOTENCY.BAD_KEY', 'MALFORMED_JSON']));
    // A reference in the body is a 400, never the 404 of the path's resource.
    for (const key of [
      'POST /goods',
      'PUT /goods/{id}/origins',
      'POST /product-families/{id}/members',
      'POST /product-families/{id}/custom-members',
      'POST /tags',
      'PATCH /categories/sort',
      'POST /sync/details',
      'PUT /origin-goods/{id}/tags',
    ]) {
      expect({ key, codes: codesOf(op(key), '400') }).toEqual({ key, codes: expect.arrayContaining(['UNKNOWN_REFERENCE']) });
      expect({
        key,
        notFound: codesOf(op(key), '404').filter((c) => ['ORIGIN_GOOD.NOT_FOUND', 'GOOD.NOT_FOUND', 'CATEGORY.NOT_FOUND'].includes(c) && !/\{id\}/.test(key)),
      }).toEqual({ key, notFound: [] });
    }
    expect(codesOf(op('POST /goods'), '404')).toEqual([]);
    // A 500 is INTERNAL, whatever raised it.
    for (const { op: o } of ops) expect(codesOf(o, '500')).toEqual(['INTERNAL']);
    // Reads take no body: no 413 nor 415; the health checks need no database: no 503.
    expect(op('GET /goods').responses['415']).toBeUndefined();
    expect(op('GET /healthz').responses['503']).toBeUndefined();
  });

  it('declares what /metrics requires: the scrape token as a bearer token', () => {
    const metrics = op('GET /metrics');
    expect(metrics.security).toEqual([{ scrapeToken: [] }]);
    expect(doc.components.securitySchemes.scrapeToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(codesOf(metrics, '401')).toEqual(['METRICS.UNAUTHORIZED']);
    expect(op('GET /healthz').security).toBeUndefined();
  });

  it('names the headers clients rely on: ETag, Cache-Control, Set-Cookie, Retry-After, If-None-Match, the refresh cookie', () => {
    expect(op('GET /goods/{id}').responses['200'].headers.ETag.required).toBe(true);
    // A write's answer replayed for its Idempotency-Key has the first body and status, not its headers.
    expect(op('PATCH /goods/{id}').responses['200'].headers).toEqual({ ETag: expect.not.objectContaining({ required: true }), 'Idempotent-Replayed': expect.anything() });
    const list = op('GET /public/goods');
    expect(Object.keys(list.responses['200'].headers)).toEqual(['ETag', 'Cache-Control']);
    expect(list.responses['304']).toBeDefined();
    expect(list.parameters!.some((p) => p.in === 'header' && p.name === 'If-None-Match')).toBe(true);
    expect(op('POST /auth/login').responses['200'].headers['Set-Cookie'].description).toMatch(/svc_at.*svc_rt/);
    expect(op('POST /auth/logout').responses['204'].headers['Set-Cookie']).toBeDefined();
    expect(op('POST /auth/refresh').parameters).toContainEqual(expect.objectContaining({ in: 'cookie', name: 'svc_rt', required: true }));
    expect(op('POST /auth/login').responses['429'].headers['Retry-After'].required).toBe(true);
    expect(op('GET /goods').responses['503'].headers['Retry-After'].required).toBe(true);
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
  });

  it('says the username rule as a pattern a valid username matches (no regular expression flag in it)', () => {
    const username = doc.paths['/auth/register']!.post!.requestBody.content['application/json'].schema.properties.username;
    expect(username.pattern).not.toMatch(/\/[a-z]*$/);
    for (const name of ['admin', 'ops.team_1', 'jane@example.com', '管理员', 'Zoë-2']) {
      expect(registerBody.shape.username.safeParse(name).success).toBe(true);
      expect(pattern(username.pattern).test(name)).toBe(true);
    }
    for (const name of ['no spaces', 'semi;colon']) expect(pattern(username.pattern).test(name)).toBe(false);
  });

  it('bounds ids to 64 bits, as parseId does', () => {
    const id = op('GET /goods/{id}').parameters!.find((p) => p.in === 'path').schema.pattern as string;
    fc.assert(fc.property(fc.oneof(fc.bigInt({ min: 0n, max: 1n << 64n }).map(String), fc.stringMatching(/^[0-9]{1,21}$/)), (v) => pattern(id).test(v) === isInt64(v)));
    for (const v of ['0', '9223372036854775807']) expect(pattern(id).test(v)).toBe(true);
    for (const v of ['9223372036854775808', '10000000000000000000', '01', '-1']) expect(pattern(id).test(v)).toBe(false);
    expect(decimalsUpTo('120')).toBe('^(?:0|[1-9]\\d{0,1}|1[0-1]\\d{1}|120)$');
  });

  it('says what names, images and prices the service takes', () => {
    const good = doc.paths['/goods']!.post!.requestBody.content['application/json'].schema.properties;
    const name = pattern(good.name.pattern);
    for (const v of ['Mug', ' a ', '\u200b\u200bx', '杯']) expect([v, name.test(v)]).toEqual([v, hasVisibleText(v)]);
    for (const v of ['\u200b', '  ', '\u00ad\u2060']) expect([v, name.test(v)]).toEqual([v, false]);
    expect(visibleName(5).safeParse('\u200b').success).toBe(false);

    const image = pattern(good.image.pattern);
    const images = [
      'https://cdn.example.com/a.png',
      'http://h/x?y=1',
      '/uploads/0f8fad5b-d9cb-469f-a165-70867728950e.png',
      '/v2-api/uploads/0f8fad5b-d9cb-469f-a165-70867728950e.webp',
    ];
    const refused = ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'https://user:pw@h/x', '//h/x', 'https://h/a b', 'ftp://h/x', '/uploads/../x.png'];
    for (const v of [...images, ...refused]) expect([v, image.test(v)]).toEqual([v, isImageUrl(v)]);
    expect(imageField().safeParse('javascript:alert(1)').success).toBe(false);

    const price = pattern(doc.paths['/product-families/{id}/price-overrides']!.put!.requestBody.content['application/json'].schema.properties.price.pattern);
    for (const v of ['12.50', '0.01', '1', '0', '0.00', '00', '-1', '1.234', '.5']) expect([v, price.test(v)]).toEqual([v, priceField().safeParse(v).success]);
  });
});

describe('the document says exactly what the service accepts', () => {
  /** Whether a schema, as the document gives it, admits a string (a JSON Schema validator's reading of pattern and lengths). */
  const admits = (schema: { pattern?: string; maxLength?: number; minLength?: number }, v: string) =>
    (schema.pattern === undefined || pattern(schema.pattern).test(v)) && [...v].length <= (schema.maxLength ?? Infinity) && [...v].length >= (schema.minLength ?? 0);
  const queryParam = (key: string, name: string) => op(key).parameters!.find((p) => p.in === 'query' && p.name === name).schema;
  const bodyProp = (key: string, name: string) => op(key).requestBody.content['application/json'].schema.properties[name];

  it('types id lists (`tagIds=1,2`) with the pattern of what the query parser takes', () => {
    const id = fc.oneof(fc.bigInt({ min: 0n, max: (1n << 63n) + 5n }).map(String), fc.constantFrom('01', '-1', 'x', '', '1 2', '1.5'));
    const space = fc.constantFrom('', ' ', '\t', '\u00a0', '\ufeff');
    const list = fc
      .array(
        fc.tuple(space, id, space).map((p) => p.join('')),
        { maxLength: 4 },
      )
      .map((parts) => parts.join(','));
    for (const [key, name, parse] of [
      ['GET /public/goods', 'tagIds', publicGoodsQuery.shape.tagIds],
      ['GET /goods', 'tagIds', listGoodsQuery.shape.tagIds],
      ['GET /goods', 'ids', listGoodsQuery.shape.ids],
      ['GET /origin-goods', 'ids', listLinksQuery.shape.ids],
    ] as const) {
      const schema = queryParam(key, name);
      expect(schema.type).toBe('string');
      fc.assert(fc.property(list, (v) => admits(schema, v) === parse.safeParse(v).success));
      for (const v of ['1,2', ' 1 , 2 ', '', ' ']) expect([key, name, v, admits(schema, v)]).toEqual([key, name, v, true]);
      for (const v of ['1,,2', ',', '1;2', 'a', '9223372036854775808']) expect([key, name, v, admits(schema, v)]).toEqual([key, name, v, false]);
    }
    // The count is part of it: MAX_TAG_FILTER tags, 1000 ids.
    const tags = queryParam('GET /public/goods', 'tagIds');
    expect(admits(tags, Array.from({ length: MAX_TAG_FILTER }, (_, i) => String(i)).join(','))).toBe(true);
    expect(admits(tags, Array.from({ length: MAX_TAG_FILTER + 1 }, (_, i) => String(i)).join(','))).toBe(false);
  });

  it('types If-Match as the revision the service reads, quoted, weak or bare, or `*`', () => {
    const ifMatch = op('PATCH /goods/{id}').parameters!.find((p) => p.in === 'header' && p.name === 'If-Match').schema;
    const read = (v: string) => {
      try {
        expectedRevisionOf({ headers: { 'if-match': v } } as never);
        return true;
      } catch {
        return false;
      }
    };
    const values = fc.oneof(
      fc
        .tuple(fc.constantFrom('', ' ', 'W/', 'w/'), fc.constantFrom('', '"'), fc.stringMatching(/^\d{0,21}$/), fc.constantFrom('', '"'), fc.constantFrom('', ' '))
        .map((p) => p.join('')),
      fc.constantFrom('*', ' * ', '**', 'W/*', '"3", "4"', 'abc'),
    );
    fc.assert(fc.property(values, (v) => admits(ifMatch, v) === read(v)));
    for (const v of ['"3"', '3', 'W/"3"', '*']) expect([v, admits(ifMatch, v)]).toEqual([v, true]);
    for (const v of ['x', '""', '"3", "4"', 'W/*']) expect([v, admits(ifMatch, v)]).toEqual([v, false]);
  });

  it('bounds every name with the maxLength the service enforces, on the text as sent', () => {
    const named = [
      'POST /goods',
      'PATCH /goods/{id}',
      'POST /product-families',
      'POST /categories',
      'PATCH /categories/{id}',
      'POST /countries',
      'POST /tags',
      'PATCH /tags/{id}',
      'POST /tag-groups',
      'POST /positions',
      'PATCH /positions/{id}',
    ];
    const limits = Object.fromEntries(named.map((key) => [key, bodyProp(key, 'name').maxLength]));
    expect(limits).toEqual({
      'POST /goods': 200,
      'PATCH /goods/{id}': 200,
      'POST /product-families': 200,
      'POST /categories': 100,
      'PATCH /categories/{id}': 100,
      'POST /countries': 100,
      'POST /tags': 100,
      'PATCH /tags/{id}': 100,
      'POST /tag-groups': 100,
      'POST /positions': 100,
      'PATCH /positions/{id}': 100,
    });
    // Whatever the white space and invisible characters, the document and the check agree.
    const text = fc.array(fc.constantFrom('a', ' ', '  ', '\u200b', '杯', '\t'), { maxLength: 120 }).map((a) => a.join(''));
    const category = bodyProp('POST /categories', 'name');
    const good = bodyProp('POST /goods', 'name');
    fc.assert(
      fc.property(text, (v) => {
        expect([v, admits(category, v)]).toEqual([v, nameField(100).safeParse(v).success]);
        expect([v, admits({ ...good, maxLength: 100 }, v)]).toEqual([v, visibleName(100).safeParse(v).success]);
      }),
    );
    // The cells of a price override are bounded too.
    for (const k of ['size', 'color', 'printCount', 'craft', 'logistics']) expect(bodyProp('PUT /product-families/{id}/price-overrides', k).maxLength).toBe(500);
  });

  it('says the image rule as the pattern the service checks: every URL it admits, the service takes, and only those', () => {
    const image = bodyProp('POST /goods', 'image');
    const hostChars = fc.constantFrom(...'aZ09._-:@[]^|%{}~xn'.split(''), 'xn--', '256', '.1', ':99999', ':0');
    const url = fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', '//'),
        fc.array(hostChars, { maxLength: 12 }).map((a) => a.join('')),
        fc.constantFrom('', '/a.png', '?x=1', '#f', '/a b'),
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(url, (v) => expect([v, admits(image, v)]).toEqual([v, isImageUrl(v)])),
      { numRuns: 5000 },
    );
    // Hosts a URL parser refuses, which the document once admitted: the document refuses them now.
    for (const v of [
      'http://a^b/x.png',
      'http://a|b/x.png',
      'http://xn--a/x.png',
      'http://a.123/x.png',
      'http://256.1.1.1/x.png',
      'http://h:99999/x.png',
      'http://:80/x.png',
      'http://a%41b/x.png',
    ]) {
      expect([v, admits(image, v), isImageUrl(v)]).toEqual([v, false, false]);
    }
    for (const v of ['http://127.0.0.1:3000/demo-pictures/a.svg', 'https://img.example.com./a.png', 'http://cdn_1.example.com/x'])
      expect([v, admits(image, v), isImageUrl(v)]).toEqual([v, true, true]);
  });
});

describe('the integration tests’ check of every answer against the document (test/support/openapi-check.ts)', () => {
  const jsonHeaders = (extra: Record<string, string> = {}) => new Headers({ 'content-type': 'application/json; charset=utf-8', ...extra });
  const answer = (status: number, body: unknown, extra: Record<string, string> = {}) => ({
    status,
    headers: jsonHeaders(extra),
    text: body === undefined ? '' : JSON.stringify(body),
  });
  const node = { id: '1', name: 'T', icon: null, sortOrder: 1, familyCount: 2, lowestPrice: '3.00', children: [] };

  it('passes what the document describes, under any prefix and the /v2-api alias', () => {
    expect(answerMismatch('', 'GET', '/goods/tree', answer(200, { items: [] }))).toBeNull();
    expect(
      answerMismatch('/api', 'GET', '/v2-api/public/categories/tree?x=1', answer(200, { items: [{ ...node, children: [node] }] }, { etag: '"a"', 'cache-control': 'public' })),
    ).toBeNull();
    expect(answerMismatch('', 'GET', '/public/home', { status: 304, headers: new Headers({ etag: '"a"', 'cache-control': 'public' }), text: '' })).toBeNull();
    expect(answerMismatch('', 'POST', '/auth/login', answer(415, { error: { code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE', message: 'send JSON' } }))).toBeNull();
    // Not an operation: not checked.
    expect(answerMismatch('', 'GET', '/no/such/route', answer(404, { error: { code: 'NOT_FOUND', message: 'x' } }))).toBeNull();
  });

  it('names an undocumented status, a body off its schema, a missing header, a body where none is described', () => {
    expect(answerMismatch('', 'GET', '/goods/123', answer(418, {}))).toMatch(/GET \/goods\/123 → 418 .*lists 200, 400/);
    expect(answerMismatch('', 'GET', '/goods/tree', answer(200, { itemz: [] }))).toMatch(/does not match.*items/);
    expect(
      answerMismatch('', 'GET', '/public/categories/tree', answer(200, { items: [{ ...node, children: [{ ...node, lowestPrice: 3 }] }] }, { etag: '"a"', 'cache-control': 'x' })),
    ).toMatch(/children\/0\/lowestPrice/);
    expect(answerMismatch('', 'POST', '/auth/login', answer(400, { error: { code: 'NO.SUCH_CODE', message: 'x' } }))).toMatch(/error\/code/);
    expect(answerMismatch('', 'GET', '/goods/1', answer(404, { error: { code: 'GOOD.NOT_FOUND', message: 'x' } }))).toBeNull();
    expect(answerMismatch('', 'GET', '/public/home', answer(200, { positions: [] }))).toMatch(/always carries ETag/);
    expect(answerMismatch('', 'DELETE', '/goods/1', answer(204, { surprise: true }))).toMatch(/describes no body/);
  });

  it('holds an error code to the codes the operation lists for its status', () => {
    // A registered code, but not one of this operation, or not at this status.
    expect(answerMismatch('', 'GET', '/goods/1', answer(404, { error: { code: 'ORIGIN_GOOD.NOT_FOUND', message: 'x' } }))).toMatch(/does not match/);
    expect(answerMismatch('', 'POST', '/goods', answer(404, { error: { code: 'ORIGIN_GOOD.NOT_FOUND', message: 'x' } }))).toMatch(/lists 201, 202, 400/);
    expect(
      answerMismatch('', 'POST', '/goods', answer(400, { error: { code: 'UNKNOWN_REFERENCE', message: 'x', details: { field: 'originGoodId', missing: ['1'] } } })),
    ).toBeNull();
    expect(answerMismatch('', 'GET', '/goods', answer(400, { error: { code: 'IDEMPOTENCY.BAD_KEY', message: 'x' } }))).toMatch(/does not match/);
  });

  it('wants 405 with the path’s methods in Allow for a method a documented path does not have', () => {
    const notAllowed = (allow: string) => answer(405, { error: { code: 'REQUEST.METHOD_NOT_ALLOWED', message: 'x' } }, { allow });
    expect(answerMismatch('', 'PUT', '/goods/1', notAllowed('GET, HEAD, PATCH, DELETE'))).toBeNull();
    expect(answerMismatch('/api', 'POST', '/v2-api/public/goods', notAllowed('GET, HEAD'))).toBeNull();
    expect(answerMismatch('', 'POST', '/healthz', notAllowed('GET, HEAD'))).toBeNull();
    expect(answerMismatch('', 'PUT', '/goods/1', answer(404, { error: { code: 'NOT_FOUND', message: 'x' } }))).toMatch(/expected 405/);
    expect(answerMismatch('', 'PUT', '/goods/1', notAllowed('GET, PATCH'))).toMatch(/Allow says GET, PATCH/);
    // A path whose operations need not be mounted (/metrics without METRICS_TOKEN): its 404 will do.
    expect(answerMismatch('', 'POST', '/metrics', answer(404, { error: { code: 'NOT_FOUND', message: 'x' } }))).toBeNull();
    expect(answerMismatch('', 'POST', '/metrics', notAllowed('GET, HEAD'))).toBeNull();
    // No documented path: not checked.
    expect(answerMismatch('', 'PUT', '/no/such/route', answer(404, { error: { code: 'NOT_FOUND', message: 'x' } }))).toBeNull();
  });
});
