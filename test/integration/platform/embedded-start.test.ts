/**
 * The embedded PostgreSQL that `npm start` runs says why it did not start: the library it comes from
 * rejects with nothing when the server exits during its start, and `npm start` printed "undefined".
 * A data folder written by another PostgreSQL version is one such start.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/free-port';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../../..');

it('a server that will not start names the reason instead of failing with nothing', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'embedded-start-'));
  // As root the server runs as the user postgres, which must enter the folder.
  chmodSync(dir, 0o755);
  const data = path.join(dir, 'pg');
  mkdirSync(data, { mode: 0o700 });
  // Initialised already, by a PostgreSQL this one cannot read.
  writeFileSync(path.join(data, 'PG_VERSION'), '9\n');
  try {
    const run = promisify(execFile)(process.execPath, [path.join(ROOT, 'bin/catalog.js'), 'migrate'], {
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/root', DATA_DIR: dir, EMBEDDED_PG_PORT: String(await freePort()), LOG_FORMAT: 'json' },
    });
    const failed = await run.then(
      () => null,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failed).not.toBeNull();
    expect(failed!.code).toBe(1);
    const said = failed!.stdout + failed!.stderr;
    expect(said).toContain(`the embedded PostgreSQL under ${data} did not start: `);
    expect(said).not.toMatch(/^undefined$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
