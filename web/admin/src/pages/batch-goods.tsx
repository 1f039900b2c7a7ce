import { useId, useState } from 'react';
import { api } from '../api';
import type { BatchAnswer } from '../../../../src/contract/goods';
import type { Link } from '../../../../src/contract/links';
import type { Page } from '../../../../src/contract/page';
import { KeywordSearch, LinkName, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { MasterList } from '../common/master-list';
import { showPrice } from '../common/price';
import { hrefOf, useListAddress } from '../common/route';
import { BatchResult } from './batch-result';
import { BatchSelection } from './batch-selection';

/**
 * Goods from selected links in one request (POST /goods/batch {originGoodIds}): a link that has a
 * good already cannot be picked; one that got a good meanwhile comes back as skipped, with the
 * reason. The selection survives paging and searching, so links of several pages go in one batch.
 * Each link says the family its good joins; a link in none is flagged before and after, since its
 * good would not show in the shop (docs/domain.md, Public catalog).
 */
export function BatchGoodsPage() {
  const { params, setParams, q, page, keyword, setKeyword, search, setPage } = useListAddress('batch-goods');
  const organised = params.get('organised') ?? '';
  const query = new URLSearchParams({ page: String(page), pageSize: '50' });
  if (q) query.set('keyword', q);
  if (organised) query.set('organised', organised);
  const grouped = params.get('hasFamily') ?? '';
  if (grouped) query.set('hasFamily', grouped);
  for (const k of ['hasGood', 'delisted']) if (params.get(k)) query.set(k, params.get(k)!);
  const list = useLoad<Page<Link>>(`/origin-goods?${query}`);
  const [selected, setSelected] = useState<Map<string, Link>>(new Map());
  const [result, setResult] = useState<{ answer: BatchAnswer; sent: Map<string, Link> } | null>(null);
  const a = useAction();
  const orgId = useId();
  const familyId = useId();
  const free = (list.data?.items ?? []).filter((l) => !l.good);
  const loose = [...selected.values()].filter((l) => !l.family).length;
  const toggle = (l: Link, on: boolean) =>
    setSelected((m) => {
      const next = new Map(m);
      if (on) next.set(l.id, l);
      else next.delete(l.id);
      return next;
    });
  const drop = (ids: string[]) => setSelected((m) => new Map([...m].filter(([id]) => !ids.includes(id))));
  const create = () =>
    a.run(async () => {
      const answer = await api.request<BatchAnswer>('POST', '/goods/batch', { originGoodIds: [...selected.keys()] });
      setResult({ answer, sent: selected });
      setSelected(new Map());
      list.reload();
    }, '批量创建完成');
  const toolbar = (
    <div className="toolbar">
      <KeywordSearch keyword={keyword} setKeyword={setKeyword} label="搜索货源" placeholder="货源名称" onSearch={search} />
      <span className="inline">
        <label htmlFor={orgId} className="inline">
          整理状态
        </label>
        <select id={orgId} data-testid="batch-organised" value={organised} onChange={(e) => setParams({ organised: e.target.value, page: null })}>
          <option value="">全部</option>
          <option value="true">已整理</option>
          <option value="false">未整理</option>
        </select>
      </span>
      <span className="inline">
        <label htmlFor={familyId} className="inline">
          系列
        </label>
        <select id={familyId} data-testid="batch-has-family" value={grouped} onChange={(e) => setParams({ hasFamily: e.target.value, page: null })}>
          <option value="">全部</option>
          <option value="true">已归入系列</option>
          <option value="false">未归入系列（商品不会在店铺展示）</option>
        </select>
      </span>
      <div className="row">
        <button type="button" className="secondary" disabled={free.length === 0} onClick={() => free.forEach((l) => toggle(l, true))}>
          全选本页可创建的货源
        </button>
        <button type="button" className="secondary" disabled={selected.size === 0} onClick={() => setSelected(new Map())}>
          清空选择
        </button>
        <button type="button" data-testid="batch-create" disabled={a.busy || selected.size === 0} onClick={create}>
          为选中的 {selected.size} 个货源创建商品
        </button>
        {loose > 0 && (
          <span className="error" data-testid="batch-loose-note">
            其中 {loose} 个未归入系列，商品不会在店铺展示
          </span>
        )}
        <Status a={a} />
      </div>
    </div>
  );
  return (
    <>
      {result && <BatchResult result={result.answer} sent={result.sent} />}
      <MasterList<Link>
        label="可创建商品的货源"
        testId="batch-links"
        rowTestId="batch-link"
        list={list}
        page={page}
        setPage={setPage}
        toolbar={toolbar}
        primaryLabel="货源"
        primary={(l) => <LinkName link={l} />}
        columns={[
          { label: '价格', render: (l) => showPrice(l.price) },
          {
            label: '加入的系列',
            render: (l) =>
              l.family ? (
                <a href={hrefOf('families', { id: l.family.id })}>{l.family.name}</a>
              ) : (
                <span className="badge amber" data-testid="batch-no-family">
                  未归入系列
                </span>
              ),
          },
          { label: '商品', render: (l) => (l.good ? <a href={hrefOf('goods', { id: l.good.id })}>{l.good.name}</a> : <span className="muted">无</span>) },
        ]}
        pick={{ can: (l) => !l.good, has: (l) => selected.has(l.id), toggle, name: (l) => l.name }}
        empty="没有符合条件的货源"
      />
      {selected.size > 0 && <BatchSelection selected={selected} drop={drop} />}
    </>
  );
}
