import { useEffect, useState } from 'react';
import { api } from '../api';
import { ApiError } from '../../../shared/http';
import type { Good } from '../../../shared/responses/goods';
import type { Link } from '../../../shared/responses/links';
import type { Page } from '../../../shared/responses/page';
import { ErrorLine, KeywordSearch, Pager, Status } from '../common/components';
import { errorText } from '../common/error-text';
import { useAction, useLoad } from '../common/hooks';
import { queryId } from '../common/location';
import { DIM_LABEL, TagPicker, type Dimension } from '../common/tags';
import { LinkDetail } from './link-detail';

export function LinksPage() {
  const [keyword, setKeyword] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const list = useLoad<Page<Link>>(`/origin-goods?page=${page}&pageSize=30${q ? `&keyword=${encodeURIComponent(q)}` : ''}`);
  const [selected, setSelected] = useState<string | null>(queryId());
  return (
    <div className="grid2">
      <div className="card">
        <KeywordSearch keyword={keyword} setKeyword={setKeyword} onSearch={() => { setPage(1); setQ(keyword); }} />
        <ErrorLine error={list.error} />
        <div className="scroll">
          <table>
            <thead><tr><th>链接</th><th>价格</th><th>标签</th></tr></thead>
            <tbody>
              {list.data?.items.length === 0 && <tr><td colSpan={3} className="muted">没有链接</td></tr>}
              {list.data?.items.map((l) => (
                <tr key={l.id} data-testid="link-row" className={l.id === selected ? 'selected' : ''} onClick={() => setSelected(l.id)} style={{ cursor: 'pointer' }}>
                  <td>{l.name}{l.delisted && <span className="badge red">已下架</span>}<div className="muted">#{l.id}</div></td>
                  <td>¥{l.price}</td>
                  <td>{l.tagsManual ? <span className="badge amber">人工</span> : <span className="badge">自动</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.data && <Pager page={page} setPage={setPage} list={list.data} />}
      </div>
      {selected ? (
        <div>
          <LinkTags key={selected} id={selected} onSaved={list.reload} />
          <LinkDetail key={`detail-${selected}`} id={selected} />
        </div>
      ) : <div className="card muted">选择一个链接查看和接管标签</div>}
    </div>
  );
}

const dimLabel = (d: string) => DIM_LABEL[d as Dimension] ?? d;

/**
 * The good made from a link, or POST /goods {originGoodId} to make it. A link has at most one: when
 * another administrator made it meanwhile, the 409 GOOD.EXISTS_FOR_LINK names it, and the link is
 * read again so the box shows that good instead of offering to create one.
 */
function LinkGood({ linkId, good, onChanged }: { linkId: string; good: { id: string; name: string } | null; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'exists' | 'error'; goodId?: string; message?: string } | null>(null);
  const create = async () => {
    setBusy(true);
    setResult(null);
    try {
      await api.request<Good>('POST', '/goods', { originGoodId: linkId });
      onChanged();
    } catch (e) {
      const err = e as ApiError;
      const existing = (err.details as { goodId?: string } | undefined)?.goodId;
      if (err.code === 'GOOD.EXISTS_FOR_LINK') {
        setResult({ kind: 'exists', ...(existing ? { goodId: existing } : {}), message: err.message });
        onChanged();
      } else setResult({ kind: 'error', message: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row" data-testid="link-good">
      {good ? (
        <span>商品：<a href={`#/goods?id=${good.id}`}>{good.name}</a> <span className="muted">#{good.id}</span></span>
      ) : (
        <button className="secondary" disabled={busy} onClick={create}>为此链接创建商品</button>
      )}
      {result?.kind === 'exists' && (
        <span className="error" role="alert">
          该链接已有商品{result.goodId ? <> <a href={`#/goods?id=${result.goodId}`}>#{result.goodId}</a>，不能再创建</> : `（${result.message}）`}
        </span>
      )}
      {result?.kind === 'error' && <span className="error" role="alert">{result.message}</span>}
    </div>
  );
}

function LinkTags({ id, onSaved }: { id: string; onSaved: () => void }) {
  const l = useLoad<Link>(`/origin-goods/${id}`);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [filled, setFilled] = useState<{ name: string; dimension: string }[] | null>(null);
  const a = useAction();
  useEffect(() => { if (l.data) setTagIds(l.data.tags.map((t) => t.id)); }, [l.data]);
  if (l.error) return <div className="card"><ErrorLine error={l.error} /></div>;
  if (!l.data) return <div className="card muted">加载中…</div>;
  const d = l.data;
  return (
    <div className="card" data-testid="link-tags">
      <h2>{d.name}</h2>
      <div className="row">
        <span>¥{d.price}</span>
        {d.craftLabel && <span className="badge">{d.craftLabel}</span>}
        {d.parsed ? <span className="muted">解析：{d.parsed.country} / {d.parsed.productName} / {d.parsed.sku} / {d.parsed.logistics}</span> : <span className="badge red">未解析</span>}
        {d.family ? <a href={`#/families?id=${d.family.id}`}>系列（{d.family.memberCount} 个成员）</a> : <span className="muted">未归入系列</span>}
      </div>
      <LinkGood linkId={id} good={d.good} onChanged={() => { l.reload(); onSaved(); }} />
      <p>标签来源：<span data-testid="tags-source">{d.tagsManual ? <span className="badge amber">人工接管</span> : <span className="badge">自动派生</span>}</span>
        {d.tagsMissing && d.tagsMissing.length > 0 && <span className="error"> 缺少维度：{d.tagsMissing.map(dimLabel).join('、')}</span>}</p>
      <TagPicker value={tagIds} onChange={setTagIds} />
      <p className="muted">保存即人工接管：留空的维度由链接名称自动补全。</p>
      <div className="row" style={{ marginTop: 12 }}>
        <button disabled={a.busy} onClick={() => a.run(async () => {
          const r = await api.request<{ filledDimensionTags: { name: string; dimension: string }[]; attachedFamilyId: string | null }>('PUT', `/origin-goods/${id}/tags`, { tagIds });
          setFilled(r.filledDimensionTags ?? []);
          l.reload(); onSaved();
        }, '已人工接管标签')}>保存（人工接管）</button>
        <button className="secondary" disabled={a.busy || !d.tagsManual} onClick={() => a.run(async () => {
          await api.request('POST', `/origin-goods/${id}/tags/restore-auto`);
          setFilled(null);
          l.reload(); onSaved();
        }, '已恢复自动标签')}>恢复自动</button>
        <Status a={a} />
      </div>
      {filled && (
        <div className="muted" data-testid="filled-tags">
          {filled.length ? <>自动补全的维度标签：{filled.map((f) => <span key={`${f.dimension}-${f.name}`} className="badge blue">{dimLabel(f.dimension)}：{f.name}</span>)}</> : '没有需要自动补全的维度'}
        </div>
      )}
    </div>
  );
}
