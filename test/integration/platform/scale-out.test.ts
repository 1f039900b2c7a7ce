/**
 * The scale-out of docs/deployment.md, with real processes of `bin/catalog.js` in production mode on
 * one database: two `serve --role api` and one `serve --role worker`. The schedule is claimed and run
 * by the worker only, one run per tick; an upload stored through one api is served by the other
 * (each has an UPLOAD_DIR of its own); a wiped event log makes both apis refuse to start (exit 2)
 * naming the rebuild, and `catalog projections rebuild --all` lets them start again.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { eventually } from '../../support/eventually';
import { IMAGES } from '../../support/images';
import { freePort } from '../../support/free-port';

jest.setTimeout(240_000);

const BIN = path.resolve(__dirname, '../../../bin/catalog.js');
const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

interface Proc {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

describe('scale-out: two api processes and a worker on one database', () => {
  let db: TestDatabase;
  let sim: RunningSimulator;
  const dirs: string[] = [];
  const procs: Proc[] = [];
  let env: Record<string, string>;

  function start(args: string[], extra: Record<string, string> = {}): Proc {
    let err = '';
    // A working directory of its own: bin/catalog.js reads a .env there.
    const cwd = mkdtempSync(path.join(tmpdir(), 'catalog-scale-'));
    dirs.push(cwd);
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...env, ...extra }, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const p = { child, stderr: () => err, exited };
    procs.push(p);
    return p;
  }

  async function api(): Promise<Proc & { url: string }> {
    const port = await freePort();
    const uploadDir = mkdtempSync(path.join(tmpdir(), 'catalog-scale-uploads-'));
    dirs.push(uploadDir);
    const p = start(['serve', '--role', 'api'], { PORT: String(port), UPLOAD_DIR: uploadDir });
    return { ...p, url: `http://127.0.0.1:${port}` };
  }

  const ready = (url: string, p: Proc) =>
    eventually(
      async () => {
        if (p.child.exitCode !== null) throw new Error(`exited with ${p.child.exitCode}: ${p.stderr()}`);
        return (await fetch(`${url}/readyz`).catch(() => null))?.ok ?? false;
      },
      90_000,
      100,
    );

  async function stop(p: Proc): Promise<void> {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await p.exited;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    sim = await startSimulator({ links: 60, seed: 7 });
    env = {
      PATH: process.env.PATH!,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      JWT_SECRET: 'scale-out-secret-that-is-at-least-32-characters',
      UPSTREAM_URL: sim.url,
      LOG_LEVEL: 'warn',
      PROJECTION_POLL_MS: '50',
      UPLOAD_STORAGE: 'postgres',
      // Every second tick of the clock, so several ticks pass during the test; the others off.
      CATEGORY_SYNC_CRON: '*/2 * * * * *',
      GOODS_SYNC_CRON: 'off',
      DETAILS_SYNC_CRON: 'off',
    };
  });

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    await sim?.close();
    await db?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('runs the schedule in the worker once per tick, serves an upload from either api, and refuses a wiped log until rebuild --all', async () => {
    const worker = start(['serve', '--role', 'worker']);
    const [a, b] = [await api(), await api()];
    await Promise.all([ready(a.url, a), ready(b.url, b)]);

    // The schedule: claimed by the worker alone, one claim and at most one run per tick.
    const claims = await eventually(
      async () => {
        const r = await db.pool.query<{ claim: string; claimed_by: string; run_id: string | null; outcome: string | null; due_at: Date }>(
          `SELECT claim, claimed_by, run_id, outcome, due_at FROM schedule_claims ORDER BY due_at`,
        );
        return r.rows.length >= 3 && r.rows.every((c) => c.outcome) ? r.rows : null;
      },
      60_000,
      200,
    ).then((rows) => rows!);
    expect(new Set(claims.map((c) => c.claimed_by))).toEqual(new Set([expect.stringMatching(new RegExp(`:${worker.child.pid}$`))]));
    for (const c of claims) {
      expect(c.claim).toBe(`categories:${c.due_at.toISOString()}`);
      expect(c.due_at.getUTCSeconds() % 2).toBe(0);
      expect(c.due_at.getUTCMilliseconds()).toBe(0);
    }
    const runs = await db.pool.query<{ id: string }>(`SELECT id FROM sync_runs WHERE kind = 'categories' AND started_by = 'system:sync'`);
    const started = claims.filter((c) => c.run_id).map((c) => c.run_id);
    expect(started.length).toBeGreaterThan(0);
    expect(new Set(started).size).toBe(started.length);
    // Every scheduled run belongs to exactly one claimed tick (runs of ticks still being claimed aside).
    expect(started.every((id) => runs.rows.some((r) => r.id === id))).toBe(true);
    const claimedRuns = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sync_runs r WHERE kind = 'categories' AND started_by = 'system:sync' AND NOT EXISTS (SELECT 1 FROM schedule_claims c WHERE c.run_id = r.id::text)`,
    );
    expect(claimedRuns.rows[0]!.n).toBeLessThanOrEqual(1); // at most the tick claimed a moment ago

    // An upload through one api, served by the other (each has its own, empty, UPLOAD_DIR).
    const post = (url: string, p: string, body: unknown) => fetch(url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(a.url, '/auth/register', ADMIN)).status).toBe(201);
    const login = await post(b.url, '/auth/login', ADMIN);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('svc_at='))!
      .split(';')[0]!;
    const form = new FormData();
    form.append('file', new Blob([IMAGES.png]), 'a.png');
    const uploaded = await fetch(a.url + '/upload', { method: 'POST', body: form, headers: { cookie } });
    expect(uploaded.status).toBe(201);
    const { url } = (await uploaded.json()) as { url: string };
    const fromA = await fetch(a.url + url);
    const fromB = await fetch(b.url + url);
    expect(fromB.status).toBe(200);
    expect(Buffer.from(await fromB.arrayBuffer()).equals(IMAGES.png)).toBe(true);
    expect(fromB.headers.get('content-type')).toBe('image/png');
    expect(fromB.headers.get('etag')).toBe(fromA.headers.get('etag'));

    // The event log wiped under the read models: both apis refuse to start, naming the rebuild.
    await Promise.all([stop(worker), stop(a), stop(b)]);
    const before = (await db.pool.query<{ log_id: string }>(`SELECT log_id FROM log_identity`)).rows[0]!.log_id;
    await db.pool.query(`TRUNCATE es_events, es_streams`);
    const [a2, b2] = [await api(), await api()];
    expect(await a2.exited).toBe(2);
    expect(await b2.exited).toBe(2);
    for (const p of [a2, b2]) {
      expect(p.stderr()).toContain('catalog projections rebuild --all');
      expect(p.stderr()).toContain(before);
    }

    // rebuild --all: the read models emptied, this log recorded as theirs; then the apis start.
    const rebuilt = await promisify(execFile)(process.execPath, [BIN, 'projections', 'rebuild', '--all'], { cwd: dirs[0], env, timeout: 120_000 });
    expect(rebuilt.stdout).toMatch(/every read model rebuilt from event log [0-9a-f-]{36}/);
    const after = (await db.pool.query<{ log_id: string }>(`SELECT log_id FROM log_identity`)).rows[0]!.log_id;
    expect(after).not.toBe(before);
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM categories`)).rows[0].n).toBe(0);
    const a3 = await api();
    await ready(a3.url, a3);
    await stop(a3);
    expect(await a3.exited).toBe(0);
  });
});
