import { assertSupplierConfigured, loadConfig, ConfigError } from '../../src/config';

describe('config', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.eventStore).toEqual({ kind: 'postgres' });
    expect(c.jwt.accessExpiresIn).toBe('30m');
    expect(c.publicCache).toEqual({ disabled: false, ttlMs: 60000, maxEntries: 5000, maxBytes: 128 * 1024 * 1024 });
    expect(c.schedules).toEqual({ categories: '0 * * * *', goods: '30 2 * * *', details: '0 3 * * *' });
    expect(c.uploadStorage).toBe('postgres');
    expect(c.env).toBe('production');
    expect(c.trustProxy).toBe(false);
    expect(c.bodyLimitBytes).toBe(1024 * 1024);
    // Above the 60 s idle timeout of nginx's upstream keepalive and of most load balancers.
    expect(c.http).toEqual({ keepAliveTimeoutMs: 65_000, headersTimeoutMs: 66_000 });
  });

  it('wants request headers waited for longer than an idle connection is kept', () => {
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '70000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS: must be above HTTP_KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '5000' })).toThrow(ConfigError);
    expect(loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '70000', HTTP_HEADERS_TIMEOUT_MS: '71000' }).http).toEqual({ keepAliveTimeoutMs: 70_000, headersTimeoutMs: 71_000 });
  });

  it.each([
    ['PORT', 'abc'],
    ['JWT_SECRET', 'short'],
    ['PUBLIC_CACHE_TTL_MS', '-5'],
    ['PUBLIC_CACHE_DISABLED', 'maybe'],
    ['EVENT_STORE', 'mysql'],
    ['DATABASE_URL', 'mysql://x'],
    ['CATEGORY_SYNC_CRON', 'every hour please'],
    ['GOODS_SYNC_CRON', '61 * * * *'],
    ['DETAILS_SYNC_CRON', 'never'],
    ['UPLOAD_STORAGE', 's3'],
    ['EVENTSTORE_URL', 'http://kurrentdb:2113'],
    ['API_PREFIX', 'v2-api/'],
    ['ADMIN_API_BASE', 'api'],
    ['H5_API_BASE', '/v2-api"><script>'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '0'],
    ['HTTP_HEADERS_TIMEOUT_MS', '400000'],
  ])('a bad %s stops start-up with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('requires EVENTSTORE_URL with EVENT_STORE=eventstoredb', () => {
    expect(() => loadConfig({ EVENT_STORE: 'eventstoredb' })).toThrow(/EVENTSTORE_URL/);
    expect(loadConfig({ EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: 'esdb://localhost:2113?tls=false' }).eventStore).toEqual({
      kind: 'eventstoredb',
      url: 'esdb://localhost:2113?tls=false',
    });
  });

  it('takes KurrentDB connection strings (kurrentdb://, kurrent://, kdb://, each also +discover) besides esdb://', () => {
    for (const url of ['kurrentdb://admin:pw@db:2113?tls=true', 'kurrent+discover://db:2113', 'kdb://db:2113', 'esdb+discover://db:2113', 'KurrentDB://db:2113']) {
      expect(loadConfig({ EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: url }).eventStore).toEqual({ kind: 'eventstoredb', url });
    }
  });

  it('turns a schedule off with off', () => {
    expect(loadConfig({ CATEGORY_SYNC_CRON: 'off', GOODS_SYNC_CRON: 'OFF', DETAILS_SYNC_CRON: '*/10 * * * * *' }).schedules).toEqual({
      categories: null,
      goods: null,
      details: '*/10 * * * * *',
    });
  });

  it('in production with its own database, refuses to start without UPSTREAM_URL unless the simulator is asked for', () => {
    const prod = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/catalog' };
    expect(() => assertSupplierConfigured(loadConfig(prod))).toThrow(ConfigError);
    expect(() => assertSupplierConfigured(loadConfig(prod))).toThrow(/UPSTREAM_URL.*UPSTREAM_SIMULATOR=true/);
    expect(() => assertSupplierConfigured(loadConfig({ ...prod, UPSTREAM_URL: 'https://supplier.example.com' }))).not.toThrow();
    const demo = loadConfig({ ...prod, UPSTREAM_SIMULATOR: 'true' });
    expect(() => assertSupplierConfigured(demo)).not.toThrow();
    expect(demo.upstream).toBeUndefined();
    // `npm ci && npm start`: production mode on the embedded database keeps its demo catalogue
    expect(() => assertSupplierConfigured(loadConfig({ NODE_ENV: 'production' }))).not.toThrow();
    expect(() => assertSupplierConfigured(loadConfig({ NODE_ENV: 'development', DATABASE_URL: 'postgres://db/catalog' }))).not.toThrow();
  });

  it('parses lists, switches and sizes', () => {
    const c = loadConfig({ CORS_ORIGINS: 'https://a.example, *', PUBLIC_CACHE_DISABLED: 'true', BODY_LIMIT: '512kb', TRUST_PROXY: '1' });
    expect(c.corsOrigins).toEqual(['https://a.example', '*']);
    expect(c.publicCache.disabled).toBe(true);
    expect(c.bodyLimitBytes).toBe(512 * 1024);
    expect(c.trustProxy).toBe(1);
  });

  it("the storefront's 客服 address: none unless set; an https:, tel: or mailto: address", () => {
    expect(loadConfig({}).h5ContactUrl).toBeUndefined();
    for (const ok of ['https://work.weixin.qq.com/kfid/kfc123', 'tel:400-800-1234', 'tel:+8613800138000', 'mailto:kf@shop.example'])
      expect(loadConfig({ H5_CONTACT_URL: ok }).h5ContactUrl).toBe(ok);
    for (const bad of ['javascript:alert(1)', '400-800-1234', 'https://x.example/"><script>', 'tel:call-me'])
      expect(() => loadConfig({ H5_CONTACT_URL: bad })).toThrow(/H5_CONTACT_URL/);
  });

  it("the clients' API bases are the build's unless set; a path on the same origin", () => {
    expect(loadConfig({}).clientApiBases).toEqual({ admin: undefined, h5: undefined });
    expect(loadConfig({ ADMIN_API_BASE: '/api', H5_API_BASE: '/v2-api/' }).clientApiBases).toEqual({ admin: '/api', h5: '/v2-api/' });
    expect(loadConfig({ ADMIN_API_BASE: '/' }).clientApiBases.admin).toBe('/');
    // another origin: the pages' CSP would block every call
    for (const other of ['https://shop.example.com/api', '//shop.example.com/api']) {
      expect(() => loadConfig({ ADMIN_API_BASE: other })).toThrow(/ADMIN_API_BASE/);
    }
  });

  it('logs readable lines on a terminal in development (NODE_ENV=development, or the embedded database), JSON otherwise', () => {
    const external = { DATABASE_URL: 'postgres://db/catalog' };
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development', ...external }, true).logFormat).toBe('pretty');
    expect(loadConfig(external, true).logFormat).toBe('json');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'development' }, false).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty', ...external }, false).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'colour' })).toThrow(/LOG_FORMAT/);
  });

  it('PUBLIC_URL: an http(s) address without its trailing slash; unset by default', () => {
    expect(loadConfig({}).publicUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:8080/' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example.com/catalog' }).publicUrl).toBe('https://shop.example.com/catalog');
    for (const bad of ['localhost:8080', 'ftp://x', 'http://', 'http://a b', 'http://x/?q=1', 'javascript:alert(1)']) {
      expect(() => loadConfig({ PUBLIC_URL: bad })).toThrow(/PUBLIC_URL/);
    }
  });
});
