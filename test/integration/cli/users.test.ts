/**
 * `catalog users list|delete|reset-password`: the real bin against the database a real HTTP service
 * uses, and the tokens that service issued before the command, tried again over HTTP afterwards.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { argon2Hasher } from '../../../src/auth/passwords';
import { ADMIN, login, registerAdmin, startAuthHarness, type AuthHarness, type TestApp } from '../../support/auth-http';

const BIN = path.resolve(__dirname, '../../../bin/catalog.js');
// Each test runs the bin several times (a process start, migrations, argon2 each): room for a loaded machine.
jest.setTimeout(180_000);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `catalog …` on the harness's database, with `stdin` as its standard input (closed at once when absent). */
function catalog(h: AuthHarness, args: string[], stdin = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH!, LOG_LEVEL: 'warn', DATABASE_URL: h.db.url }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin);
  });
}

/**
 * Runs `catalog …` on a terminal (util-linux `script` gives it a pseudo-terminal) and types each
 * answer once the prompt before it has appeared: what an operator at a shell sees, echo included.
 */
function catalogOnTerminal(h: AuthHarness, args: string[], answers: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH!, LOG_LEVEL: 'warn', DATABASE_URL: h.db.url } });
    let out = '';
    let prompts = 0;
    const timer = setTimeout(() => child.kill(), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const seen = (out.match(/new password: |again: /g) ?? []).length;
      while (prompts < seen && prompts < answers.length) child.stdin.write(`${answers[prompts++]}\r`);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout: out, stderr: '' });
    });
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const refreshWith = (app: TestApp, refresh: string) => app.call('POST', '/auth/refresh', { headers: { cookie: `svc_rt=${refresh}` } });

describe('catalog users', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('list says there is nobody, then shows the registered administrator, in text and as JSON', async () => {
    const empty = await catalog(h, ['users', 'list']);
    expect(empty).toMatchObject({ code: 0 });
    expect(empty.stdout).toMatch(/no users/);
    await registerAdmin(await h.app());
    const text = await catalog(h, ['users', 'list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/admin\s+ADMIN/);
    const json = await catalog(h, ['users', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { id: expect.stringMatching(/^\d+$/), username: 'admin', role: 'ADMIN', createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
    expect(json.stdout).not.toMatch(/argon2|password/i);
  });

  it('reset-password from stdin: the new password signs in, the old one and every earlier token are refused, nothing echoes it', async () => {
    const app = await h.app();
    const before = await login(app);
    const fresh = 'a brand new passphrase 42';
    const r = await catalog(h, ['users', 'reset-password', 'Admin', '--password-stdin'], `${fresh}\n`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/password of admin .* reset/);
    expect(r.stdout + r.stderr).not.toContain(fresh);

    expect((await app.call('GET', '/auth/me', { headers: bearer(before.access) })).status).toBe(401);
    expect((await refreshWith(app, before.refresh)).status).toBe(401);
    expect((await app.call('POST', '/auth/login', { body: ADMIN })).status).toBe(401);
    // The trailing line break of the input is not part of the password.
    const after = await login(app, { username: 'admin', password: fresh });
    expect((await app.call('GET', '/auth/me', { headers: bearer(after.access) })).body).toEqual({ user: expect.objectContaining({ username: 'admin' }) });
    // Put back for the tests below.
    expect((await catalog(h, ['users', 'reset-password', 'admin', '--password-stdin'], ADMIN.password)).code).toBe(0);
  });

  it('reset-password on a terminal names an unknown user before asking, asks twice without echoing, and refuses two different answers', async () => {
    const typed = 'typed at the prompt 77';
    const unknown = await catalogOnTerminal(h, ['users', 'reset-password', 'nobody'], []);
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).not.toMatch(/new password/);
    const cancelled = await catalogOnTerminal(h, ['users', 'reset-password', 'admin', '--password-stdin'], ['\u0003']);
    expect(cancelled.code).toBe(4);
    expect(cancelled.stdout).toMatch(/USER\.CANCELLED/);
    const differ = await catalogOnTerminal(h, ['users', 'reset-password', 'admin'], [typed, 'something else entirely']);
    expect(differ.code).toBe(4);
    expect(differ.stdout).toMatch(/the two passwords differ/);
    const ok = await catalogOnTerminal(h, ['users', 'reset-password', 'admin'], [typed, typed]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/new password: [\s\S]*again: [\s\S]*reset/);
    expect(differ.stdout + ok.stdout).not.toContain('typed at');
    const app = await h.app();
    expect((await app.call('POST', '/auth/login', { body: { username: 'admin', password: typed } })).status).toBe(200);
    expect((await catalog(h, ['users', 'reset-password', 'admin', '--password-stdin'], ADMIN.password)).code).toBe(0);
  });

  it('reset-password refuses an unknown user (exit 3), a short password and a missing one (exit 4), and changes nothing', async () => {
    const hashOf = async () => (await h.db.pool.query(`SELECT password_hash, token_version FROM users WHERE username = 'admin'`)).rows[0];
    const was = await hashOf();
    const unknown = await catalog(h, ['users', 'reset-password', 'nobody', '--password-stdin'], 'long enough password');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/USER\.NOT_FOUND: no user named "nobody"/);
    const short = await catalog(h, ['users', 'reset-password', 'admin', '--password-stdin'], 'too short\n');
    expect(short.code).toBe(4);
    expect(short.stderr).toMatch(/USER\.PASSWORD_REFUSED: .*12/);
    expect(short.stderr).not.toContain('too short');
    // Standard input is no terminal here, and the flag is missing: no prompt, no guess.
    const noTty = await catalog(h, ['users', 'reset-password', 'admin'], 'long enough password');
    expect(noTty.code).toBe(4);
    expect(noTty.stderr).toMatch(/--password-stdin/);
    expect(await hashOf()).toEqual(was);
  });

  it("delete: the user's access and refresh tokens are refused afterwards; another user's still work", async () => {
    // Registration admits only the first user; a second one is a row the table allows all the same.
    await h.db.pool.query(`INSERT INTO users (id, username, password_hash) VALUES (42, 'operator', $1)`, [await argon2Hasher.hash('operator password 1')]);
    const app = await h.app();
    const theirs = await login(app, { username: 'operator', password: 'operator password 1' });
    const mine = await login(app);
    expect((await app.call('GET', '/auth/me', { headers: bearer(theirs.access) })).status).toBe(200);

    const r = await catalog(h, ['users', 'delete', 'operator']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/deleted user operator \(42\)/);
    expect((await app.call('GET', '/auth/me', { headers: bearer(theirs.access) })).status).toBe(401);
    expect((await app.call('GET', '/projections', { headers: bearer(theirs.access) })).status).toBe(401);
    expect((await refreshWith(app, theirs.refresh)).status).toBe(401);
    expect((await app.call('GET', '/auth/me', { headers: bearer(mine.access) })).status).toBe(200);
    expect((await catalog(h, ['users', 'list', '--json'])).stdout).not.toMatch(/operator/);

    const unknown = await catalog(h, ['users', 'delete', 'operator']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/no user named "operator"/);
  });

  it('delete keeps the last user unless forced; forced, its tokens are refused and registration opens again', async () => {
    const app = await h.app();
    const mine = await login(app);
    const kept = await catalog(h, ['users', 'delete', 'admin']);
    expect(kept.code).toBe(4);
    expect(kept.stderr).toMatch(/USER\.LAST_USER: .*only user.*reset-password.*--force/);
    expect((await app.call('GET', '/auth/me', { headers: bearer(mine.access) })).status).toBe(200);

    const forced = await catalog(h, ['users', 'delete', 'admin', '--force']);
    expect(forced.code).toBe(0);
    expect((await app.call('GET', '/auth/me', { headers: bearer(mine.access) })).status).toBe(401);
    expect((await refreshWith(app, mine.refresh)).status).toBe(401);
    expect((await app.call('POST', '/auth/register', { body: { username: 'newcomer', password: 'another long password' } })).status).toBe(201);
  });
});
