/**
 * A stall shows. Event readers read below the oldest transaction running anywhere in the cluster,
 * so one transaction left open holds every projection back. Lag is counted against every committed
 * event, and the holder is named in GET /projections, `catalog projections status` and /readyz
 * (degraded once it has held long enough). The service's own sessions cannot be that holder for
 * long: an idle transaction and a runaway statement are ended.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../../../bin/catalog.js');

describe('a held-back read fence', () => {
  let svc: TestService;
  let stuck: pg.Client;
  let stuckPid: number;

  beforeAll(async () => {
    svc = await startTestService({ env: { FENCE_DEGRADED_AFTER_S: '1', COMMAND_WAIT_MS: '300', DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '400', DB_STATEMENT_TIMEOUT_MS: '500' } });
    stuck = new pg.Client({ connectionString: svc.db.url, application_name: 'report-left-open' });
    await stuck.connect();
    stuckPid = (await stuck.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)).rows[0]!.pid;
  });
  afterAll(async () => {
    await stuck.end().catch(() => undefined);
    await svc.close();
  });

  it('is lag, named in GET /projections, the CLI and /readyz, and clears when the transaction ends', async () => {
    await stuck.query('BEGIN');
    await stuck.query('SELECT pg_current_xact_id()');
    const created = await svc.request('POST', '/tag-groups', { name: '卡住之后' });
    // Appended; its projection cannot show it yet (202) or, had the fence been quick, did (201).
    expect([201, 202]).toContain(created.status);

    type Status = {
      fence: { heldBackEvents: number; heldBackSeconds: number; holder: { pid: number; state: string; applicationName: string } | null };
      items: { name: string; lagEvents: number }[];
    };
    const status = (await eventually(async () => {
      const s = (await svc.request('GET', '/projections')).body as Status;
      // Other tests' transactions on the same server may be older for a moment; this one stays.
      return s.fence?.holder?.pid === stuckPid && s.fence.heldBackSeconds >= 1 ? s : null;
    }, 20_000))!;
    expect(status.fence.heldBackEvents).toBeGreaterThanOrEqual(1);
    expect(status.fence.holder).toMatchObject({ state: 'idle in transaction', applicationName: 'report-left-open' });
    expect(status.items.find((p) => p.name === 'tags')!.lagEvents).toBeGreaterThanOrEqual(1);

    const ready = await fetch(`${svc.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; checks: { fence: string } };
    expect(body.status).toBe('degraded');
    expect(body.checks.fence).toContain(`pid ${stuckPid}`);
    expect(body.checks.fence).toContain('report-left-open');

    const cli = await run(process.execPath, [BIN, 'projections', 'status'], {
      env: { PATH: process.env.PATH!, LOG_LEVEL: 'warn', DATABASE_URL: svc.db.url, UPSTREAM_URL: 'http://127.0.0.1:9' },
    });
    expect(cli.stdout).toMatch(new RegExp(`read fence held back: \\d+ committed events wait [\\d.]+ s behind pid ${stuckPid} \\(idle in transaction`));

    await stuck.query('ROLLBACK');
    await eventually(async () => {
      const s = (await svc.request('GET', '/projections')).body as Status;
      return s.fence.heldBackEvents === 0 && s.items.every((p) => p.lagEvents === 0);
    }, 20_000);
    expect(((await (await fetch(`${svc.url}/readyz`)).json()) as { status: string }).status).toBe('ready');
  });

  it("the service's own sessions end an idle transaction and a runaway statement", async () => {
    const own = await svc.services.pool.connect();
    let broken: unknown = null;
    try {
      await own.query('BEGIN');
      await own.query('SELECT pg_current_xact_id()');
      await new Promise((r) => setTimeout(r, 900));
      await own.query('SELECT 1').catch((e) => (broken = e));
    } finally {
      own.release(true);
    }
    expect(broken).toBeTruthy();
    await expect(svc.services.pool.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
    // The pool serves again at once.
    expect((await svc.services.pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });
});
