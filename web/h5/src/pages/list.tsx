import { useEffect, useRef, useState } from 'react';
import type { CategorySuggestion } from '../../../../src/contract/page';
import type { PublicCategoryNode, PublicGoodItem } from '../../../../src/contract/storefront';
import { api } from '../api';
import { filterQuery, isFiltered, listHref, type ListFilters, type Sort } from '../common/address';
import { browserEnv } from '../common/browser-env';
import { EmptyState, ErrorState, GoodCard, GridSkeleton, SearchBox, type Action } from '../common/components';
import type { Failure } from '../common/failure';
import { usePageTitle, useResource } from '../common/hooks';
import { usePageMemory } from '../common/page-memory';
import { Retrier, type Waiting } from '../common/retrier';
import { FilterPanel, type Country, type PanelChoice, type TagGroup } from './list-filters';

const SORT_LABEL: Record<Sort, string> = { DEFAULT: '综合', NEWEST: '新品', PRICE_ASC: '价格从低到高', PRICE_DESC: '价格从高到低' };
const SORT_SHORT: Record<Sort, string> = { DEFAULT: '综合', NEWEST: '新品', PRICE_ASC: '价格↑', PRICE_DESC: '价格↓' };
const PAGE_SIZE = 20;

/** What the list has loaded: kept per history entry, so going back shows it again where it was. */
interface Loaded {
  items: PublicGoodItem[];
  total: number | null;
  page: number;
  done: boolean;
  /** categories the service suggests when a search found nothing */
  suggestions?: CategorySuggestion[];
}

interface Status {
  loading: boolean;
  failure: Failure | null;
  waiting: Waiting | null;
}

const go = (f: Partial<ListFilters>) => (window.location.hash = listHref(f));

function findCategory(nodes: PublicCategoryNode[], id: string): PublicCategoryNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inside = findCategory(n.children, id);
    if (inside) return inside;
  }
  return undefined;
}

/**
 * The goods list: search, sorts, the filter panel and the active filters as chips, then the goods,
 * a page more each time the shopper nears the end. A failed page is retried by ./common/retrier.ts
 * (never by the scrolling itself), and what was loaded survives going to a product and back.
 */
export function ListPage({ filters }: { filters: ListFilters }) {
  const memory = usePageMemory<Loaded>(true);
  usePageTitle(filters.keyword ? `搜索：${filters.keyword}` : '全部商品');
  const [loaded, setLoaded] = useState<Loaded>(memory.restored ?? { items: [], total: null, page: 0, done: false });
  const [status, setStatus] = useState<Status>({ loading: false, failure: null, waiting: null });
  const [panelOpen, setPanelOpen] = useState(false);
  // The panel's countries and tags, once they are needed: for the panel, for the names of the chips,
  // or once the goods have come. A list that cannot load then retries alone, not three reads at once.
  const vocabulary = loaded.page > 0 || panelOpen || filters.countryId !== null || filters.tagIds.length > 0;
  const countries = useResource<{ items: Country[] }>(vocabulary ? '/public/countries' : null);
  const groups = useResource<{ items: TagGroup[] }>(vocabulary ? '/public/tag-groups' : null);
  const tree = useResource<{ items: PublicCategoryNode[] }>(filters.categoryId ? '/public/categories/tree' : null);
  const sentinel = useRef<HTMLDivElement>(null);
  const filterButton = useRef<HTMLButtonElement>(null);
  const pager = useRef<Retrier<Loaded> | null>(null);
  const latest = useRef(loaded);
  latest.current = loaded;
  // Kept for this history entry, so going back here shows the same pages.
  memory.remember(loaded);

  // Once per page: a page is drawn afresh for each history entry (App.tsx), so its filters never change.
  useEffect(() => {
    const r = new Retrier<Loaded>(
      async () => {
        const before = latest.current;
        const q = filterQuery(filters);
        q.set('page', String(before.page + 1));
        q.set('pageSize', String(PAGE_SIZE));
        const answer = await api.get<{ items: PublicGoodItem[]; total: number; suggestions?: CategorySuggestion[] }>(`/public/goods?${q}`);
        const items = [...before.items, ...answer.items];
        return {
          items,
          total: answer.total,
          page: before.page + 1,
          done: answer.items.length === 0 || items.length >= answer.total,
          ...(answer.suggestions ? { suggestions: answer.suggestions } : {}),
        };
      },
      {
        // A retry keeps the failure on screen (its button says it is retrying) rather than flashing the skeleton.
        started: () => setStatus((s) => ({ loading: true, failure: s.failure, waiting: null })),
        succeeded: (next) => {
          setLoaded(next);
          setStatus({ loading: false, failure: null, waiting: null });
        },
        failed: (failure, waiting) => setStatus({ loading: false, failure, waiting }),
      },
      browserEnv,
    );
    pager.current = r;
    if (!latest.current.done && latest.current.page === 0) r.request();
    // Infinite scroll: the sentinel under the goods coming near the screen asks for the next page;
    // the retrier ignores the ask while a page is loading or a failure waits.
    const io = new IntersectionObserver(
      (es) => {
        if (es.some((e) => e.isIntersecting) && !latest.current.done && latest.current.page > 0) r.request();
      },
      { rootMargin: '400px' },
    );
    if (sentinel.current) io.observe(sentinel.current);
    return () => {
      io.disconnect();
      r.dispose();
      pager.current = null;
    };
  }, []);

  // A page that did not fill the screen leaves the sentinel in view, where the observer does not
  // fire again: ask for the next one.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || loaded.done || loaded.page === 0) return;
    if (el.getBoundingClientRect().top < window.innerHeight + 400) pager.current?.request();
  }, [loaded]);

  // The panel closed (Esc, ×, the backdrop): the focus goes back to the button that opened it, once
  // the panel is gone and the page behind is no longer inert.
  const panelWasOpen = useRef(false);
  useEffect(() => {
    if (!panelOpen && panelWasOpen.current) filterButton.current?.focus();
    panelWasOpen.current = panelOpen;
  }, [panelOpen]);

  const applied: PanelChoice = { countryId: filters.countryId, tagIds: filters.tagIds };
  const tagName = (id: string) => groups.data?.items.flatMap((g) => g.tags).find((t) => t.id === id)?.name ?? '标签';
  const chips: { key: string; label: string; without: Partial<ListFilters> }[] = [
    ...(filters.keyword ? [{ key: 'keyword', label: `搜索：${filters.keyword}`, without: { keyword: '' } }] : []),
    ...(filters.categoryId
      ? [{ key: 'category', label: (tree.data && findCategory(tree.data.items, filters.categoryId)?.name) || '所选类目', without: { categoryId: null } }]
      : []),
    ...(filters.countryId ? [{ key: 'country', label: countries.data?.items.find((c) => c.id === filters.countryId)?.name ?? '所选国家', without: { countryId: null } }] : []),
    ...filters.tagIds.map((id) => ({ key: `tag-${id}`, label: tagName(id), without: { tagIds: filters.tagIds.filter((x) => x !== id) } })),
  ];
  const panelCount = (filters.countryId ? 1 : 0) + filters.tagIds.length;
  const clearAll: Action = { label: '清除筛选', href: listHref({ sort: filters.sort }), primary: true };
  const first = loaded.page === 0;

  return (
    <div data-testid="h5-list">
      <h1 className="sr-only">{filters.keyword ? `搜索「${filters.keyword}」` : '全部商品'}</h1>
      <SearchBox initial={filters.keyword} onSearch={(keyword) => go({ ...filters, keyword })} />
      <div className="sorts" role="group" aria-label="排序与筛选">
        {(Object.keys(SORT_LABEL) as Sort[]).map((k) => (
          <button key={k} type="button" aria-pressed={k === filters.sort} aria-label={SORT_LABEL[k]} onClick={() => go({ ...filters, sort: k })}>
            {SORT_SHORT[k]}
          </button>
        ))}
        <button
          ref={filterButton}
          type="button"
          className={panelCount ? 'active' : ''}
          aria-haspopup="dialog"
          aria-expanded={panelOpen}
          onClick={() => setPanelOpen(true)}
          data-testid="open-filters"
        >
          筛选{panelCount ? `（${panelCount}）` : ''}
        </button>
      </div>
      {panelOpen && (
        <FilterPanel
          countries={countries}
          groups={groups}
          applied={applied}
          onApply={(c) => go({ ...filters, countryId: c.countryId, tagIds: c.tagIds })}
          onClose={() => setPanelOpen(false)}
        />
      )}
      {chips.length > 0 && (
        <div className="active-filters" data-testid="filter-chips">
          <ul aria-label="已选条件">
            {chips.map((c) => (
              <li key={c.key}>
                <a className="fchip" href={listHref({ ...filters, ...c.without })} aria-label={`移除条件：${c.label}`}>
                  {c.label}
                  <span aria-hidden="true"> ×</span>
                </a>
              </li>
            ))}
          </ul>
          <a className="clear" href={listHref({ sort: filters.sort })}>
            清除全部
          </a>
        </div>
      )}
      {loaded.total !== null && loaded.total > 0 && (
        <p className="count-line" data-testid="result-count">
          共 {loaded.total} 款
        </p>
      )}
      {first && status.failure ? (
        <ErrorState
          failure={status.failure}
          waiting={status.waiting}
          retry={() => pager.current?.retryNow()}
          retrying={status.loading}
          subject="商品"
          {...(status.failure.kind === 'invalid' || status.failure.kind === 'notFound'
            ? { title: '筛选条件无效', hint: '链接里的筛选条件已失效，清除后可以查看全部商品', more: [clearAll, { label: '返回首页', href: '#/' }] }
            : { more: [{ label: '返回首页', href: '#/' }] })}
        />
      ) : first ? (
        <GridSkeleton count={6} />
      ) : loaded.total === 0 ? (
        isFiltered(filters) ? (
          <EmptyState title="没有找到相关商品" hint="换个关键词，或清除筛选条件再看看" actions={[clearAll, { label: '返回首页', href: '#/' }]} testId="empty-results">
            {loaded.suggestions && loaded.suggestions.length > 0 && (
              <nav className="suggestions" aria-label="推荐类目" data-testid="search-suggestions">
                <p className="state-hint">试试这些类目：</p>
                <ul>
                  {loaded.suggestions.map((s) => (
                    <li key={s.id}>
                      <a className="fchip" href={listHref({ sort: filters.sort, categoryId: s.id })}>
                        {s.name}（{s.familyCount}）
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            )}
          </EmptyState>
        ) : (
          <EmptyState title="暂时还没有商品" hint="商品正在上架中，晚些再来看看" actions={[{ label: '返回首页', href: '#/', primary: true }]} testId="empty-results" />
        )
      ) : (
        <div className="grid">
          {loaded.items.map((g) => (
            <GoodCard key={g.goodId} g={g} />
          ))}
        </div>
      )}
      <div ref={sentinel} className="more" data-testid="list-footer">
        {!first && status.failure ? (
          <ErrorState compact failure={status.failure} waiting={status.waiting} retry={() => pager.current?.retryNow()} retrying={status.loading} subject="更多商品" />
        ) : !first && status.loading ? (
          <GridSkeleton count={2} label="正在加载更多商品" />
        ) : loaded.done && loaded.items.length > 0 ? (
          `共 ${loaded.total} 款，已经到底了`
        ) : null}
      </div>
    </div>
  );
}
