import { useEffect, useId, useRef, useState } from 'react';
import { api } from '../api';
import type { Good } from '../../../../src/contract/goods';
import type { Link } from '../../../../src/contract/links';
import type { Page } from '../../../../src/contract/page';
import { ErrorLine, FieldError, KeywordSearch, Loading, ScopeChip, SearchPicker, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { MasterDetail, MasterList } from '../common/master-list';
import { BulkBar, pickOf, useBulkSelection } from '../common/bulk-select';
import { rememberName, useNames } from '../common/names';
import { showPrice } from '../common/price';
import { hrefOf, navigate, useListAddress, useUnsavedEdits } from '../common/route';
import { TagPicker } from '../common/tags';
import { usePlaces } from '../common/vocab';
import { HistorySection } from '../common/history/history-section';
import { GoodHistory } from './good-history';
import { DeleteGood, GoodsListControls, HEX, PlacementFields } from './good-fields';
import { SHELF_LABEL, ShelfBadge, ShelfFilter } from '../common/shelf';

/** Filters the page takes from its address (the overview and refused deletes link to them). */
const FILTERS = ['countryId', 'categoryId', 'familyId', 'custom'] as const;

export function GoodsPage() {
  const { params, setParams, q, page, selected, keyword, setKeyword, search, setPage, itemHref, listHref } = useListAddress('goods');
  const tagIds = (params.get('tagIds') ?? '').split(',').filter(Boolean);
  const sort = params.get('sort') ?? '';
  const query = new URLSearchParams({ page: String(page), pageSize: '30' });
  if (q) query.set('keyword', q);
  if (tagIds.length) query.set('tagIds', tagIds.join(','));
  if (sort) query.set('sort', sort);
  for (const f of FILTERS) if (params.get(f)) query.set(f, params.get(f)!);
  const shelf = params.get('shelf') ?? '';
  if (shelf) query.set('shelf', shelf);
  const list = useLoad<Page<Good>>(`/goods?${query}`);
  // The list's filter without its paging and order: what "every match" sends (docs/api.md, Bulk changes).
  const filter = Object.fromEntries([...query].filter(([k]) => k !== 'page' && k !== 'pageSize' && k !== 'sort'));
  const sel = useBulkSelection(JSON.stringify(filter));
  const pageIds = (list.data?.items ?? []).map((g) => g.id);
  const { country, category } = usePlaces();
  const scoped = FILTERS.filter((f) => params.get(f));
  const scopeText = (f: (typeof FILTERS)[number]) =>
    f === 'countryId'
      ? `国家：${country(params.get(f)) || '…'}`
      : f === 'categoryId'
        ? `类目：${category(params.get(f)) || '…'}`
        : f === 'familyId'
          ? '同一系列的商品'
          : params.get(f) === 'true'
            ? '自定义商品'
            : '来自货源的商品';
  const toolbar = (
    <div className="toolbar">
      <div className="row" style={{ justifyContent: 'space-between', width: '100%' }}>
        <KeywordSearch keyword={keyword} setKeyword={setKeyword} label="搜索商品" placeholder="商品名称" onSearch={search} />
        <button type="button" className={selected === 'new' ? '' : 'secondary'} data-testid="new-good-open" onClick={() => void navigate(itemHref('new'))}>
          新建自定义商品
        </button>
      </div>
      <div className="row">
        <GoodsListControls tagIds={tagIds} sort={sort} onChange={(t, s2) => setParams({ tagIds: t.join(','), sort: s2, page: null })} />
        <ShelfFilter testId="goods-shelf-filter" value={shelf} onChange={(v) => setParams({ shelf: v, page: null })} />
      </div>
      {scoped.map((f) => (
        <ScopeChip key={f} testId="goods-scope" text={scopeText(f)} onClear={() => setParams({ [f]: null, page: null })} />
      ))}
      <BulkBar target="goods" sel={sel} pageIds={pageIds} total={list.data?.total ?? 0} filter={filter} onDone={list.reload} />
    </div>
  );
  return (
    <MasterDetail
      selected={!!selected}
      backHref={listHref}
      list={
        <MasterList<Good>
          label="商品列表"
          testId="good-list"
          rowTestId="good-row"
          list={list}
          page={page}
          setPage={setPage}
          toolbar={toolbar}
          primaryLabel="商品"
          primary={(g) => (
            <span className="good-cell">
              {g.image ? (
                <img className="thumb small" src={g.image} alt="" />
              ) : (
                <span className="thumb small" style={{ width: 36, height: 36, display: 'inline-block', background: '#e4e7eb', borderRadius: 4 }} />
              )}
              <span>
                {g.name}
                {!g.originGoodId && <span className="badge amber">自定义</span>}
              </span>
            </span>
          )}
          columns={[
            { label: '价格', render: (g) => showPrice(g.price) },
            { label: '国家', className: 'hide-narrow', render: (g) => country(g.countryId) || <span className="muted">—</span> },
            { label: '类目', className: 'hide-narrow', render: (g) => category(g.categoryId) || <span className="muted">—</span> },
            { label: '上架', render: (g) => <ShelfBadge shelf={g.shelf} testId="good-shelf" /> },
            { label: '店铺', render: (g) => (g.public ? <span className="badge green">在售</span> : <span className="badge">未展示</span>) },
          ]}
          hrefOf={(g) => itemHref(g.id)}
          pick={pickOf<Good>(sel, pageIds, (g) => g.name)}
          selectedId={selected}
          empty={q || tagIds.length || scoped.length || shelf ? '没有符合条件的商品' : '还没有商品'}
        />
      }
      detail={
        selected === 'new' ? (
          <NewGood
            onCreated={(id) => {
              list.reload();
              void navigate(itemHref(id), { replace: true, force: true });
            }}
            onCancel={() => setParams({ id: null })}
          />
        ) : selected ? (
          <GoodEditor
            key={selected}
            id={selected}
            onSaved={list.reload}
            onDeleted={() => {
              list.reload();
              setParams({ id: null }, { force: true });
            }}
          />
        ) : (
          <div className="card muted">选择一个商品进行编辑，或新建自定义商品</div>
        )
      }
    />
  );
}

/** The image of a good: a preview, an address field and an upload that shows the uploaded file at once. */
function ImageField({ image, onChange, error }: { image: string | null; onChange: (url: string | null) => void; error?: string | undefined }) {
  const up = useAction();
  const file = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div className="row" style={{ alignItems: 'flex-start', flexWrap: 'nowrap' }}>
      {image ? (
        <img className="thumb" data-testid="good-image" src={image} alt="商品图片预览" style={{ width: 96, height: 96 }} />
      ) : (
        <div className="thumb" style={{ width: 96, height: 96 }} />
      )}
      <div style={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 8, minWidth: 0 }}>
        <label htmlFor={`${id}-url`}>图片地址</label>
        <input
          id={`${id}-url`}
          name="image"
          value={image ?? ''}
          onChange={(e) => onChange(e.target.value || null)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : undefined}
        />
        <FieldError id={`${id}-err`} message={error} />
        <label htmlFor={`${id}-file`}>上传图片（png、jpg、webp、gif）</label>
        <input
          id={`${id}-file`}
          ref={file}
          type="file"
          data-testid="good-upload"
          accept="image/png,image/jpeg,image/webp,image/gif"
          disabled={up.busy}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (!f) return;
            void up.run(async () => {
              try {
                const r = await api.upload('/upload', f);
                onChange(r.url);
              } finally {
                if (file.current) file.current.value = '';
              }
            }, '已上传，保存后生效');
          }}
        />
        <div data-testid="upload-status">
          <Status a={up} />
        </div>
      </div>
    </div>
  );
}

function NewGood({ onCreated, onCancel }: { onCreated: (id: string) => void; onCancel: () => void }) {
  const [form, setForm] = useState({
    name: '',
    goodPriority: '0',
    image: null as string | null,
    description: '',
    tagIds: [] as string[],
    categoryId: null as string | null,
    countryId: null as string | null,
    tagFontColor: null as string | null,
  });
  const a = useAction();
  const id = useId();
  useUnsavedEdits(form.name.trim() !== '' || form.description !== '' || form.image !== null);
  const create = () =>
    a.run(async () => {
      const g = await api.request<Good>('POST', '/goods', {
        name: form.name.trim(),
        goodPriority: Number(form.goodPriority) || 0,
        image: form.image,
        description: form.description || null,
        tagIds: form.tagIds,
        categoryId: form.categoryId,
        countryId: form.countryId,
        tagFontColor: form.tagFontColor,
      });
      rememberName('goods', g.id, g.name);
      setForm((f) => ({ ...f, name: '', description: '', image: null }));
      onCreated(g.id);
    });
  return (
    <section className="card" data-testid="new-good" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>新建自定义商品</h2>
      <p className="muted">自定义商品没有货源，可以作为商品系列的自定义成员。</p>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        <label>
          名称
          <input name="name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} aria-invalid={a.fields.name ? true : undefined} />
        </label>
        <FieldError id={`${id}-name`} message={a.fields.name} />
        <label>
          优先级（越大越靠前）
          <input name="goodPriority" type="number" value={form.goodPriority} onChange={(e) => setForm({ ...form, goodPriority: e.target.value })} />
        </label>
        <ImageField image={form.image} onChange={(image) => setForm((f) => ({ ...f, image }))} error={a.fields.image} />
        <label>
          描述
          <textarea rows={2} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </label>
      </div>
      <h3>标签</h3>
      <TagPicker value={form.tagIds} onChange={(tagIds) => setForm({ ...form, tagIds })} />
      <h3>国家、类目与标签颜色</h3>
      <PlacementFields
        value={{ categoryId: form.categoryId, countryId: form.countryId, tagFontColor: form.tagFontColor }}
        tagIds={form.tagIds}
        errors={a.fields}
        onChange={(p) => setForm((f) => ({ ...f, ...p }))}
      />
      <div className="row" style={{ marginTop: 12 }}>
        <button type="button" disabled={a.busy || !form.name.trim() || (form.tagFontColor !== null && !HEX.test(form.tagFontColor))} onClick={create}>
          创建
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          取消
        </button>
        <Status a={a} />
      </div>
    </section>
  );
}

/** The fields the editor saves, to tell whether the form differs from the good as saved. */
const EDITED = ['name', 'description', 'image', 'goodPriority', 'tagIds', 'categoryId', 'countryId', 'tagFontColor'] as const;
const differs = (a: Good, b: Good) => EDITED.some((k) => JSON.stringify(k === 'goodPriority' ? Number(a[k]) : a[k]) !== JSON.stringify(k === 'goodPriority' ? Number(b[k]) : b[k]));

function GoodEditor({ id, onSaved, onDeleted }: { id: string; onSaved: () => void; onDeleted: () => void }) {
  const g = useLoad<Good>(`/goods/${id}`);
  const [form, setForm] = useState<Good | null>(null);
  const [originId, setOriginId] = useState('');
  const a = useAction();
  const o = useAction();
  const s = useAction();
  const originField = useId();
  // The form starts as the loaded good. Later answers (a save, a merged link) bring only the links
  // into it: the other fields may hold edits not saved yet.
  useEffect(() => {
    const d = g.data;
    if (d) setForm((f) => (f ? { ...f, secondaryOriginGoodIds: d.secondaryOriginGoodIds } : d));
  }, [g.data]);
  const secondary = g.data?.secondaryOriginGoodIds ?? [];
  const names = useNames('origin-goods', secondary);
  useUnsavedEdits(!!form && !!g.data && differs(form, g.data));
  if (g.error)
    return (
      <div className="card">
        <ErrorLine error={g.error} />
      </div>
    );
  if (!form || !g.data)
    return (
      <div className="card">
        <Loading />
      </div>
    );
  const saved = g.data;
  const save = () =>
    a.run(async () => {
      const r = await api.request<Good>('PATCH', `/goods/${id}`, {
        name: form.name,
        description: form.description,
        image: form.image,
        goodPriority: Number(form.goodPriority) || 0,
        tagIds: form.tagIds,
        categoryId: form.categoryId,
        countryId: form.countryId,
        tagFontColor: form.tagFontColor,
      });
      if (r && typeof r === 'object' && 'id' in r) {
        // Saved: the form shows the good as the server keeps it (names normalised).
        g.setData(r);
        setForm(r);
        rememberName('goods', r.id, r.name);
      }
      onSaved();
    }, '已保存');
  // PUT /goods/:id/origins takes the full list of secondary links and answers the good as saved.
  const setOrigins = (ids: string[], ok: string) => o.run(async () => g.setData(await api.request<Good>('PUT', `/goods/${id}/origins`, { secondaryOriginGoodIds: ids })), ok);
  // PUT /goods/:id/shelf: 上架 / 下架 at once, apart from the form's unsaved edits.
  const next = saved.shelf === 'on' ? 'off' : 'on';
  const setShelf = () =>
    s.run(async () => {
      const r = await api.request<Good>('PUT', `/goods/${id}/shelf`, { state: next });
      if (r && typeof r === 'object' && 'id' in r) g.setData(r);
      else g.reload();
      onSaved();
    }, `已${SHELF_LABEL[next]}`);
  const imageUnsaved = form.image !== saved.image;
  return (
    <section className="card" data-testid="good-editor" aria-label={`编辑商品「${saved.name}」`}>
      <h2>
        编辑商品 {!saved.originGoodId && <span className="badge amber">自定义</span>} <ShelfBadge shelf={saved.shelf} testId="good-editor-shelf" />{' '}
        {saved.public ? <span className="badge green">店铺中在售</span> : <span className="badge">店铺中未展示</span>}
      </h2>
      <div className="row" data-testid="good-shelf-row">
        <span className="muted">{saved.shelf === 'on' ? '已上架：所在系列在售时，店铺展示它。' : '已下架：店铺中不展示它，它的标签也不计入筛选。'}</span>
        <button type="button" className={next === 'off' ? 'danger' : ''} data-testid="toggle-good-shelf" disabled={s.busy} onClick={() => void setShelf()}>
          {next === 'off' ? '下架' : '上架'}
        </button>
        <Status a={s} testId="good-shelf-status" />
      </div>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        <label>
          名称
          <input
            name="name"
            value={form.name}
            onChange={(e) => {
              const name = e.target.value;
              setForm((f) => f && { ...f, name });
            }}
            aria-invalid={a.fields.name ? true : undefined}
          />
        </label>
        <FieldError id={`${id}-name-err`} message={a.fields.name} />
        <label>
          优先级（越大越靠前）
          <input
            name="goodPriority"
            type="number"
            value={form.goodPriority}
            onChange={(e) => {
              const v = e.target.value;
              setForm((f) => f && { ...f, goodPriority: v as unknown as number });
            }}
          />
        </label>
        <FieldError id={`${id}-prio-err`} message={a.fields.goodPriority} />
        <ImageField image={form.image} onChange={(image) => setForm((f) => f && { ...f, image })} error={a.fields.image} />
        {imageUnsaved && <span className="muted">图片已更改，尚未保存</span>}
      </div>
      <label style={{ marginTop: 8 }}>
        描述
        <textarea
          rows={3}
          value={form.description ?? ''}
          onChange={(e) => {
            const description = e.target.value || null;
            setForm((f) => f && { ...f, description });
          }}
        />
      </label>
      <h3>标签</h3>
      <TagPicker value={form.tagIds} onChange={(tagIds) => setForm((f) => f && { ...f, tagIds })} />
      <h3>国家、类目与标签颜色</h3>
      <PlacementFields
        value={{ categoryId: form.categoryId, countryId: form.countryId, tagFontColor: form.tagFontColor }}
        tagIds={form.tagIds}
        errors={a.fields}
        onChange={(p) => setForm((f) => f && { ...f, ...p })}
      />
      <div className="row" style={{ marginTop: 12 }}>
        <button type="button" disabled={a.busy || (form.tagFontColor !== null && !HEX.test(form.tagFontColor))} onClick={save} data-testid="good-save">
          保存
        </button>
        {differs(form, saved) && (
          <button type="button" className="secondary" onClick={() => setForm(saved)}>
            放弃修改
          </button>
        )}
        <Status a={a} testId="good-status" />
      </div>
      <h3>合并的货源</h3>
      <div data-testid="good-origins">
        <div className="muted">主货源：{saved.originGood ? <a href={hrefOf('links', { id: saved.originGood.id })}>{saved.originGood.name}</a> : '无（自定义商品）'}</div>
        <table style={{ margin: '8px 0' }}>
          <caption className="visually-hidden">合并的货源</caption>
          <thead>
            <tr>
              <th scope="col">合并货源</th>
              <th scope="col">
                <span className="visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {secondary.length === 0 && (
              <tr>
                <td colSpan={2} className="muted">
                  没有合并的货源
                </td>
              </tr>
            )}
            {secondary.map((lid) => (
              <tr key={lid} data-testid="secondary-origin" data-id={lid}>
                <td>
                  <a href={hrefOf('links', { id: lid })}>{names[lid] ?? '…'}</a>
                </td>
                <td style={{ width: 70 }}>
                  <button
                    type="button"
                    className="danger"
                    disabled={o.busy}
                    aria-label={`移除合并货源 ${names[lid] ?? ''}`}
                    onClick={() =>
                      setOrigins(
                        secondary.filter((x) => x !== lid),
                        '已移除合并货源',
                      )
                    }
                  >
                    移除
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <div style={{ flex: 2, minWidth: 240 }}>
            <SearchPicker<Link>
              testId="origin-search"
              label="搜索要合并的货源"
              placeholder="搜索货源名称"
              disabled={o.busy}
              exclude={[...secondary, ...(saved.originGoodId ? [saved.originGoodId] : [])]}
              search={async (k) => (await api.get<Page<Link>>(`/origin-goods?pageSize=20${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
              render={(l) => (
                <>
                  {l.name}
                  {l.delisted && <span className="badge red">已下架</span>}
                </>
              )}
              onPick={(l) => {
                rememberName('origin-goods', l.id, l.name);
                void setOrigins([...secondary, l.id], '已合并货源');
              }}
            />
          </div>
          <form
            className="row"
            style={{ flex: 1, flexWrap: 'nowrap' }}
            onSubmit={(e) => {
              e.preventDefault();
              const lid = originId.trim();
              // Cleared only once added: after an error the id stays to be corrected.
              if (lid) void setOrigins([...secondary, lid], '已合并货源').then((ok) => ok && setOriginId(''));
            }}
          >
            <label htmlFor={originField} className="visually-hidden">
              货源编号
            </label>
            <input id={originField} placeholder="或输入货源编号" value={originId} onChange={(e) => setOriginId(e.target.value)} style={{ width: 150 }} />
            <button type="submit" className="secondary" disabled={o.busy || !originId.trim()}>
              按编号合并
            </button>
          </form>
        </div>
        <Status a={o} />
      </div>
      <h3>删除</h3>
      <DeleteGood id={id} name={saved.name} onDeleted={onDeleted} />
      <HistorySection testId="good-history-section">
        <GoodHistory key={saved.revision} id={id} />
      </HistorySection>
    </section>
  );
}
