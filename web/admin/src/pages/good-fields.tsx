import { useId, useMemo } from 'react';
import { api } from '../api';
import type { Page } from '../../../../src/contract/page';
import type { CategoryView, CountryView } from '../../../../src/contract/vocabulary';
import { FieldError, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { confirmDelete } from '../common/impact';
import { bySortOrder, treeOrder } from '../common/order';
import { useTags } from '../common/tags';

export interface Placement {
  categoryId: string | null;
  countryId: string | null;
  tagFontColor: string | null;
}

/** The colours the API takes (docs/http-contract.md, Values the storefront shows): #rgb or #rrggbb. */
export const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
export const LEVEL = ['', '大类', '中类', '款式'];

/**
 * Where a good shows on the storefront and how its tags look there: category (any level; the
 * storefront's default order uses the middle and style ones), country, and the colour of its tags.
 * A good without a country or category sorts last and misses those filters.
 */
export function PlacementFields({
  value,
  onChange,
  tagIds,
  errors = {},
}: {
  value: Placement;
  onChange: (p: Placement) => void;
  tagIds: readonly string[];
  errors?: Record<string, string>;
}) {
  const cats = useLoad<Page<CategoryView>>('/categories?pageSize=1000');
  const countries = useLoad<Page<CountryView>>('/countries?pageSize=1000');
  const rows = useMemo(() => treeOrder(cats.data?.items ?? []), [cats.data]);
  const v = useTags();
  const id = useId();
  const colour = value.tagFontColor ?? '';
  const colourOk = colour === '' || HEX.test(colour);
  const tagNames = (v?.tags ?? [])
    .filter((t) => tagIds.includes(t.id))
    .sort(bySortOrder)
    .map((t) => t.name);
  // A place the lists no longer hold (deleted meanwhile) stays selected, so saving does not drop it silently.
  const known = (x: string | null, ids: string[]) => x === null || ids.includes(x);
  const colourMessage = !colourOk ? '颜色须为 #rgb 或 #rrggbb，如 #d81b60' : errors.tagFontColor;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }} data-testid="good-placement">
      <div className="row">
        <label>
          国家
          <select name="countryId" value={value.countryId ?? ''} onChange={(e) => onChange({ ...value, countryId: e.target.value || null })}>
            <option value="">（不设置）</option>
            {[...(countries.data?.items ?? [])].sort(bySortOrder).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}（{c.code}）
              </option>
            ))}
            {countries.data &&
              !known(
                value.countryId,
                countries.data.items.map((c) => c.id),
              ) && <option value={value.countryId!}>（已删除的国家）</option>}
          </select>
        </label>
        <label>
          类目
          <select name="categoryId" value={value.categoryId ?? ''} onChange={(e) => onChange({ ...value, categoryId: e.target.value || null })}>
            <option value="">（不设置）</option>
            {rows.map(({ c, depth }) => (
              <option key={c.id} value={c.id}>
                {'　'.repeat(depth)}
                {c.name}（{LEVEL[c.level] ?? ''}）
              </option>
            ))}
            {cats.data &&
              !known(
                value.categoryId,
                rows.map((r) => r.c.id),
              ) && <option value={value.categoryId!}>（已删除的类目）</option>}
          </select>
        </label>
        <div className="inline" style={{ flexDirection: 'column', alignItems: 'flex-start', gap: 4 }}>
          <label htmlFor={`${id}-colour`}>标签颜色</label>
          <span className="row" style={{ flexWrap: 'nowrap', gap: 4 }}>
            <input
              type="color"
              aria-label="选择标签颜色"
              value={HEX.test(colour) && colour.length === 7 ? colour : '#000000'}
              onChange={(e) => onChange({ ...value, tagFontColor: e.target.value })}
              style={{ padding: 0, width: 36, height: 32 }}
            />
            <input
              id={`${id}-colour`}
              name="tagFontColor"
              placeholder="#ff0000，留空为默认"
              value={colour}
              onChange={(e) => onChange({ ...value, tagFontColor: e.target.value.trim() || null })}
              style={{ width: 150 }}
              aria-invalid={colourMessage ? true : undefined}
              aria-describedby={colourMessage ? `${id}-colour-err` : undefined}
            />
          </span>
        </div>
      </div>
      <FieldError id={`${id}-colour-err`} message={colourMessage} />
      {errors.countryId && (
        <span className="field-error" role="alert">
          {errors.countryId}
        </span>
      )}
      {errors.categoryId && (
        <span className="field-error" role="alert">
          {errors.categoryId}
        </span>
      )}
      <div className="muted" data-testid="tag-preview">
        店铺中的标签：
        {tagNames.length === 0
          ? '（无）'
          : tagNames.map((n) => (
              <span key={n} className="badge" style={{ color: colourOk && colour ? colour : undefined }}>
                {n}
              </span>
            ))}
      </div>
    </div>
  );
}

export const GOOD_SORTS: [string, string][] = [
  ['', '按创建顺序'],
  ['DEFAULT', '店铺默认（国家、类目、优先级）'],
  ['PRICE_ASC', '价格从低到高'],
  ['PRICE_DESC', '价格从高到低'],
  ['NEWEST', '最新'],
];

/** The goods list's tag filter (every chosen tag must be on the good) and sort: the public list's, on goods. */
export function GoodsListControls({ tagIds, sort, onChange }: { tagIds: string[]; sort: string; onChange: (tagIds: string[], sort: string) => void }) {
  const v = useTags();
  const groups = [...(v?.groups ?? []), { id: '', name: '未分组', dimension: null, tagCount: 0 }];
  const name = (id: string) => v?.tags.find((t) => t.id === id)?.name ?? '（已删除的标签）';
  const id = useId();
  return (
    <div className="row" data-testid="goods-controls">
      <span className="inline">
        <label htmlFor={`${id}-sort`} className="inline">
          排序
        </label>
        <select id={`${id}-sort`} data-testid="goods-sort" value={sort} onChange={(e) => onChange(tagIds, e.target.value)}>
          {GOOD_SORTS.map(([k, l]) => (
            <option key={k} value={k}>
              {l}
            </option>
          ))}
        </select>
      </span>
      <span className="inline">
        <label htmlFor={`${id}-tag`} className="inline">
          按标签筛选
        </label>
        <select id={`${id}-tag`} data-testid="goods-tag-filter" value="" onChange={(e) => e.target.value && onChange([...tagIds, e.target.value], sort)}>
          <option value="">添加标签…</option>
          {groups.map((g) => {
            const tags = (v?.tags ?? []).filter((t) => (t.groupId ?? '') === g.id && !tagIds.includes(t.id)).sort(bySortOrder);
            return tags.length ? (
              <optgroup key={g.id} label={g.name}>
                {tags.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </optgroup>
            ) : null;
          })}
        </select>
      </span>
      {tagIds.map((t) => (
        <span key={t} className="badge blue" data-testid="goods-tag-chip">
          {name(t)}{' '}
          <button
            type="button"
            className="link"
            aria-label={`取消标签 ${name(t)}`}
            onClick={() =>
              onChange(
                tagIds.filter((x) => x !== t),
                sort,
              )
            }
          >
            ×
          </button>
        </span>
      ))}
    </div>
  );
}

/** DELETE /goods/:id, after a confirmation that says what it does (positions, custom memberships, the family in the shop). */
export function DeleteGood({ id, name, onDeleted }: { id: string; name: string; onDeleted: () => void }) {
  const a = useAction();
  return (
    <div className="row" data-testid="good-delete">
      <button
        type="button"
        className="danger"
        disabled={a.busy}
        onClick={async () => {
          if (!(await confirmDelete('goods', id, name))) return;
          await a.run(async () => {
            await api.request('DELETE', `/goods/${id}`);
            onDeleted();
          });
        }}
      >
        删除商品
      </button>
      <Status a={a} />
    </div>
  );
}
