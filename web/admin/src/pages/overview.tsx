import type { CatalogOverview } from '../../../../src/contract/overview';
import type { OrganiseStatus } from '../../../../src/contract/organise';
import type { ProjectionView } from '../../../../src/contract/projections';
import type { SyncRunView, SyncSchedule } from '../../../../src/contract/sync';
import { ErrorLine, Loading, Stat } from '../common/components';
import { useLoad } from '../common/hooks';
import { useActor } from '../common/people';
import { hrefOf } from '../common/route';
import { StateBadge } from '../common/run-status';
import { scheduleText, whenText } from '../common/schedule';

/** GET /overview (docs/api.md, Overview). */
type Overview = CatalogOverview;

/** The runs an administrator watches, each with its schedule (the organisation has none). */
const JOBS: { kind: SyncRunView['kind'] | 'organise'; label: string; schedule?: keyof SyncSchedule }[] = [
  { kind: 'categories', label: '类目同步', schedule: 'categories' },
  { kind: 'origin_goods', label: '货源同步', schedule: 'goods' },
  { kind: 'details', label: '货源详情同步', schedule: 'details' },
  { kind: 'organise', label: '整理货源' },
];

/**
 * The admin's first screen: the catalogue in figures, what needs attention (each figure leads to the
 * list behind it), the last run of each synchronisation and of organisation with their schedules in
 * words, whether the data is up to date, and on a fresh install the steps to a working shop.
 */
/** The links a batch should make goods from: in a family, listed, without a good. */
const READY = hrefOf('batch-goods', { hasFamily: 'true', hasGood: 'false', delisted: 'false' });

export function OverviewPage() {
  const o = useLoad<Overview>('/overview');
  const runs = useLoad<{ items: SyncRunView[] }>('/sync/runs');
  const organise = useLoad<OrganiseStatus>('/product-families/organize/status');
  const schedule = useLoad<SyncSchedule>('/sync/schedule');
  const projections = useLoad<{ items: ProjectionView[] }>('/projections');
  const actor = useActor();
  if (o.error) return <ErrorLine error={o.error} />;
  if (!o.data) return <Loading />;
  const d = o.data;
  const lastOrganise = organise.data && organise.data.state !== 'idle' ? organise.data : null;
  const reviewCount = lastOrganise?.counts.review ?? 0;
  const unparseable = lastOrganise?.counts.unparseable ?? 0;
  const steps: { done: boolean; text: string; href: string; testId: string }[] = [
    { done: d.links.total > 0, text: '从供应商同步类目、货源和货源详情', href: hrefOf('sync'), testId: 'step-sync' },
    { done: d.families.total > 0, text: '整理货源：按名称自动归入商品系列', href: hrefOf('organise'), testId: 'step-organise' },
    { done: d.goods.total > 0, text: '为已归入系列的货源批量创建商品，系列就会出现在店铺中', href: READY, testId: 'step-goods' },
    { done: d.vocabulary.positions > 0, text: '设置首页展示位，挑选首页推荐的商品', href: hrefOf('positions'), testId: 'step-positions' },
  ];
  const attention = [
    { value: unparseable, label: '货源名称无法识别', href: hrefOf('organise'), testId: 'attention-unparseable' },
    { value: d.links.incomplete, label: '货源规格不全（无法定价）', href: hrefOf('links', { incomplete: 'true' }), testId: 'attention-incomplete' },
    { value: reviewCount, label: '系列待人工确认', href: hrefOf('organise'), testId: 'attention-review' },
    { value: d.families.unpriced, label: '系列还没有价格', href: hrefOf('families', { unpriced: '1' }), testId: 'attention-unpriced' },
    // A good is in its link's family, or in none and never in the shop: the links are grouped first.
    { value: d.links.withoutFamily, label: '个在售货源未归入系列 → 整理货源', href: hrefOf('organise'), testId: 'attention-without-family' },
    { value: d.families.withoutGood, label: '个系列没有商品（店铺不显示）→ 为已归类货源创建商品', href: READY, testId: 'attention-family-without-good' },
    { value: d.links.groupedWithoutGood, label: '个已归类货源还没有商品 → 创建商品', href: READY, testId: 'attention-without-good' },
  ];
  const lastRun = (kind: string) => runs.data?.items.find((r) => r.kind === kind) ?? null;
  const broken = projections.data?.items.filter((p) => p.state === 'failed' || p.lastError) ?? [];
  const behind = projections.data?.items.filter((p) => p.lagEvents > 0 || p.state === 'rebuilding') ?? [];
  return (
    <div data-testid="overview">
      {!steps.every((s) => s.done) && (
        <section className="card" aria-labelledby="steps-title" data-testid="next-steps">
          <h2 id="steps-title">开始使用：接下来要做的</h2>
          <ol className="steps">
            {steps.map((s) => (
              <li key={s.testId} className={s.done ? 'done' : undefined} data-testid={s.testId} data-done={s.done ? 'true' : 'false'}>
                {s.done ? <span className="badge green">已完成</span> : <span className="badge amber">待完成</span>} <a href={s.href}>{s.text}</a>
              </li>
            ))}
          </ol>
        </section>
      )}
      <section className="card" aria-labelledby="catalogue-title">
        <h2 id="catalogue-title">商品目录</h2>
        <div className="stats" data-testid="overview-figures">
          <Stat value={d.families.total} label="商品系列" href={hrefOf('families')} testId="figure-families" />
          <Stat value={d.families.public} label="店铺中在售的系列" tone="good" href={hrefOf('families')} testId="figure-public" />
          <Stat value={d.goods.total} label="商品" href={hrefOf('goods')} testId="figure-goods" />
          <Stat value={d.links.total} label="供应商货源" href={hrefOf('links')} testId="figure-links" />
          <Stat value={d.links.delisted} label="已下架的货源" href={hrefOf('links', { delisted: 'true' })} testId="figure-delisted" />
        </div>
      </section>
      <section className="card" aria-labelledby="attention-title">
        <h2 id="attention-title">需要处理</h2>
        <div className="stats" data-testid="overview-attention">
          {attention.map((a) => (
            <Stat key={a.testId} value={a.value} label={a.label} href={a.href} tone={a.value > 0 ? 'warn' : 'good'} testId={a.testId} />
          ))}
        </div>
      </section>
      <section className="card" aria-labelledby="runs-title">
        <h2 id="runs-title">同步与整理</h2>
        <ErrorLine error={runs.error || organise.error || schedule.error} />
        <div className="scroll" tabIndex={0} role="region" aria-label="同步与整理">
          <table data-testid="overview-runs">
            <thead>
              <tr>
                <th scope="col">任务</th>
                <th scope="col">上次运行</th>
                <th scope="col">结果</th>
                <th scope="col">发起</th>
                <th scope="col">计划</th>
              </tr>
            </thead>
            <tbody>
              {JOBS.map((j) => {
                const run = j.kind === 'organise' ? lastOrganise : lastRun(j.kind);
                const plan = j.schedule ? schedule.data?.[j.schedule] : null;
                return (
                  <tr key={j.kind} data-testid={`run-${j.kind}`}>
                    <th scope="row">{j.label}</th>
                    <td>{run ? whenText(run.finishedAt ?? run.startedAt) : '还没有运行过'}</td>
                    <td>{run ? <StateBadge s={run.state} /> : '—'}</td>
                    <td>{run ? actor(run.startedBy) : '—'}</td>
                    <td data-testid={`schedule-${j.kind}`}>
                      {j.schedule ? (plan ? `${scheduleText(plan.cron)}${plan.next ? `（下次 ${whenText(plan.next)}）` : ''}` : '…') : '手动运行'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
      <section className="card" aria-labelledby="health-title">
        <h2 id="health-title">数据状态</h2>
        <ErrorLine error={projections.error} />
        {projections.data && (
          <p data-testid="overview-health">
            {broken.length > 0 ? (
              <span className="error">
                有 {broken.length} 项数据更新出错，店铺可能显示旧内容。<a href={hrefOf('projections')}>查看系统状态</a>
              </span>
            ) : behind.length > 0 ? (
              <span>正在更新数据（{behind.reduce((n, p) => n + p.lagEvents, 0)} 条更改待处理），店铺很快会显示最新内容。</span>
            ) : (
              <span className="ok">数据已是最新，店铺显示的就是后台的内容。</span>
            )}
          </p>
        )}
      </section>
    </div>
  );
}
