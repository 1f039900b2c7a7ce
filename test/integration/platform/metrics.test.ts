/**
 * GET /metrics: Prometheus text for a scraper with METRICS_TOKEN, none without it (and no route at all
 * when the token is unset): projection lag and states, the read fence, appends and applied events,
 * synchronisation runs, public cache lookups, request durations by route template.
 */
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

const TOKEN = 'scrape-token-0123456789';

describe('metrics', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  beforeAll(async () => {
    sim = await startSimulator({ links: 60, seed: 2 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url, METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await svc.close();
    await sim.close();
  });
  const scrape = async (token?: string) => fetch(`${svc.url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const value = (text: string, name: string, labels = '') => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `) || (labels === '' && l.startsWith(`${name} `)));
    return line ? Number(line.split(' ').at(-1)) : undefined;
  };

  it('answers only the scraper with the token', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('wrong-token-0123456789')).status).toBe(401);
    const ok = await scrape(TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('counts appends, applied events, sync runs, cache lookups and requests; shows lag and states', async () => {
    const run = await svc.request('POST', '/sync/origin-goods');
    await eventually(async () => (await svc.request('GET', `/sync/runs/${run.body.runId}`)).body.state === 'succeeded', 30_000);
    for (let i = 0; i < 3; i++) expect((await fetch(`${svc.url}/public/countries`)).status).toBe(200);
    const text = await (await scrape(TOKEN)).text();
    expect(value(text, 'catalog_events_appended_total')).toBeGreaterThanOrEqual(60);
    expect(value(text, 'catalog_projection_events_applied_total', 'projection="catalog"')).toBeGreaterThanOrEqual(60);
    expect(value(text, 'catalog_sync_runs_total', 'kind="origin_goods",outcome="succeeded"')).toBe(1);
    expect(value(text, 'catalog_projection_lag_events', 'projection="catalog"')).toBe(0);
    expect(value(text, 'catalog_projection_failed', 'projection="catalog"')).toBe(0);
    expect(value(text, 'catalog_read_fence_held_back_seconds')).toBeGreaterThanOrEqual(0);
    expect(value(text, 'catalog_public_cache_lookups', 'domains="goods,meta",result="hit"')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'catalog_public_cache_lookups', 'domains="goods,meta",result="load"')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/catalog_http_request_duration_seconds_count\{method="POST",route="\/sync\/origin-goods",status="202"\} 1/);
    // The fast lane's answers are counted under the route template too.
    expect(value(text, 'catalog_http_request_duration_seconds_count', 'method="GET",route="/public/countries",status="200"')).toBe(3);
  });

  it("shows this thread's heap within its limit (a serving process's jobs thread adds its own: test/integration/jobs/thread.test.ts)", async () => {
    const text = await (await scrape(TOKEN)).text();
    const used = value(text, 'catalog_thread_heap_bytes', 'thread="main",kind="used"');
    expect(used).toBeGreaterThan(1024 * 1024);
    expect(value(text, 'catalog_thread_heap_bytes', 'thread="main",kind="limit"')).toBeGreaterThan(used!);
    expect(value(text, 'catalog_thread_heap_bytes', 'thread="main",kind="external"')).toBeGreaterThanOrEqual(0);
  });

  it('no token configured: no /metrics', async () => {
    const plain = await startTestService({ db: svc.db, workers: false, login: false });
    try {
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
