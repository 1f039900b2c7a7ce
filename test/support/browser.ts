/**
 * What the browser test files share: a real service (with the demo catalog) serving the clients
 * that global set-up built from this tree, Debian's Chromium through playwright-core, registration
 * and login through the admin UI, screenshots into test-results/, and waits on network answers
 * (never fixed sleeps).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response, type Route } from 'playwright-core';
import { seedDemoCatalog } from '../../src/sync/demo';
import { eventually } from './eventually';
import { ADMIN, startTestService, type TestService } from './service';

export const ROOT = path.resolve(__dirname, '../..');
export const SHOTS = path.join(ROOT, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserSession {
  svc: TestService;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with a fresh profile; screenshots go to SHOTS. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // playwright-core gives each launch a fresh temporary profile (--user-data-dir).
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A service (with the demo catalog unless `demo` is false) and nobody registered, a browser page on it. `env` configures the service. */
export async function startBrowserSession(opts: { env?: Record<string, string>; demo?: boolean } = {}): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
  const svc = await startTestService({ login: false, ...(opts.env ? { env: opts.env } : {}) });
  let browser: Browser | undefined;
  try {
    if (opts.demo !== false) await seedDemoCatalog(svc.services);
    browser = await launchBrowser();
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

/**
 * The page's globals as a function run in the page sees them. Test code is type-checked without the
 * DOM library (the server's code must not see browser globals), so an in-page function reaches them
 * through a cast: `const { document } = globalThis as unknown as InPage;` (types only: nothing of
 * this module runs in the page).
 *
 * In-page waits are always functions, never strings: the pages' CSP forbids eval, and Playwright
 * evaluates a string predicate again at every poll, so a string wait passes only when its condition
 * already holds at the first check.
 */
export interface InPage {
  document: {
    cookie: string;
    querySelector(selector: string): InPageElement | null;
    querySelectorAll(selector: string): Iterable<InPageElement>;
    documentElement: { scrollWidth: number; clientWidth: number };
    body: InPageElement;
  };
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
  scrollTo(x: number, y: number): void;
  fetch(url: string, init?: { credentials?: 'include' }): Promise<{ status: number }>;
}
interface InPageElement {
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<InPageElement>;
  getBoundingClientRect(): { right: number };
  parentElement: InPageElement | null;
  tagName: string;
  className: string;
  value?: string;
  complete?: boolean;
  naturalWidth?: number;
}

/**
 * How far the page scrolls sideways (0: not at all), and what sticks out: the outermost elements
 * whose right edge is past the viewport's (their tag, test id and classes). Wide content belongs in a
 * box that scrolls on its own, not the page.
 */
export function sideways(p: Page): Promise<{ sideways: number; outermost: string[] }> {
  return p.evaluate(() => {
    const { document } = globalThis as unknown as InPage;
    const width = document.documentElement.clientWidth;
    const past = (el: InPageElement | null) => !!el && el.getBoundingClientRect().right > width + 0.5;
    const name = (el: InPageElement) => {
      const id = el.getAttribute('data-testid');
      return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${el.className ? `.${String(el.className).trim().split(/\s+/).join('.')}` : ''}`;
    };
    const over = document.documentElement.scrollWidth - width;
    const outermost =
      over > 0
        ? [...document.body.querySelectorAll('*')]
            .filter((el) => past(el) && !past(el.parentElement))
            .slice(0, 3)
            .map(name)
        : [];
    return { sideways: over, outermost };
  });
}

/**
 * A locator assertion (playwright-core has none of its own): reads again until `check` passes, so a
 * check right after a network answer does not race the render that follows it. Fails with the last
 * failed expectation after `timeoutMs`.
 */
export async function until<T>(read: () => Promise<T>, check: (value: T) => void, timeoutMs = 30_000): Promise<void> {
  await eventually(
    async () => {
      check(await read());
      return true;
    },
    timeoutMs,
    50,
  );
}

/** A full-page screenshot, from the top (the sticky side bar would otherwise stay where the page was scrolled). */
export async function shot(p: Page, name: string): Promise<void> {
  await p.evaluate(() => (globalThis as unknown as InPage).scrollTo(0, 0));
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

/** What `page.route` matches: a glob, a pattern, or a predicate of the URL. */
type RouteMatch = string | RegExp | ((url: URL) => boolean);

/**
 * Intercepts the requests that `match` with `handler` until `stop()`. Stopping lets the handlers
 * still running finish (an answer held until the test releases it is answered as arranged), passes
 * on untouched the requests that arrive meanwhile, and only then removes the route. A route removed
 * under a running handler is continued by Playwright itself, and the handler's own answer then fails
 * with "Route is already handled!", in whichever test runs by then.
 */
export async function intercept(p: Page | BrowserContext, match: RouteMatch, handler: (route: Route) => Promise<unknown> | unknown): Promise<{ stop(): Promise<void> }> {
  const running = new Set<Promise<unknown>>();
  let stopping = false;
  const wrapped = (route: Route) => {
    // Once stopping, a request goes on as if not intercepted; if the route is gone by the time this
    // says so, Playwright has already let it go on, which is all this wanted.
    const run = stopping ? route.fallback().catch(() => undefined) : Promise.resolve().then(() => handler(route));
    const tracked: Promise<unknown> = run.finally(() => running.delete(tracked));
    running.add(tracked);
    return tracked;
  };
  await p.route(match, wrapped);
  return {
    async stop() {
      stopping = true;
      while (running.size) await Promise.allSettled([...running]);
      await p.unroute(match, wrapped);
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}

/** Every request the page makes from now on that `match`es; `stop()` ends the recording. */
export function recordRequests(p: Page, match: (r: Request) => boolean): { requests: Request[]; stop(): void } {
  const requests: Request[] = [];
  const on = (r: Request) => {
    if (match(r)) requests.push(r);
  };
  p.on('request', on);
  return { requests, stop: () => p.off('request', on) };
}

/**
 * Registers the first administrator through the admin UI. Registration does not sign in (the API
 * keeps them apart); the page signs the new administrator in with what was typed, so one click of
 * 创建并登录 answers the registration (201) and then the login (200).
 */
export async function registerAndLogin(page: Page, opts: { screenshot?: string } = {}): Promise<void> {
  await page.goto('/admin');
  await page.getByRole('heading', { name: '管理员登录' }).waitFor();
  if (opts.screenshot) await shot(page, opts.screenshot);
  await page.getByRole('button', { name: '首次使用？创建管理员' }).click();
  await page.locator('input[name=username]').fill(ADMIN.username);
  await page.locator('input[name=password]').fill(ADMIN.password);
  const registered = answer(page, '/auth/register', 201, 'POST');
  const loggedIn = answer(page, '/auth/login', 200, 'POST');
  await page.getByRole('button', { name: '创建并登录' }).click();
  await Promise.all([registered, loggedIn]);
  await page.getByTestId('current-user').filter({ hasText: ADMIN.username }).waitFor();
}

/**
 * The admin's confirmation dialog (never `window.confirm`): waits for it, optionally for a text in
 * it, and answers with the button named `button`; answers the dialog locator.
 */
export async function answerDialog(page: Page, button: string, opts: { contains?: string } = {}) {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  if (opts.contains) await dialog.getByText(opts.contains).first().waitFor();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  return dialog;
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

let loads = 0;
/** A full load of an admin page (a hash change alone would keep the page's selection), once the page is there. */
export async function openAdmin(p: Page, route: string): Promise<void> {
  await p.goto(`/admin/?load=${++loads}#/${route}`);
  await p.getByTestId(`page-${route.split('?')[0]}`).waitFor();
}

/**
 * A browser session with the administrator signed in through the admin UI, for a busy machine
 * (60 s waits), where a test that stops with edits unsaved does not keep the next from loading its
 * page (the browser's beforeunload question is accepted); `api` reads what the UI left on the server.
 */
export async function startAdminSession(): Promise<BrowserSession & { api: ReturnType<typeof sessionApi> }> {
  const session = await startBrowserSession();
  const { page } = session;
  page.setDefaultTimeout(60_000);
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
  await registerAndLogin(page);
  return { ...session, api: sessionApi(session.context, session.svc.url) };
}
