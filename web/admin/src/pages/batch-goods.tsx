import { useState } from 'react';
import { api } from '../api';
import type { BatchAnswer } from '../../../shared/responses/goods';
import type { Link } from '../../../shared/responses/links';
import type { Page } from '../../../shared/responses/page';
import { ErrorLine, KeywordSearch, Pager, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';

/**
 * Goods from selected links in one request (POST /goods/batch {originGoodIds}): a link that has a
 * good already is not offered; one that got a good meanwhile comes back as skipped, with the reason.
 * The selection survives paging and searching, so links of several pages go in one batch.
 */
export function BatchGoodsPage() {
  const [keyword, setKeyword] = useState('');
  const [q, setQ] = useState('');
  const [organised, setOrganised] = useState('');
  const [page, setPage] = useState(1);
  const list = useLoad<Page<Link>>(`/origin-goods?page=${page}&pageSize=50${q ? `&keyword=${encodeURIComponent(q)}` : ''}${organised ? `&organised=${organised}` : ''}`);
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [result, setResult] = useState<BatchAnswer | null>(null);
  const a = useAction();
  const free = (list.data?.items ?? []).filter((l) => !l.good);
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
  return (
    <>
      <div className="card">
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <KeywordSearch keyword={keyword} setKeyword={setKeyword} onSearch={() => { setPage(1); setQ(keyword); }} />
          <label style={{ flexDirection: 'row', alignItems: 'center' }}>整理状态
            <select data-testid="batch-organised" value={organised} onChange={(e) => { setPage(1); setOrganised(e.target.value); }}>
              <option value="">全部</option>
              <option value="true">已整理</option>
              <option value="false">未整理</option>
            </select>
          </label>
        </div>
        <div className="row" style={{ margin: '8px 0' }}>
          <button className="secondary" disabled={free.length === 0} onClick={() => free.forEach((l) => toggle(l, true))}>全选本页可创建的链接</button>
          <button className="secondary" disabled={selected.size === 0} onClick={() => setSelected(new Map())}>清空选择</button>
          <button data-testid="batch-create" disabled={a.busy || selected.size === 0} onClick={create}>为选中的 {selected.size} 个链接创建商品</button>
          <Status a={a} />
        </div>
        {result && (
          <div data-testid="batch-result" className="inset card">
            <div>已创建 <b data-testid="batch-created-count">{result.created.length}</b> 个商品{result.created.length > 0 && <>：{result.created.map((id) => <a key={id} href={`#/goods?id=${id}`} style={{ marginRight: 6 }}>#{id}</a>)}</>}</div>
            {result.skipped.length > 0 && (
              <ul data-testid="batch-skipped">
                {result.skipped.map((s) => <li key={s.originGoodId} className="error">链接 #{s.originGoodId} 跳过：{s.code === 'GOOD.EXISTS_FOR_LINK' ? '已有商品' : s.code === 'ORIGIN_GOOD.NOT_FOUND' ? '链接不存在' : s.message}</li>)}
              </ul>
            )}
          </div>
        )}
        <ErrorLine error={list.error} />
        <div className="scroll">
          <table data-testid="batch-links">
            <thead><tr><th style={{ width: 36 }}></th><th>链接</th><th>价格</th><th>商品</th></tr></thead>
            <tbody>
              {list.data?.items.length === 0 && <tr><td colSpan={4} className="muted">没有链接</td></tr>}
              {list.data?.items.map((l) => (
                <tr key={l.id} data-testid="batch-link" data-id={l.id} className={selected.has(l.id) ? 'selected' : ''}>
                  <td><input type="checkbox" aria-label={`选择链接 ${l.id}`} disabled={!!l.good} checked={selected.has(l.id)} onChange={(e) => toggle(l, e.target.checked)} /></td>
                  <td>{l.name}{l.delisted && <span className="badge red">已下架</span>}{!l.parsed && <span className="badge amber">未整理</span>}<div className="muted">#{l.id}</div></td>
                  <td>¥{l.price}</td>
                  <td>{l.good ? <a href={`#/goods?id=${l.good.id}`}>#{l.good.id}</a> : <span className="muted">无</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.data && <Pager page={page} setPage={setPage} list={list.data} />}
      </div>
      {selected.size > 0 && (
        <div className="card" data-testid="batch-selection">
          <h2 style={{ marginTop: 0 }}>已选择 {selected.size} 个链接</h2>
          {[...selected].map(([id, name]) => (
            <span key={id} className="badge blue">{name} #{id} <button className="link" aria-label={`取消选择 ${id}`} onClick={() => setSelected((m) => { const n = new Map(m); n.delete(id); return n; })}>×</button></span>
          ))}
        </div>
      )}
    </>
  );
}
