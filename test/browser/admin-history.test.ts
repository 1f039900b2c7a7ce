/**
 * The admin's history and its live sync card, clicked through the built SPA against a real service
 * with the demo catalog (test/support/browser.ts): Back and Forward held up by unsaved edits leave
 * every history entry where it was (after 留在此页, Back still reaches the family the administrator
 * came from), and the sync card says 正在同步 only while a run runs, then that it ended and how.
 * axe-core at 1440×900 and 390×844; screenshots of each state at both sizes into test-results/
 * (`admin-history-<state>-wide.png`, `…-narrow.png`).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expectAccessible } from '../support/axe';
import { answerDialog, intercept, registerAndLogin, sessionApi, shot, startBrowserSession, until, type BrowserSession } from '../support/browser';
import type { TestService } from '../support/service';

jest.setTimeout(300_000);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 390, height: 844 };

let session: BrowserSession;
let svc: TestService;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  session = await startBrowserSession();
  ({ svc, context, page } = session);
  page.setDefaultTimeout(60_000);
  await page.setViewportSize(WIDE);
  api = sessionApi(context, svc.url);
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
  await registerAndLogin(page);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

/** axe and a screenshot at both sizes. */
async function check(name: string): Promise<void> {
  for (const [size, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} (${size})`);
    await shot(page, `admin-history-${name}-${size}`);
  }
  await page.setViewportSize(WIDE);
}

const hashParams = () => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');

describe('unsaved edits and the history', () => {
  it('after 留在此页, Back still goes to the family the administrator came from, and Forward back again', async () => {
    const [a, b] = (await api.get<{ items: { id: string; name: string }[] }>('/product-families?pageSize=2')).items;
    await page.goto(`/admin/?load=history#/families?id=${a!.id}`);
    const name = page.getByTestId('family-detail').locator('input[name=family-name]');
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
    // From A to B (a new history entry), and an edit of B.
    await page.locator(`[data-testid=family-row][data-id="${b!.id}"] a`).click();
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
    await name.fill(`${b!.name} 未保存`);

    // Back: asked; the address stays on B while asked; staying keeps the edit.
    await page.goBack({ waitUntil: 'commit' });
    await page.getByRole('dialog').getByText('放弃未保存的修改？').waitFor();
    await until(
      async () => hashParams().get('id'),
      (id) => expect(id).toBe(b!.id),
    );
    await check('back-asked');
    await answerDialog(page, '留在此页');
    expect(hashParams().get('id')).toBe(b!.id);
    expect(await name.inputValue()).toBe(`${b!.name} 未保存`);

    // Back again: asked again (the entry of A is still there), and leaving goes to A.
    await page.goBack({ waitUntil: 'commit' });
    await answerDialog(page, '放弃修改并离开', { contains: '放弃未保存的修改？' });
    await until(
      async () => hashParams().get('id'),
      (id) => expect(id).toBe(a!.id),
    );
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
    // Forward: B again, nothing to ask (the edit was given up), no entry lost or doubled.
    await page.goForward({ waitUntil: 'commit' });
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
    expect(hashParams().get('id')).toBe(b!.id);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.goBack({ waitUntil: 'commit' });
    await until(
      async () => hashParams().get('id'),
      (id) => expect(id).toBe(a!.id),
    );
  });

  it('Forward held up by edits is undone the same way', async () => {
    const [a, b] = (await api.get<{ items: { id: string; name: string }[] }>('/product-families?pageSize=2')).items;
    await page.goto(`/admin/?load=forward#/families?id=${a!.id}`);
    const name = page.getByTestId('family-detail').locator('input[name=family-name]');
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
    await page.locator(`[data-testid=family-row][data-id="${b!.id}"] a`).click();
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
    await page.goBack({ waitUntil: 'commit' });
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
    await name.fill(`${a!.name} 未保存`);
    await page.goForward({ waitUntil: 'commit' });
    await answerDialog(page, '留在此页', { contains: '放弃未保存的修改？' });
    await until(
      async () => hashParams().get('id'),
      (id) => expect(id).toBe(a!.id),
    );
    expect(await name.inputValue()).toBe(`${a!.name} 未保存`);
    await page.goForward({ waitUntil: 'commit' });
    await answerDialog(page, '放弃修改并离开', { contains: '放弃未保存的修改？' });
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(b!.name),
    );
    await page.goBack({ waitUntil: 'commit' });
    await until(
      () => name.inputValue(),
      (v) => expect(v).toBe(a!.name),
    );
  });
});

describe('the sync card', () => {
  it('says 正在同步 while the run runs, then 上次同步 with how and when it ended', async () => {
    await page.goto('/admin/?load=sync#/sync');
    await page.getByTestId('page-sync').waitFor();
    // The run as the page polls it: running until the test lets the real answer through.
    let running = true;
    const polls = await intercept(
      page,
      (u) => /\/sync\/runs\/[^/]+$/.test(u.pathname),
      async (route) => {
        const real = await route.fetch();
        const run = (await real.json()) as Record<string, unknown>;
        await route.fulfill({ response: real, json: running ? { ...run, state: 'running', finishedAt: null } : run });
      },
    );
    await page.getByRole('button', { name: '同步类目' }).click();
    const live = page.getByTestId('live-run');
    const title = page.getByTestId('live-run-title');
    await until(
      () => title.innerText(),
      (t) => expect(t).toMatch(/^正在同步：类目\s*进行中$/),
    );
    expect(await live.getAttribute('aria-label')).toBe('当前同步');
    await check('sync-running');
    running = false;
    await until(
      () => title.innerText(),
      (t) => expect(t).toMatch(/^上次同步：类目\s*成功 · 结束于 \S+/),
    );
    expect(await live.innerText()).not.toContain('正在同步');
    expect(await live.getAttribute('aria-label')).toBe('上次同步');
    // When it ended, as the server recorded it.
    const latest = (await api.get<{ items: { state: string; finishedAt: string | null }[] }>('/sync/runs')).items[0]!;
    expect(latest.state).toBe('succeeded');
    expect(await title.innerText()).toContain(new Date(latest.finishedAt!).toLocaleString('zh-CN'));
    await check('sync-finished');
    await polls.stop();
  });
});
