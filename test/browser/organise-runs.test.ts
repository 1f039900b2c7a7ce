/**
 * The admin organise page shows the recorded organisation runs (docs/api.md, OrganiseRun): past runs,
 * each run's report with its manual review list linking to the families, clicked through in the built
 * admin SPA against a real service with the demo catalog, and checked against what the server holds.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { answer, registerAndLogin, sessionApi, shot, startBrowserSession, until, type BrowserSession } from '../support/browser';
import type { TestService } from '../support/service';

jest.setTimeout(180_000);

let session: BrowserSession;
let svc: TestService;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof sessionApi>;

interface Run {
  runId: string;
  kind: string;
  state: string;
  startedBy: string;
}

beforeAll(async () => {
  session = await startBrowserSession();
  ({ svc, context, page } = session);
  api = sessionApi(context, svc.url);
});

afterAll(async () => {
  await session?.close();
});

describe('the organise page and the recorded runs', () => {
  it('lists past runs, shows a new run’s report with its review list, links a review to its family, and opens an older report', async () => {
    await registerAndLogin(page);
    const seeded = (await api.get<{ items: Run[] }>('/product-families/organize/runs')).items;
    expect(seeded).toHaveLength(1);
    expect(seeded[0]).toMatchObject({ kind: 'organise', state: 'succeeded', startedBy: 'system:demo' });

    // A manual family with the key of a family that has goods: the next organisation lists it for review.
    const families = (await api.get<{ items: { id: string; familyNameKey: string | null; goodCount: number }[] }>('/product-families?pageSize=100')).items;
    const keeper = families.find((f) => f.familyNameKey && f.goodCount > 0)!;
    const created = await api.call('POST', '/product-families', { name: '待复核的手工系列', familyNameKey: keeper.familyNameKey });
    expect(created.status).toBe(201);
    const manual: string = created.body.id;

    await page.goto('/admin/#/organise');
    await page.getByTestId('page-organise').waitFor();
    const runs = page.getByTestId('organise-run');
    await until(
      () => runs.count(),
      (n) => expect(n).toBe(1),
    );
    expect(await runs.first().getAttribute('data-run-id')).toBe(seeded[0]!.runId);
    // Who started it, in words: the demo's seeding, not its internal name.
    await runs.first().getByTestId('organise-run-by').filter({ hasText: '演示数据初始化' }).waitFor();
    // Opened without a run of its own, the page shows the latest recorded report.
    await page.locator(`[data-testid=organise-report][data-run-id="${seeded[0]!.runId}"]`).waitFor();

    const [posted] = await Promise.all([answer(page, '/product-families/organize', 200, 'POST'), page.getByRole('button', { name: '开始整理' }).click()]);
    const runId: string = (await posted.json()).runId;
    const report = page.locator(`[data-testid=organise-report][data-run-id="${runId}"]`);
    await report.waitFor();
    const review = report.getByTestId('organise-review-row');
    await until(
      () => review.count(),
      (n) => expect(n).toBe(1),
    );
    await review.getByText('系列已锁定').waitFor();
    expect(await review.getByRole('link').getAttribute('href')).toBe(`#/families?id=${manual}`);
    // The new run heads the list, as the server lists it.
    await until(
      () => runs.count(),
      (n) => expect(n).toBe(2),
    );
    const listed = (await api.get<{ items: Run[] }>('/product-families/organize/runs')).items;
    expect(listed.map((r) => r.runId)).toEqual([runId, seeded[0]!.runId]);
    expect([await runs.nth(0).getAttribute('data-run-id'), await runs.nth(1).getAttribute('data-run-id')]).toEqual([runId, seeded[0]!.runId]);
    const recorded = await api.get<{ report: { review: { familyId: string; reason: string }[] } }>(`/product-families/organize/runs/${runId}`);
    expect(recorded.report.review).toEqual([{ familyId: manual, reason: 'LOCKED' }]);
    await shot(page, 'admin-organise-runs');

    // The older run's report, from its record: no review then.
    await Promise.all([answer(page, `/product-families/organize/runs/${seeded[0]!.runId}`, 200, 'GET'), runs.nth(1).getByRole('button', { name: '查看报告' }).click()]);
    const older = page.locator(`[data-testid=organise-report][data-run-id="${seeded[0]!.runId}"]`);
    await older.waitFor();
    expect(await older.getByTestId('organise-review-row').count()).toBe(0);

    // Reopened, the page shows the newest report again; its review entry leads to the family.
    await page.reload();
    await report.waitFor();
    await report.getByTestId('organise-review-row').getByRole('link').click();
    await page.getByTestId('page-families').waitFor();
    await until(
      () => page.getByTestId('family-detail').locator('input[name=family-name]').inputValue(),
      (v) => expect(v).toBe('待复核的手工系列'),
    );
  });
});
