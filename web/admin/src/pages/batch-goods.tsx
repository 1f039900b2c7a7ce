import { useId, useState } from 'react';
import { api } from '../api';
import type { BatchAnswer } from '../../../../src/contract/goods';
import type { Link } from '../../../../src/contract/links';
import type { Page } from '../../../../src/contract/page';
import { KeywordSearch, LinkName, Status } from '../common/components';
import { CODE_TEXT } from '../common/error-text';
import { useAction, useLoad } from '../common/hooks';
import { MasterList } from '../common/master-list';
import { useNames } from '../common/names';
import { showPrice } from '../common/price';
import { hrefOf, useListAddress } from '../common/route';

/**
 * Goods from selected links in one request (POST /goods/batch {originGoodIds}): a link that has a
 * good already cannot be picked; one that got a good meanwhile comes back as skipped, with the
 * reason. The selection survives paging and searching, so links of several pages go in one batch.
 */
export function BatchGoodsPage() {
  const { params, setParams, q, page, keyword, setKeyword, search, setPage } = useListAddress('batch-goods');
  const organised = params.get('organised') ?? '';
  const query = new URLSearchParams({ page: String(page), pageSize: '50' });
  if (q) query.set('keyword', q);
  if (organised) query.set('organised', organised);
  if (params.get('hasGood')) query.set('hasGood', params.get('hasGood')!);
  const list = useLoad<Page<Link>>(`/origin-goods?${query}`);
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [result, setResult] = useState<BatchAnswer | null>(null);
  const a = useAction();
  const orgId = useId();
  const free = (list.data?.items ?? []).filter((l) => !l.good);
  const created = useNames('goods', result?.created ?? []);
  // This page sends links only, so every skipped item names one.
  const skippedNames = useNames('origin-goods', result?.skipped.flatMap((s) => (s.originGoodId ? [s.originGoodId] : [])) ?? []);
  const toggle = (l: Link, on: boolean) =>
    setSelected((m) => {
      const next = new Map(m);
      if (on) next.set(l.id, l.name);
      else next.delete(l.id);
      return next;
    });
  const create = () =>
    a.run(async () => {
      const r = await api.request<BatchAnswer>('POST', '/goods/batch', { originGoodIds: [...selected.keys()] });
      setResult(r);
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
        <Status a={a} />
      </div>
    </div>
  );
  return (
    <>
      {result && (
        <div data-testid="batch-result" className="card" role="status">
          <div>
            已创建 <b data-testid="batch-created-count">{result.created.length}</b> 个商品
            {result.created.length > 0 && (
              <>
                ：
                {result.created.map((id) => (
                  <a key={id} href={hrefOf('goods', { id })} style={{ marginRight: 6 }}>
                    {created[id] ?? '…'}
                  </a>
                ))}
              </>
            )}
          </div>
          {result.skipped.length > 0 && (
            <ul data-testid="batch-skipped">
              {result.skipped.map((s) => (
                <li key={s.index} className="error" data-id={s.originGoodId ?? undefined}>
                  货源「{(s.originGoodId && skippedNames[s.originGoodId]) ?? '…'}」跳过：{s.code === 'GOOD.EXISTS_FOR_LINK' ? '已有商品' : (CODE_TEXT[s.code] ?? '无法创建')}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
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
          { label: '商品', render: (l) => (l.good ? <a href={hrefOf('goods', { id: l.good.id })}>{l.good.name}</a> : <span className="muted">无</span>) },
        ]}
        pick={{ can: (l) => !l.good, has: (l) => selected.has(l.id), toggle, name: (l) => l.name }}
        empty="没有符合条件的货源"
      />
      {selected.size > 0 && (
        <section className="card" data-testid="batch-selection" aria-label="已选择的货源">
          <h2 style={{ marginTop: 0 }}>已选择 {selected.size} 个货源</h2>
          {[...selected].map(([id, name]) => (
            <span key={id} className="badge blue" data-id={id}>
              {name}{' '}
              <button
                type="button"
                className="link"
                aria-label={`取消选择 ${name}`}
                onClick={() =>
                  setSelected((m) => {
                    const n = new Map(m);
                    n.delete(id);
                    return n;
                  })
                }
              >
                ×
              </button>
            </span>
          ))}
        </section>
      )}
    </>
  );
}
