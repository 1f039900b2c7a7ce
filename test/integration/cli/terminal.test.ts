/**
 * `npm start` on a terminal, as a developer runs it: `bin/catalog.js serve` under a pseudo-terminal,
 * on the embedded PostgreSQL of a fresh data folder. Its lines are readable (pino-pretty), not JSON;
 * Ctrl-C (SIGINT to the terminal's foreground process group) stops it in order, the embedded database
 * last, with no warning and no stack trace, also while the demo is being seeded; the next start
 * resumes the seeding and says when the demo is ready.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startChildService } from '../../support/child-service';
import { freePort } from '../../support/free-port';

jest.setTimeout(360_000);

let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'catalog-terminal-'));
  // As root, the embedded PostgreSQL runs as the user postgres, which must enter the folder.
  chmodSync(dataDir, 0o755);
  env = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? '/root',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    // enough links that the seeding outlasts the first start's Ctrl-C
    SIMULATOR_LINKS: '600',
    PROJECTION_POLL_MS: '50',
  };
});

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const TIME = String.raw`\[\d\d:\d\d:\d\d\]`;
/** A readable line: time, level, message, and nothing after a request's message. */
const line = (level: string, message: string) => new RegExp(`^${TIME} ${level}: ${message}$`);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** After "shutting down": "stopped" and nothing at warning level or above, no stack. */
function expectOrderlyStop(lines: string[]): void {
  const after = lines.slice(lines.findIndex((l) => /INFO: shutting down/.test(l)));
  expect(after[0]).toMatch(line('INFO', String.raw`shutting down \(Ctrl-C again stops at once\) \{"signal":"SIGINT"\}`));
  expect(after).toContainEqual(expect.stringMatching(line('INFO', 'stopped')));
  expect(after.filter((l) => /WARN|ERROR|FATAL/.test(l))).toEqual([]);
  expect(lines.filter((l) => /^\s+at |"stack"/.test(l))).toEqual([]);
}

describe('npm start on a terminal', () => {
  it('Ctrl-C while the demo is seeded stops in order, the embedded PostgreSQL last', async () => {
    const svc = startChildService(env, { terminal: true });
    const origin = `http://localhost:${env.PORT}`;
    try {
      // once the seeding has written something: the links' synchronisation is under way
      await svc.waitForLine(/demo step finished \{"component":"demo","kind":"categories"/, 180_000);
      const { code } = await svc.stop('SIGINT');
      const lines = svc.lines();
      expect(code).toBe(0);
      // readable lines, not JSON
      expect(lines).toContainEqual(expect.stringMatching(line('INFO', escape(`admin:      ${origin}/admin/`))));
      expect(lines).toContainEqual(expect.stringMatching(line('INFO', escape(`storefront: ${origin}/v2/h5/`))));
      expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
      expectOrderlyStop(lines);
      // the seeding had not finished; the database is stopped, not left running
      expect(lines.some((l) => l.includes('demo ready'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    } finally {
      await svc.cleanUp();
    }
  });

  it('the next start resumes the seeding, says when the demo is ready, logs a request as one line, and stops on Ctrl-C', async () => {
    const svc = startChildService(env, { terminal: true });
    try {
      await svc.waitForLine(/resuming the demo catalog seeding/, 180_000);
      const ready = await svc.waitForLine(/demo ready: /, 240_000);
      expect(ready).toMatch(new RegExp(`^${TIME} INFO: demo ready: [1-9]\\d* families, [1-9]\\d* goods \\{"component":"demo","families":\\d+,"goods":\\d+\\}$`));
      expect((await fetch(`http://127.0.0.1:${env.PORT}/v2-api/public/countries`, { headers: { cookie: `svc_at=${'x'.repeat(800)}` } })).status).toBe(200);
      await svc.waitForLine(line('INFO', String.raw`GET /v2-api/public/countries 200 [\d.]+ ms`));
      const { code } = await svc.stop('SIGINT');
      expect(code).toBe(0);
      expectOrderlyStop(svc.lines());
      expect(svc.lines().some((l) => l.includes('xxxxxxxx'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    } finally {
      await svc.cleanUp();
    }
  });
});
