/**
 * What the browser test files share: the clients built from this tree (once per jest run, however
 * many files ask), a real service with the demo catalog, Debian's Chromium through playwright-core,
 * registration and login through the admin UI, screenshots into test-results/, and waits on network
 * answers (never fixed sleeps).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response } from 'playwright-core';
import { seedDemoCatalog } from '../../src/sync/demo';
import { ADMIN, startTestService, type TestService } from './service';

export const ROOT = path.resolve(__dirname, '../..');
export const SHOTS = path.join(ROOT, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = path.join(ROOT, 'dist', 'web');

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether process `pid` is alive (a process of another user counts: kill answers EPERM, not ESRCH). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const holderOf = (dir: string): number | null => {
  try {
    const pid = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
};

/**
 * Takes the lock directory `lock`, which names its holder's pid: made aside with the pid in it,
 * then renamed into place (a rename onto a directory that has a pid in it fails), so a lock always
 * names its holder. A lock whose holder has died is broken; a live holder is waited for, however
 * slow its build.
 */
async function takeLock(lock: string): Promise<void> {
  for (const started = Date.now(); ; ) {
    const mine = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}`;
    mkdirSync(mine);
    writeFileSync(path.join(mine, 'pid'), String(process.pid));
    try {
      renameSync(mine, lock);
      return;
    } catch (e) {
      rmSync(mine, { recursive: true, force: true });
      if (!['EEXIST', 'ENOTEMPTY', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
    }
    const holder = holderOf(lock);
    if (holder !== null && !alive(holder)) {
      // Moved aside before it is removed: should another process have taken the lock since the pid
      // was read, its lock is put back.
      const aside = `${lock}.dead.${process.pid}.${randomBytes(4).toString('hex')}`;
      try {
        renameSync(lock, aside);
        if (holderOf(aside) === holder) rmSync(aside, { recursive: true, force: true });
        else renameSync(aside, lock);
      } catch {
        /* gone meanwhile, or taken again: try again */
      }
      continue;
    }
    if (Date.now() - started > 600_000) throw new Error(`${lock} held by process ${holder ?? '?'} for ten minutes`);
    await pause(100);
  }
}

/**
 * Builds both clients into dist/web, once per jest run: test files run in parallel workers and must
 * not empty the output directory under each other's service. A lock directory serialises them; a
 * marker names the run (TEST_RUN_ID, which global set-up sets) that built last.
 */
export async function buildClientsOnce(): Promise<void> {
  const run = process.env.TEST_RUN_ID;
  if (!run) throw new Error('TEST_RUN_ID unset: run the tests through jest (global set-up names the run)');
  const lock = path.join(ROOT, 'dist', '.web-build.lock');
  const marker = path.join(DIST, '.built-for-test-run');
  mkdirSync(path.dirname(lock), { recursive: true });
  await takeLock(lock);
  try {
    if (existsSync(marker) && readFileSync(marker, 'utf8') === run) return;
    const vite = path.join(ROOT, 'node_modules', '.bin', 'vite');
    // Default API bases (same origin; /v2-api for the storefront), whatever VITE_* the shell has.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITE_')));
    for (const app of ['admin', 'h5']) execFileSync(vite, ['build', '--config', `web/${app}/vite.config.mts`, '--logLevel', 'warn'], { cwd: ROOT, env, stdio: 'pipe' });
    writeFileSync(marker, run);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface BrowserSession {
  svc: TestService;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Clients built, a service (with the demo catalog unless `demo` is false) and nobody registered, a
 * browser page on it. `env` configures the service.
 */
export async function startBrowserSession(opts: { env?: Record<string, string>; demo?: boolean } = {}): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
  mkdirSync(SHOTS, { recursive: true });
  await buildClientsOnce();
  const svc = await startTestService({ login: false, ...(opts.env ? { env: opts.env } : {}) });
  let browser: Browser | undefined;
  try {
    if (opts.demo !== false) await seedDemoCatalog(svc.services);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // playwright-core gives each launch a fresh temporary profile (--user-data-dir).
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ baseURL: svc.url, viewport: { width: 1280, height: 860 }, locale: 'zh-CN' });
    const page = await context.newPage();
    const b = browser;
    return {
      svc,
      browser: b,
      context,
      page,
      async close() {
        await b.close();
        await svc.close();
      },
    };
  } catch (e) {
    await browser?.close();
    await svc.close();
    throw e;
  }
}

/** A full-page screenshot, from the top (the sticky side bar would otherwise stay where the page was scrolled). */
export async function shot(p: Page, name: string): Promise<void> {
  await p.evaluate('window.scrollTo(0, 0)');
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The next answer for a path ending in `pathSuffix` (e.g. `/auth/refresh`), optionally of one method and status. */
export const answer = (p: Page, pathSuffix: string | RegExp, status?: number, method?: string): Promise<Response> =>
  p.waitForResponse(
    (r) =>
      (typeof pathSuffix === 'string' ? new URL(r.url()).pathname.endsWith(pathSuffix) : pathSuffix.test(new URL(r.url()).pathname)) &&
      (status === undefined || r.status() === status) &&
      (method === undefined || r.request().method() === method),
  );

/** Every request the page makes from now on that `match`es; `stop()` ends the recording. */
export function recordRequests(p: Page, match: (r: Request) => boolean): { requests: Request[]; stop(): void } {
  const requests: Request[] = [];
  const on = (r: Request) => {
    if (match(r)) requests.push(r);
  };
  p.on('request', on);
  return { requests, stop: () => p.off('request', on) };
}

/** Registers the first administrator and logs in, through the admin UI. */
export async function registerAndLogin(page: Page, opts: { screenshot?: string } = {}): Promise<void> {
  await page.goto('/admin');
  await page.getByRole('heading', { name: '管理员登录' }).waitFor();
  if (opts.screenshot) await shot(page, opts.screenshot);
  await page.getByRole('button', { name: '首次使用？创建管理员' }).click();
  await page.locator('input[name=username]').fill(ADMIN.username);
  await page.locator('input[name=password]').fill(ADMIN.password);
  await Promise.all([answer(page, '/auth/register', 201), page.getByRole('button', { name: '注册' }).click()]);
  await page.getByText('管理员已创建，请登录').waitFor();
  await page.locator('input[name=password]').fill(ADMIN.password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.getByTestId('current-user').filter({ hasText: ADMIN.username }).waitFor();
}

/**
 * The administrator's API as the browser's session sees it (the context's cookies), to read back
 * what a UI action left on the server.
 */
export function sessionApi(context: BrowserContext, base: string) {
  async function call(method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
    const r = await context.request.fetch(base + p, { method, ...(body === undefined ? {} : { data: body }) });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: r.status(), body: parsed };
  }
  return {
    call,
    /** GET that must answer 200 */
    async get<T = any>(p: string): Promise<T> {
      const r = await call('GET', p);
      if (r.status !== 200) throw new Error(`GET ${p} → ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as T;
    },
  };
}
