import { useEffect, useId, useMemo, useState } from 'react';
import { api } from '../api';
import type { Family } from '../../../../src/contract/families';
import type { Good } from '../../../../src/contract/goods';
import type { Link } from '../../../../src/contract/links';
import type { Page } from '../../../../src/contract/page';
import type { Usage } from '../../../../src/contract/usage';
import { ErrorLine, FieldError, KeywordSearch, Loading, SearchPicker, Status, Tabs, Toggle } from '../common/components';
import { confirmDialog, openDialog } from '../common/dialog';
import { errorText } from '../common/error-text';
import { useAction, useLoad } from '../common/hooks';
import { confirmDelete } from '../common/impact';
import { MasterDetail, MasterList } from '../common/master-list';
import { BulkBar, pickOf, useBulkSelection } from '../common/bulk-select';
import { rememberName, useNames } from '../common/names';
import { priceProblem, showPrice } from '../common/price';
import { hrefOf, navigate, useListAddress, useParams, useUnsavedEdits } from '../common/route';
import { DIMENSIONS, DIM_LABEL, dimensionValues, useTags, type Dimension } from '../common/tags';
import { usePlaces } from '../common/vocab';
import { SHELF_LABEL, ShelfBadge, ShelfFilter } from '../common/shelf';
import { FamilyHistory } from './family-history';
import { FamilyMatrix } from './family-matrix';

/** A family in the list: the list's fields and its country (docs/api.md, GET /product-families). */
type FamilyItem = Family & { country?: { id: string | null; name: string } | null };

const SORTS: [string, string][] = [
  ['', '按创建顺序'],
  ['NAME', '按名称'],
  ['MEMBERS_DESC', '货源最多的在前'],
  ['PRICE_ASC', '最低价从低到高'],
  ['PRICE_DESC', '最低价从高到低'],
  ['UPDATED_DESC', '最近修改的在前'],
];

/**
 * Families: the list (name, country, members, lowest price; search, filters by country, lock, manual
 * and price, orders, page jump) and the selected family. Everything the page shows is in its address.
 */
export function FamiliesPage() {
  const { params, setParams, q, page, selected, keyword, setKeyword, search, setPage, itemHref, listHref } = useListAddress('families');
  const query = new URLSearchParams({ page: String(page), pageSize: '30' });
  if (q) query.set('keyword', q);
  if (params.get('country')) query.set('countryId', params.get('country')!);
  if (params.get('locked')) query.set('locked', 'true');
  if (params.get('manual')) query.set('manual', 'true');
  if (params.get('unpriced')) query.set('priced', 'false');
  if (params.get('sort')) query.set('sort', params.get('sort')!);
  const shelf = params.get('shelf') ?? '';
  if (shelf) query.set('shelf', shelf);
  const list = useLoad<Page<FamilyItem>>(`/product-families?${query}`);
  // The list's filter without its paging and order: what "every match" sends (docs/api.md, Bulk changes).
  const filter = Object.fromEntries([...query].filter(([k]) => k !== 'page' && k !== 'pageSize' && k !== 'sort'));
  const sel = useBulkSelection(JSON.stringify(filter));
  const pageIds = (list.data?.items ?? []).map((f) => f.id);
  const { places } = usePlaces();
  const sortId = useId();
  const countryId = useId();
  const flag = (k: string) => !!params.get(k);
  const toolbar = (
    <div className="toolbar" data-testid="family-filters">
      <KeywordSearch keyword={keyword} setKeyword={setKeyword} label="搜索系列" placeholder="按名称搜索" onSearch={search} />
      <span className="inline">
        <label htmlFor={countryId} className="inline">
          国家
        </label>
        <select id={countryId} data-testid="family-country" value={params.get('country') ?? ''} onChange={(e) => setParams({ country: e.target.value, page: null })}>
          <option value="">全部</option>
          {places?.countries.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </span>
      <div className="row" role="group" aria-label="筛选">
        <Toggle on={flag('locked')} onClick={() => setParams({ locked: flag('locked') ? null : '1', page: null })} testId="filter-locked">
          已锁定
        </Toggle>
        <Toggle on={flag('manual')} onClick={() => setParams({ manual: flag('manual') ? null : '1', page: null })} testId="filter-manual">
          手动系列
        </Toggle>
        <Toggle on={flag('unpriced')} onClick={() => setParams({ unpriced: flag('unpriced') ? null : '1', page: null })} testId="filter-unpriced">
          未定价
        </Toggle>
      </div>
      <ShelfFilter testId="family-shelf-filter" value={shelf} onChange={(v) => setParams({ shelf: v, page: null })} />
      <span className="inline">
        <label htmlFor={sortId} className="inline">
          排序
        </label>
        <select id={sortId} data-testid="family-sort" value={params.get('sort') ?? ''} onChange={(e) => setParams({ sort: e.target.value, page: null })}>
          {SORTS.map(([k, l]) => (
            <option key={k} value={k}>
              {l}
            </option>
          ))}
        </select>
      </span>
      <BulkBar target="families" sel={sel} pageIds={pageIds} total={list.data?.total ?? 0} filter={filter} onDone={list.reload} />
    </div>
  );
  return (
    <MasterDetail
      selected={!!selected}
      backHref={listHref}
      list={
        <>
          <MasterList<FamilyItem>
            label="商品系列列表"
            testId="family-list"
            rowTestId="family-row"
            list={list}
            page={page}
            setPage={setPage}
            toolbar={toolbar}
            primaryLabel="系列"
            primary={(f) => (
              <>
                {f.name}
                {f.locked && <span className="badge amber">已锁定</span>}
                {!f.autoManaged && <span className="badge">手动</span>}
                {f.lowestPrice === null && <span className="badge red">未定价</span>}
              </>
            )}
            columns={[
              { label: '上架', render: (f) => <ShelfBadge shelf={f.shelf} testId="family-shelf" /> },
              { label: '国家', render: (f) => f.country?.name ?? <span className="muted">—</span> },
              { label: '货源', render: (f) => f.memberCount },
              { label: '最低价', render: (f) => showPrice(f.lowestPrice) },
            ]}
            hrefOf={(f) => itemHref(f.id)}
            pick={pickOf<FamilyItem>(sel, pageIds, (f) => f.name)}
            selectedId={selected}
            empty={q || params.get('country') || shelf || flag('locked') || flag('manual') || flag('unpriced') ? '没有符合条件的系列' : '还没有商品系列：先整理货源'}
          />
          <NewFamily
            onCreated={(id) => {
              list.reload();
              void navigate(itemHref(id), { force: true });
            }}
          />
        </>
      }
      detail={
        selected ? (
          <FamilyDetail
            key={selected}
            id={selected}
            onChanged={list.reload}
            onDeleted={() => {
              list.reload();
              setParams({ id: null, tab: null }, { force: true });
            }}
          />
        ) : (
          <div className="card muted">在左侧选择一个系列，查看价格表、货源和历史记录</div>
        )
      }
    />
  );
}

function NewFamily({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [off, setOff] = useState(false);
  const a = useAction();
  const id = useId();
  useUnsavedEdits(name.trim() !== '');
  return (
    <form
      className="card"
      onSubmit={(e) => {
        e.preventDefault();
        void a.run(async () => {
          const f = await api.request<Family>('POST', '/product-families', { name, shelf: off ? 'off' : 'on' });
          setName('');
          setOff(false);
          if (f?.id) onCreated(f.id);
        }, '已创建');
      }}
    >
      <h2>新建手动系列</h2>
      <p className="muted">手动系列由你维护，整理货源时不会改动它。</p>
      <div className="row">
        <label htmlFor={id} className="visually-hidden">
          系列名称
        </label>
        <input
          id={id}
          placeholder="系列名称"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={a.fields.name ? true : undefined}
          aria-describedby={a.fields.name ? `${id}-err` : undefined}
        />
        <label className="inline">
          <input type="checkbox" name="shelf-off" data-testid="new-family-off" checked={off} onChange={(e) => setOff(e.target.checked)} />
          创建为下架（店铺中不展示）
        </label>
        <button type="submit" disabled={!name.trim() || a.busy}>
          创建
        </button>
        <FieldError id={`${id}-err`} message={a.fields.name} />
        <Status a={a} />
      </div>
    </form>
  );
}

type Tab = 'matrix' | 'members' | 'history';

function FamilyDetail({ id, onChanged, onDeleted }: { id: string; onChanged: () => void; onDeleted: () => void }) {
  const f = useLoad<FamilyItem>(`/product-families/${id}`);
  const [params, setParams] = useParams();
  const tab = (['matrix', 'members', 'history'].includes(params.get('tab') ?? '') ? params.get('tab') : 'matrix') as Tab;
  const a = useAction();
  // null: as saved; a string: what the administrator typed.
  const [typed, setName] = useState<string | null>(null);
  const nameId = useId();
  useUnsavedEdits(!!f.data && typed !== null && typed !== f.data.name);
  if (f.error)
    return (
      <div className="card">
        <ErrorLine error={f.error} />
      </div>
    );
  if (!f.data)
    return (
      <div className="card">
        <Loading />
      </div>
    );
  const fam = f.data;
  const name = typed ?? fam.name;
  const reload = () =>
    new Promise<void>((resolve) => {
      f.reload();
      onChanged();
      resolve();
    });
  return (
    <section className="card" data-testid="family-detail" aria-label={`系列「${fam.name}」`}>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            await api.request('PATCH', `/product-families/${id}`, { name });
            setName(null);
            await reload();
          }, '已重命名');
        }}
      >
        <label htmlFor={nameId} className="visually-hidden">
          系列名称
        </label>
        <input
          id={nameId}
          name="family-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ fontWeight: 600, minWidth: 240, flex: 1 }}
          aria-invalid={a.fields.name ? true : undefined}
          aria-describedby={a.fields.name ? `${nameId}-err` : undefined}
        />
        <ShelfBadge shelf={fam.shelf} testId="family-detail-shelf" />
        {fam.locked && (
          <span className="badge amber" data-testid="family-locked">
            已锁定
          </span>
        )}
        <button type="submit" className="secondary" disabled={a.busy || !name.trim() || name === fam.name}>
          重命名
        </button>
        <button
          type="button"
          className="secondary"
          data-testid="toggle-lock"
          aria-pressed={fam.locked}
          disabled={a.busy}
          onClick={() =>
            a.run(
              async () => {
                await api.request('PATCH', `/product-families/${id}`, { locked: !fam.locked });
                await reload();
              },
              fam.locked ? '已解锁' : '已锁定',
            )
          }
        >
          {fam.locked ? '解锁' : '锁定'}
        </button>
        <button
          type="button"
          className={fam.shelf === 'on' ? 'danger' : ''}
          data-testid="toggle-family-shelf"
          disabled={a.busy}
          onClick={async () => {
            const next = fam.shelf === 'on' ? 'off' : 'on';
            // Taking a family off the shelf takes it out of the shop at once: said before it happens.
            if (
              next === 'off' &&
              fam.public &&
              !(await confirmDialog({ title: `下架系列「${fam.name}」？`, body: '下架后，店铺的列表、详情、首页和分类中都不再展示这个系列。', confirm: '下架', danger: true }))
            )
              return;
            await a.run(async () => {
              await api.request('PUT', `/product-families/${id}/shelf`, { state: next });
              await reload();
            }, `已${SHELF_LABEL[next]}`);
          }}
        >
          {fam.shelf === 'on' ? '下架' : '上架'}
        </button>
        <button
          type="button"
          className="danger"
          disabled={a.busy}
          onClick={async () => {
            if (!(await confirmDelete('product-families', id, fam.name))) return;
            await a.run(async () => {
              await api.request('DELETE', `/product-families/${id}`);
              onDeleted();
            });
          }}
        >
          删除
        </button>
        <FieldError id={`${nameId}-err`} message={a.fields.name} />
      </form>
      <Status a={a} testId="family-status" />
      <dl className="kv" data-testid="family-facts">
        <dt>国家</dt>
        <dd>{fam.country?.name ?? '—'}</dd>
        <dt>类型</dt>
        <dd>
          {fam.autoManaged ? '自动系列（由整理货源维护）' : '手动系列'}
          {fam.locked ? '，已锁定：整理货源不会改动它' : ''}
        </dd>
        <dt>货源</dt>
        <dd>{fam.memberCount} 个</dd>
        <dt>商品</dt>
        <dd data-testid="family-public">
          {fam.goodCount} 个
          {fam.public ? '，店铺中在售' : fam.shelf === 'off' ? '，系列已下架：店铺中不显示' : fam.goodCount > 0 ? '，商品都已下架：店铺中不显示' : '，店铺中不显示'}
        </dd>
        <dt>最低价</dt>
        <dd>{showPrice(fam.lowestPrice)}</dd>
      </dl>
      <Tabs<Tab>
        label="系列的内容"
        value={tab}
        onChange={(t) => setParams({ tab: t === 'matrix' ? null : t }, { replace: true })}
        tabs={[
          ['matrix', '价格表'],
          ['members', '货源与成员'],
          ['history', '历史记录'],
        ]}
      />
      {tab === 'matrix' && <FamilyMatrix fam={fam} onChanged={reload} />}
      {tab === 'members' && <Members fam={fam} onChanged={reload} />}
      {tab === 'history' && <FamilyHistory key={fam.revision ?? ''} id={id} />}
    </section>
  );
}

const noValues = (): Record<Dimension, string[]> => ({ size: [], color: [], printCount: [], craft: [], logistics: [] });
const fmtValues = (v: unknown) => (Array.isArray(v) ? (v.length ? v.join('/') : '—') : String(v));

/** Removing a link from a family, said with what it does: the members left, its good, the shop. */
function RemoveMemberBody({ fam, link, close }: { fam: Family; link: { id: string; name: string }; close: (yes: boolean) => void }) {
  const [facts, setFacts] = useState<{ usage: Usage; good: { id: string; name: string } | null } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    Promise.all([api.get<Usage>(`/product-families/${fam.id}/usage`), api.get<Link>(`/origin-goods/${link.id}`)]).then(
      ([usage, l]) => setFacts({ usage, good: l.good }),
      (e) => setError(errorText(e)),
    );
  }, []);
  const members = facts?.usage.counts.members ?? 0;
  const goods = facts?.usage.counts.goods ?? 0;
  return (
    <div data-testid="impact">
      <h2 id="dialog-title">把货源「{link.name}」移出系列？</h2>
      <ErrorLine error={error} />
      {!facts && !error && <Loading />}
      {facts && (
        <ul className="impact" data-testid="impact-lines">
          {fam.public && (
            <li className="blocking" data-testid="impact-live">
              将从在售系列「{fam.name}」移出
            </li>
          )}
          <li data-testid="impact-members">
            系列将剩 {Math.max(0, members - 1)} 个货源（现有 {members} 个），它的规格不再计入价格表
          </li>
          {facts.good && <li data-testid="impact-good">它的商品「{facts.good.name}」也会离开此系列</li>}
          {facts.good && goods === 1 && (
            <li className="blocking" data-testid="impact-public">
              这是系列唯一的商品：系列将从店铺下架
            </li>
          )}
          {fam.autoManaged && <li>下次整理货源时，它可能按名称重新归入某个系列</li>}
        </ul>
      )}
      <div className="row dialog-actions">
        <button type="button" className="secondary" data-autofocus onClick={() => close(false)}>
          取消
        </button>
        <button type="button" className="danger-solid" disabled={!facts} onClick={() => close(true)} data-testid="impact-confirm">
          移出系列
        </button>
      </div>
    </div>
  );
}

/** The live (public) family the link is in now, other than `into`; null when none (or it cannot be read: the move's own answer will say). */
async function liveFamilyOf(linkId: string, into: string): Promise<Family | null> {
  const link = await api.get<Link>(`/origin-goods/${linkId}`).catch(() => null);
  const familyId = link?.family?.id;
  if (!familyId || familyId === into) return null;
  const from = await api.get<Family>(`/product-families/${familyId}`).catch(() => null);
  return from?.public ? from : null;
}

function Members({ fam, onChanged }: { fam: Family; onChanged: () => Promise<void> }) {
  const a = useAction();
  const c = useAction();
  const [linkId, setLinkId] = useState('');
  const vocab = useTags();
  const values = useMemo(() => (vocab ? dimensionValues(vocab) : null), [vocab]);
  const [good, setGood] = useState<Good | null>(null);
  const [tags, setTags] = useState(noValues);
  const [price, setPrice] = useState('');
  const [priceTouched, setPriceTouched] = useState(false);
  const customIds = (fam.customMembers ?? []).map((m) => m.goodId);
  const goodNames = useNames('goods', customIds);
  const memberIds = (fam.members ?? []).map((m) => m.id);
  const linkIdField = useId();
  const priceId = useId();
  useUnsavedEdits(good !== null || price !== '' || linkId !== '');
  const addLink = async (lid: string) => {
    // A link in another family moves out of it: when that family is live (public), say so first.
    const from = await liveFamilyOf(lid, fam.id);
    if (
      from &&
      !(await confirmDialog({
        title: '把货源移到此系列？',
        body: <p data-testid="move-live-warning">将从在售系列「{from.name}」移出</p>,
        confirm: '移到此系列',
        danger: true,
      }))
    )
      return;
    await a.run(async () => {
      await api.request('POST', `/product-families/${fam.id}/members`, { originGoodId: lid });
      setLinkId('');
      await onChanged();
    }, '已加入货源');
  };
  const remove = async (m: { id: string; name: string }) => {
    const yes = await openDialog('移出货源', (close) => <RemoveMemberBody fam={fam} link={m} close={close} />);
    if (yes)
      await a.run(async () => {
        await api.request('DELETE', `/product-families/${fam.id}/members/${m.id}`);
        await onChanged();
      }, '已移出货源');
  };
  const incomplete = (['size', 'color', 'craft', 'logistics'] as const).filter((d) => tags[d].length === 0);
  const problem = priceProblem(price);
  const priceMessage = (priceTouched && price !== '' ? problem : null) ?? c.fields.price;
  const addCustom = () =>
    c.run(async () => {
      // The API wants all five dimensions, each an array (possibly empty), and the price as a decimal string.
      await api.request('POST', `/product-families/${fam.id}/custom-members`, { goodId: good!.id, tags, price });
      setGood(null);
      setTags(noValues());
      setPrice('');
      setPriceTouched(false);
      await onChanged();
    }, '已添加自定义成员');
  return (
    <div>
      <h2>货源（{fam.members?.length ?? 0}）</h2>
      <div className="scroll" tabIndex={0} role="region" aria-label="系列中的货源">
        <table data-testid="link-members">
          <caption className="visually-hidden">系列中的货源</caption>
          <thead>
            <tr>
              <th scope="col">货源</th>
              <th scope="col">状态</th>
              <th scope="col">
                <span className="visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fam.members?.length === 0 && (
              <tr>
                <td colSpan={3} className="muted">
                  系列中还没有货源
                </td>
              </tr>
            )}
            {fam.members?.map((m) => (
              <tr key={m.id} data-testid="link-member" data-id={m.id}>
                <td>
                  <a href={hrefOf('links', { id: m.id })}>{m.name}</a>
                </td>
                <td>
                  {m.delisted && <span className="badge red">已下架</span>}
                  {m.tagsManual && <span className="badge amber">手动规格标签</span>}
                  {(m.missing?.length ?? 0) > 0 && <span className="badge red">缺{m.missing!.map((d) => DIM_LABEL[d as Dimension] ?? d).join('、')}</span>}
                  {!m.delisted && !m.tagsManual && !(m.missing?.length ?? 0) && <span className="muted">正常</span>}
                </td>
                <td>
                  <button type="button" className="danger" disabled={a.busy} aria-label={`移出货源 ${m.name}`} onClick={() => void remove(m)}>
                    移出
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row" style={{ marginTop: 8, alignItems: 'flex-start' }}>
        <div style={{ flex: 2, minWidth: 240 }}>
          <SearchPicker<Link>
            testId="member-search"
            label="搜索要加入的货源"
            placeholder="搜索货源名称"
            disabled={a.busy}
            exclude={memberIds}
            search={async (k) => (await api.get<Page<Link>>(`/origin-goods?pageSize=20${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
            render={(l) => (
              <>
                {l.name}
                {l.family && <span className="badge">已在其他系列</span>}
                {l.delisted && <span className="badge red">已下架</span>}
              </>
            )}
            onPick={(l) => void addLink(l.id)}
          />
        </div>
        <form
          className="row"
          style={{ flex: 1, flexWrap: 'nowrap' }}
          onSubmit={(e) => {
            e.preventDefault();
            if (linkId.trim()) void addLink(linkId.trim());
          }}
        >
          <label htmlFor={linkIdField} className="visually-hidden">
            货源编号
          </label>
          <input id={linkIdField} placeholder="或输入货源编号" value={linkId} onChange={(e) => setLinkId(e.target.value)} style={{ width: 150 }} />
          <button type="submit" disabled={!linkId.trim() || a.busy}>
            加入货源
          </button>
        </form>
      </div>
      <Status a={a} testId="members-status" />

      <h2>自定义成员（{fam.customMembers?.length ?? 0}）</h2>
      <div className="scroll" tabIndex={0} role="region" aria-label="自定义成员">
        <table data-testid="custom-members">
          <caption className="visually-hidden">系列的自定义成员</caption>
          <thead>
            <tr>
              <th scope="col">商品</th>
              <th scope="col">规格</th>
              <th scope="col">价格</th>
              <th scope="col">
                <span className="visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fam.customMembers?.length === 0 && (
              <tr>
                <td colSpan={4} className="muted">
                  没有自定义成员
                </td>
              </tr>
            )}
            {fam.customMembers?.map((m) => (
              <tr key={m.goodId} data-testid="custom-member" data-id={m.goodId}>
                <td>
                  <a href={hrefOf('goods', { id: m.goodId })}>{goodNames[m.goodId] ?? '…'}</a>
                </td>
                <td>
                  {DIMENSIONS.map((d) => (
                    <span key={d} className="badge">
                      {DIM_LABEL[d]}：{fmtValues(m.tags[d] ?? [])}
                    </span>
                  ))}
                </td>
                <td>{showPrice(m.price)}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    disabled={c.busy}
                    aria-label={`移除自定义成员 ${goodNames[m.goodId] ?? ''}`}
                    onClick={async () => {
                      const cells = fam.priceMatrix?.cells.length ?? 0;
                      const yes = await confirmDialog({
                        title: `移除自定义成员「${goodNames[m.goodId] ?? ''}」？`,
                        body: (
                          <p data-testid="impact-lines">
                            它的规格（{DIMENSIONS.map((d) => fmtValues(m.tags[d] ?? [])).join(' / ')}）将不再计入价格表（现有 {cells} 个规格）；商品本身不会被删除。
                          </p>
                        ),
                        confirm: '移除',
                        danger: true,
                      });
                      if (yes)
                        await c.run(async () => {
                          await api.request('DELETE', `/product-families/${fam.id}/custom-members/${m.goodId}`);
                          await onChanged();
                        }, '已移除自定义成员');
                    }}
                  >
                    移除
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="card inset" data-testid="custom-member-form">
        <h3 style={{ marginTop: 0 }}>添加自定义成员</h3>
        <p className="muted">自定义商品没有货源：为它选好规格和价格，它的规格就会加入价格表。</p>
        <div className="row">
          <b style={{ minWidth: 64 }}>商品</b>
          {good ? (
            <span data-testid="custom-good">
              {good.name}{' '}
              <button type="button" className="link" onClick={() => setGood(null)}>
                更换
              </button>
            </span>
          ) : (
            <div style={{ flex: 1 }}>
              <SearchPicker<Good>
                testId="custom-good-search"
                label="搜索自定义商品"
                placeholder="搜索自定义商品（没有货源的商品）"
                exclude={customIds}
                search={async (k) => (await api.get<Page<Good>>(`/goods?custom=true&pageSize=50${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
                render={(g) => <>{g.name}</>}
                onPick={(g) => {
                  rememberName('goods', g.id, g.name);
                  setGood(g);
                }}
              />
            </div>
          )}
        </div>
        {!values && <Loading text="正在加载规格…" />}
        {values &&
          DIMENSIONS.map((d) => (
            <fieldset key={d} className="row plain" style={{ marginTop: 4 }} data-testid={`custom-${d}`}>
              <legend style={{ minWidth: 64, fontWeight: 600, float: 'left' }}>{DIM_LABEL[d]}</legend>
              {values[d].length === 0 && <span className="muted">（这个规格还没有标签，请先在「标签」中添加）</span>}
              {values[d].map((v) => (
                <label key={v} className="check">
                  <input
                    type="checkbox"
                    checked={tags[d].includes(v)}
                    onChange={(e) => setTags({ ...tags, [d]: e.target.checked ? [...tags[d], v] : tags[d].filter((x) => x !== v) })}
                  />
                  {v}
                </label>
              ))}
            </fieldset>
          ))}
        {c.fields.tags && (
          <span className="field-error" role="alert">
            {c.fields.tags}
          </span>
        )}
        <div className="row" style={{ marginTop: 8 }}>
          <label htmlFor={priceId} style={{ minWidth: 64, fontWeight: 600, color: 'inherit' }}>
            价格
          </label>
          <input
            id={priceId}
            name="custom-price"
            placeholder="如 39.90"
            inputMode="decimal"
            value={price}
            onChange={(e) => setPrice(e.target.value.trim())}
            onBlur={() => setPriceTouched(true)}
            style={{ width: 120 }}
            aria-invalid={priceMessage ? true : undefined}
            aria-describedby={priceMessage ? `${priceId}-err` : undefined}
          />
          <FieldError id={`${priceId}-err`} message={priceMessage ?? undefined} />
        </div>
        {good && incomplete.length > 0 && <p className="muted">还没有选择{incomplete.map((d) => DIM_LABEL[d]).join('、')}：这个成员不会生成价格。</p>}
        <div className="row" style={{ marginTop: 8 }}>
          <button type="button" disabled={c.busy || !good || problem !== null} onClick={addCustom}>
            添加自定义成员
          </button>
          <Status a={c} testId="custom-status" />
        </div>
      </div>
    </div>
  );
}
