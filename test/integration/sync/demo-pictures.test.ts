/**
 * Where the demo's pictures are announced and who serves them (docs/supplier.md, Its pictures):
 * with PUBLIC_URL (the compose stack: its proxy's address) the catalogue the demo seeds records
 * PUBLIC_URL/demo-pictures/… and the service answers that path itself; without it, and without a
 * port known in advance, the simulator's own address, where it serves them outside its bearer token
 * and its request counters (a browser has no token, and they are no supplier request).
 */
import { seedDemoCatalog } from '../../../src/sync/demo';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { startTestService, type TestService } from '../../support/service';

jest.setTimeout(180_000);

const PUBLIC_URL = 'http://shop.example.test:8080';

describe('the demo pictures, with PUBLIC_URL', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { PUBLIC_URL: `${PUBLIC_URL}/`, SIMULATOR_LINKS: '60' }, login: false });
    await seedDemoCatalog(svc.services);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('are recorded at PUBLIC_URL/demo-pictures/, and the service answers that path', async () => {
    const list = await svc.request('GET', '/public/goods?pageSize=20');
    expect(list.status).toBe(200);
    const images = (list.body.items as { image: string }[]).map((g) => g.image);
    expect(images.length).toBeGreaterThan(5);
    for (const image of images) {
      expect(image.startsWith(`${PUBLIC_URL}/demo-pictures/goods/`)).toBe(true);
      const r = await fetch(image.replace(PUBLIC_URL, svc.url));
      expect([r.status, r.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
    }
    // the same path under the API's second mount is no picture: they live at the root only
    expect((await fetch(`${svc.url}/v2-api/demo-pictures/goods/f1/tee-NVY.svg`)).status).toBe(404);
  });
});

describe('the demo pictures, on the simulator alone', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ links: 60, seed: 3, token: 'supplier-token' });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('are announced at its own address and served there without its token, uncounted and unfaulted', async () => {
    const port = new URL(sim.url).port;
    const link = sim.catalog.links()[0]!;
    expect(link.image).toMatch(new RegExp(`^http://localhost:${port}/demo-pictures/goods/f\\d+/[a-zA-Z]+-[A-Z]{3}\\.svg$`));
    sim.resetStats();
    sim.faults.rateLimitEvery = 1;
    const r = await fetch(link.image.replace('localhost', '127.0.0.1'));
    expect([r.status, r.headers.get('content-type'), r.headers.get('cache-control')]).toEqual([200, 'image/svg+xml; charset=utf-8', 'public, max-age=86400']);
    expect(sim.stats.requests).toBe(0);
    // the supplier's API itself still needs the token and is faulted
    expect((await fetch(`${sim.url}/categories`)).status).toBe(401);
    expect(sim.stats.requests).toBe(1);
    sim.faults.rateLimitEvery = 0;
  });

  it('answers a picture that names no drawing 404', async () => {
    expect((await fetch(`${sim.url}/demo-pictures/goods/f1/tee-ZZZ.svg`)).status).toBe(404);
    expect((await fetch(`${sim.url}/demo-pictures/icons/dragon-101.svg`)).status).toBe(404);
  });
});
