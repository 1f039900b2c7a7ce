import { useEffect, useRef, useState } from 'react';
import type { PublicGoodItem } from '../../../../src/contract/storefront';
import { api } from '../api';
import { browserEnv } from '../common/browser-env';
import { ErrorState, GoodCard, GridSkeleton } from '../common/components';
import type { Failure } from '../common/failure';
import { Retrier, type Waiting } from '../common/retrier';

/** Home's continuing list: every good, newest first, a page at a time (its first page is one of home's three reads). */
const HOME_PAGE_SIZE = 20;
export const homeGoodsPath = (page: number) => `/public/goods?sort=NEWEST&page=${page}&pageSize=${HOME_PAGE_SIZE}`;

/** What the continuing list has loaded: kept with home's history entry, so going back shows it again where it was. */
export interface HomeGoods {
  items: PublicGoodItem[];
  total: number;
  page: number;
  done: boolean;
}

export const firstPage = (answer: { items: PublicGoodItem[]; total: number }): HomeGoods => ({
  items: answer.items,
  total: answer.total,
  page: 1,
  done: answer.items.length === 0 || answer.items.length >= answer.total,
});

/**
 * Below the curated positions (or, while there are none, in their place), the whole catalogue,
 * newest first: a page more each time the shopper nears the end, as on the list (a failed page is
 * retried by ../common/retrier.ts, never by the scrolling itself), and at the end a way on to the
 * categories and the list's filters rather than a dead end.
 */
export function MoreGoods({ title, start, onLoaded }: { title: string; start: HomeGoods; onLoaded(loaded: HomeGoods): void }) {
  const [loaded, setLoaded] = useState<HomeGoods>(start);
  const [status, setStatus] = useState<{ loading: boolean; failure: Failure | null; waiting: Waiting | null }>({ loading: false, failure: null, waiting: null });
  const sentinel = useRef<HTMLDivElement>(null);
  const pager = useRef<Retrier<HomeGoods> | null>(null);
  const latest = useRef(loaded);
  latest.current = loaded;

  useEffect(() => {
    const r = new Retrier<HomeGoods>(
      async () => {
        const before = latest.current;
        const answer = await api.get<{ items: PublicGoodItem[]; total: number }>(homeGoodsPath(before.page + 1));
        // A good listed meanwhile shifts the pages: one already shown is not shown twice.
        const seen = new Set(before.items.map((g) => g.goodId));
        const items = [...before.items, ...answer.items.filter((g) => !seen.has(g.goodId))];
        return { items, total: answer.total, page: before.page + 1, done: answer.items.length === 0 || items.length >= answer.total };
      },
      {
        started: () => setStatus((s) => ({ loading: true, failure: s.failure, waiting: null })),
        succeeded: (next) => {
          setLoaded(next);
          onLoaded(next);
          setStatus({ loading: false, failure: null, waiting: null });
        },
        failed: (failure, waiting) => setStatus({ loading: false, failure, waiting }),
      },
      browserEnv,
    );
    pager.current = r;
    const io = new IntersectionObserver(
      (es) => {
        if (es.some((e) => e.isIntersecting) && !latest.current.done) r.request();
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

  // A page that did not fill the screen leaves the sentinel in view, where the observer does not fire again.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || loaded.done || loaded.page === 1) return;
    if (el.getBoundingClientRect().top < window.innerHeight + 400) pager.current?.request();
  }, [loaded]);

  return (
    <section aria-labelledby="home-all-title" data-testid="home-all">
      <div className="section-head">
        <h2 id="home-all-title">{title}</h2>
        <a className="section-link" href="#/list?sort=NEWEST">
          筛选与排序 ›
        </a>
      </div>
      <div className="grid">
        {loaded.items.map((g) => (
          <GoodCard key={g.goodId} g={g} />
        ))}
      </div>
      <div ref={sentinel} className="more" data-testid="home-footer">
        {status.failure ? (
          <ErrorState compact failure={status.failure} waiting={status.waiting} retry={() => pager.current?.retryNow()} retrying={status.loading} subject="更多商品" />
        ) : status.loading ? (
          <GridSkeleton count={2} label="正在加载更多商品" />
        ) : loaded.done ? (
          <>
            <p className="end-line">共 {loaded.total} 款，已经到底了</p>
            <p className="actions">
              <a className="btn" href="#/categories">
                按分类找
              </a>
              <a className="btn" href="#/list">
                搜索与筛选
              </a>
            </p>
          </>
        ) : null}
      </div>
    </section>
  );
}
