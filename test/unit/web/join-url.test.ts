import { joinUrl } from '../../../web/shared/join-url';

describe('joinUrl', () => {
  const bases: [string, string][] = [
    ['', ''],
    ['/', ''],
    ['//', ''],
    ['/api', '/api'],
    ['/api/', '/api'],
    ['/api//', '/api'],
    ['/v2-api', '/v2-api'],
    ['/v2-api/', '/v2-api'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
    ['https://shop.example.com/v2-api/', 'https://shop.example.com/v2-api'],
  ];
  const paths: [string, string][] = [
    ['auth/refresh', 'auth/refresh'],
    ['/auth/refresh', 'auth/refresh'],
    ['//auth/refresh', 'auth/refresh'],
    ['public/goods?page=2&tagIds=1,2', 'public/goods?page=2&tagIds=1,2'],
    ['', ''],
    ['/', ''],
  ];
  for (const [base, b] of bases) {
    for (const [path, p] of paths) {
      it(`${JSON.stringify(base)} + ${JSON.stringify(path)}`, () => {
        const joined = joinUrl(base, path);
        expect(joined).toBe(`${b}/${p}`);
        const afterScheme = joined.replace(/^https?:\/\//, '');
        expect(afterScheme).not.toContain('//');
      });
    }
  }
  it('the docs/api.md example: /v2-api/ + /auth/refresh', () => {
    expect(joinUrl('/v2-api/', '/auth/refresh')).toBe('/v2-api/auth/refresh');
  });
  it('keeps slashes inside the path beyond the seam', () => {
    expect(joinUrl('/api', '/goods/1/origins')).toBe('/api/goods/1/origins');
  });
});
