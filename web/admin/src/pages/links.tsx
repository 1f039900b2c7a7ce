import { useState } from 'react';
import { api } from '../api';
import { ApiError } from '../../../shared/http';
import type { Good } from '../../../../src/contract/goods';
import type { Link } from '../../../../src/contract/links';
import type { Page } from '../../../../src/contract/page';
import { ErrorLine, KeywordSearch, LinkName, Loading, ScopeChip, Status, Toggle } from '../common/components';
import { errorText } from '../common/error-text';
import { useAction, useLoad } from '../common/hooks';
import { MasterDetail, MasterList } from '../common/master-list';
import { nameProblemText } from '../common/names';
import { showPrice } from '../common/price';
import { hrefOf, useListAddress, useUnsavedEdits } from '../common/route';
import { DIM_LABEL, TagPicker, useTags, type Dimension } from '../common/tags';
import { usePlaces } from '../common/vocab';
import { HistorySection } from '../common/history/history-section';
import { LinkDetail } from './link-detail';
import { LinkHistory } from './link-history';

/** Filters the page takes from its address: the overview and refused deletes link to them. */
const SCOPES = ['categoryId', 'countryId', 'tagId', 'familyId'] as const;

/**
 * The supplier's items (货源): a list with search and filters, and the selected one's name as read,
 * its tags (taken over by hand, or derived), its good, and its supplier detail.
 */
export function LinksPage() {
  const { params, setParams, q, page, selected, keyword, setKeyword, search, setPage, itemHref, listHref } = useListAddress('links');
  const query = new URLSearchParams({ page: String(page), pageSize: '30' });
  if (q) query.set('keyword', q);
  for (const k of [...SCOPES, 'organised', 'delisted', 'incomplete', 'hasGood'] as const) if (params.get(k)) query.set(k, params.get(k)!);
  const list = useLoad<Page<Link>>(`/origin-goods?${query}`);
  const { country, category } = usePlaces();
  const vocab = useTags();
  const scopeText = (k: (typeof SCOPES)[number]) => {
    const v = params.get(k);
    if (k === 'categoryId') return `类目：${category(v) || '…'}`;
    if (k === 'countryId') return `国家：${country(v) || '…'}`;
    if (k === 'tagId') return `规格：${vocab?.tags.find((t) => t.id === v)?.name ?? '…'}`;
    return '同一系列的货源';
  };
  const flag = (k: string, value = 'true') => params.get(k) === value;
  const toggle = (k: string, value = 'true') => setParams({ [k]: flag(k, value) ? null : value, page: null });
  const toolbar = (
    <div className="toolbar">
      <KeywordSearch keyword={keyword} setKeyword={setKeyword} label="搜索货源" placeholder="货源名称" onSearch={search} />
      <div className="row" role="group" aria-label="筛选">
        <Toggle on={flag('organised', 'false')} onClick={() => toggle('organised', 'false')} testId="filter-unorganised">
          未整理
        </Toggle>
        <Toggle on={flag('incomplete')} onClick={() => toggle('incomplete')} testId="filter-incomplete">
          规格不全
        </Toggle>
        <Toggle on={flag('hasGood', 'false')} onClick={() => toggle('hasGood', 'false')} testId="filter-without-good">
          没有商品
        </Toggle>
        <Toggle on={flag('delisted')} onClick={() => toggle('delisted')} testId="filter-delisted">
          已下架
        </Toggle>
      </div>
      {SCOPES.filter((k) => params.get(k)).map((k) => (
        <ScopeChip key={k} testId="links-scope" text={scopeText(k)} onClear={() => setParams({ [k]: null, page: null })} />
      ))}
    </div>
  );
  return (
    <MasterDetail
      selected={!!selected}
      backHref={listHref}
      list={
        <MasterList<Link>
          label="货源列表"
          testId="link-list"
          rowTestId="link-row"
          list={list}
          page={page}
          setPage={setPage}
          toolbar={toolbar}
          primaryLabel="货源"
          primary={(l) => <LinkName link={l} />}
          columns={[
            { label: '价格', render: (l) => showPrice(l.price) },
            { label: '规格标签', render: (l) => (l.tagsManual ? <span className="badge amber">手动</span> : <span className="badge">自动</span>) },
            { label: '商品', className: 'hide-narrow', render: (l) => (l.good ? <span className="badge green">已建</span> : <span className="muted">无</span>) },
          ]}
          hrefOf={(l) => itemHref(l.id)}
          selectedId={selected}
          empty={[...query.keys()].length > 2 ? '没有符合条件的货源' : '还没有货源：先同步供应商数据'}
          suggestionHref={(id) => hrefOf('links', { categoryId: id })}
        />
      }
      detail={
        selected ? (
          <div>
            <LinkTags key={selected} id={selected} onSaved={list.reload} />
            <LinkDetail key={`detail-${selected}`} id={selected} />
            <section className="card" aria-label="货源的历史">
              <HistorySection key={`history-${selected}`} testId="link-history-section">
                <LinkHistory id={selected} />
              </HistorySection>
            </section>
          </div>
        ) : (
          <div className="card muted">在左侧选择一个货源，查看名称识别、规格标签和供应商详情</div>
        )
      }
    />
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
  const [result, setResult] = useState<{ kind: 'exists' | 'error'; message: string } | null>(null);
  const create = async () => {
    setBusy(true);
    setResult(null);
    try {
      await api.request<Good>('POST', '/goods', { originGoodId: linkId });
      onChanged();
    } catch (e) {
      const err = e as ApiError;
      if (err.code === 'GOOD.EXISTS_FOR_LINK') {
        setResult({ kind: 'exists', message: '该货源已有商品（刚由其他人创建），不能再创建' });
        onChanged();
      } else setResult({ kind: 'error', message: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row" data-testid="link-good">
      {good ? (
        <span>
          商品：<a href={hrefOf('goods', { id: good.id })}>{good.name}</a>
        </span>
      ) : (
        <button type="button" className="secondary" disabled={busy} onClick={create}>
          为这个货源创建商品
        </button>
      )}
      {result && (
        <span className="error" role="alert">
          {result.message}
        </span>
      )}
    </div>
  );
}

function LinkTags({ id, onSaved }: { id: string; onSaved: () => void }) {
  const l = useLoad<Link>(`/origin-goods/${id}`);
  // null: the tags as saved; a list: what the administrator ticked.
  const [ticked, setTagIds] = useState<string[] | null>(null);
  const [filled, setFilled] = useState<{ name: string; dimension: string }[] | null>(null);
  const a = useAction();
  const savedIds = l.data?.tags.map((t) => t.id) ?? [];
  const tagIds = ticked ?? savedIds;
  useUnsavedEdits(ticked !== null && [...ticked].sort().join(',') !== [...savedIds].sort().join(','));
  if (l.error)
    return (
      <div className="card">
        <ErrorLine error={l.error} />
      </div>
    );
  if (!l.data)
    return (
      <div className="card">
        <Loading />
      </div>
    );
  const d = l.data;
  return (
    <section className="card" data-testid="link-tags" aria-labelledby={`link-${id}-title`}>
      <h2 id={`link-${id}-title`}>{d.name}</h2>
      <div className="row">
        <span>{showPrice(d.price)}</span>
        {d.craftLabel && <span className="badge">{d.craftLabel}</span>}
        {d.family ? <a href={hrefOf('families', { id: d.family.id })}>所在系列（{d.family.memberCount} 个货源）</a> : <span className="muted">不在任何系列中</span>}
      </div>
      <p data-testid="link-parsed">
        {d.parsed ? (
          <>
            名称识别：国家 <b>{d.parsed.country}</b> · 物流 <b>{d.parsed.logistics}</b> · 品名 <b>{d.parsed.productName}</b> · 款号 <b>{d.parsed.sku}</b>
          </>
        ) : d.nameProblem ? (
          <span className="error">名称无法识别：{nameProblemText(d.nameProblem)}</span>
        ) : (
          <span className="muted">名称可以识别，下次整理货源时会归入系列</span>
        )}
      </p>
      <LinkGood
        linkId={id}
        good={d.good}
        onChanged={() => {
          l.reload();
          onSaved();
        }}
      />
      <p>
        规格标签：<span data-testid="tags-source">{d.tagsManual ? <span className="badge amber">手动设置</span> : <span className="badge">自动生成</span>}</span>
        {d.tagsMissing && d.tagsMissing.length > 0 && <span className="error"> 缺少{d.tagsMissing.map(dimLabel).join('、')}，无法生成价格</span>}
      </p>
      <TagPicker value={tagIds} onChange={setTagIds} />
      <p className="muted">保存后改为手动设置：留空的规格会按货源名称自动补上。</p>
      <div className="row" style={{ marginTop: 12 }}>
        <button
          type="button"
          disabled={a.busy}
          onClick={() =>
            a.run(async () => {
              const r = await api.request<{ filledDimensionTags: { name: string; dimension: string }[]; attachedFamilyId: string | null }>('PUT', `/origin-goods/${id}/tags`, {
                tagIds,
              });
              setFilled(r.filledDimensionTags ?? []);
              setTagIds(null);
              l.reload();
              onSaved();
            }, '已改为手动设置的规格标签')
          }
        >
          保存（手动设置）
        </button>
        <button
          type="button"
          className="secondary"
          disabled={a.busy || !d.tagsManual}
          onClick={() =>
            a.run(async () => {
              await api.request('POST', `/origin-goods/${id}/tags/restore-auto`);
              setFilled(null);
              setTagIds(null);
              l.reload();
              onSaved();
            }, '已恢复自动生成的规格标签')
          }
        >
          恢复自动
        </button>
        <Status a={a} />
      </div>
      {filled && (
        <div className="muted" data-testid="filled-tags">
          {filled.length ? (
            <>
              按名称自动补上的规格：
              {filled.map((f) => (
                <span key={`${f.dimension}-${f.name}`} className="badge blue">
                  {dimLabel(f.dimension)}：{f.name}
                </span>
              ))}
            </>
          ) : (
            '没有需要自动补上的规格'
          )}
        </div>
      )}
    </section>
  );
}
