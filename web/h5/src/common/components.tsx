import { useState, type ReactNode } from 'react';
import type { PublicGoodItem } from '../../../../src/contract/storefront';
import { failureText, isPassing, type Failure } from './failure';
import type { Resource } from './hooks';
import type { Waiting } from './retrier';

/**
 * An image, or a tile with a few characters (`tile`, else the name's first two) when it has none or
 * it fails to load. An empty `alt` marks it as decoration (its name is written beside it).
 */
export function Img({ src, alt, className, tile }: { src: string | null | undefined; alt: string; className?: string; tile?: string }) {
  const [bad, setBad] = useState(false);
  if (!src || bad) {
    const text = <span aria-hidden="true">{tile ?? alt.slice(0, 2)}</span>;
    return alt ? (
      <div className={`${className ?? ''} noimg`} role="img" aria-label={alt}>
        {text}
      </div>
    ) : (
      <div className={`${className ?? ''} noimg`} aria-hidden="true">
        {text}
      </div>
    );
  }
  return <img className={className} src={src} alt={alt} loading="lazy" onError={() => setBad(true)} />;
}

/** A card shows this many of its tags, the first ones and how many more: a card stays one height in the grid, whatever its family is tagged with. */
const CARD_TAGS = 3;

/** A family on a list or home: picture, name, its first tags in their colour (and how many more), the price it starts from (or 暂无报价). */
export function GoodCard({ g }: { g: PublicGoodItem }) {
  return (
    <a className="good" href={`#/goods/${g.goodId}`} data-testid="good-card">
      <Img className="cover" src={g.image} alt={g.name} />
      <div className="gname">{g.name}</div>
      {/* The good's tags in its tag colour (the name keeps the page's colour). */}
      {g.tags.length > 0 && (
        <div className="gtags" data-testid="good-tags">
          {g.tags.slice(0, CARD_TAGS).map((t) => (
            <span key={t.id} className="gtag" style={g.tagFontColor ? { color: g.tagFontColor, borderColor: g.tagFontColor } : undefined}>
              {t.name}
            </span>
          ))}
          {g.tags.length > CARD_TAGS && (
            <>
              <span className="gtag gtag-more" aria-hidden="true" data-testid="more-tags">
                +{g.tags.length - CARD_TAGS}
              </span>
              <span className="sr-only">另有 {g.tags.length - CARD_TAGS} 个标签</span>
            </>
          )}
        </div>
      )}
      {g.price ? (
        <div className="price">
          ¥{g.price}
          <small>起</small>
        </div>
      ) : (
        <div className="price none" data-testid="unpriced">
          暂无报价
        </div>
      )}
    </a>
  );
}

export interface Action {
  label: string;
  /** a link (an address in the storefront), or else a button running `run` */
  href?: string;
  run?: () => void;
  primary?: boolean;
  /** running already: shown, announced as busy, not pressable */
  busy?: boolean;
}

export function Actions({ actions }: { actions: Action[] }) {
  return (
    <div className="actions">
      {actions.map((a) =>
        a.href !== undefined ? (
          <a key={a.label} className={`btn${a.primary ? ' primary' : ''}`} href={a.href}>
            {a.label}
          </a>
        ) : (
          <button key={a.label} type="button" className={`btn${a.primary ? ' primary' : ''}`} onClick={a.run} aria-disabled={a.busy || undefined} aria-busy={a.busy || undefined}>
            {a.label}
          </button>
        ),
      )}
    </div>
  );
}

/**
 * A read that failed: what happened in Chinese, what the page does about it (retries by itself, or
 * waits for the network), and what the shopper can do: 重试 for a passing failure, then `more`.
 */
export function ErrorState(props: {
  failure: Failure;
  waiting: Waiting | null;
  retry: () => void;
  /** a read is running again: the retry button says so and waits */
  retrying?: boolean;
  subject?: string;
  /** instead of the failure's own words (./failure.ts), where the page knows better */
  title?: string;
  hint?: string;
  more?: Action[];
  compact?: boolean;
  testId?: string;
}) {
  const own = failureText(props.failure, props.subject);
  const title = props.title ?? own.title;
  const hint = props.hint ?? own.hint;
  // What happens next: the page retries by itself, or the shopper does (offline, the hint already says the network's return will).
  const auto = props.retrying || props.failure.kind === 'offline' || !isPassing(props.failure) ? '' : props.waiting === 'timer' ? '，稍后会自动重试' : '，请稍后重试';
  const retry: Action = props.retrying ? { label: '正在重试…', busy: true, primary: true } : { label: '重试', run: props.retry, primary: true };
  const actions: Action[] = [...(isPassing(props.failure) ? [retry] : []), ...(props.more ?? [])];
  return (
    <div className={props.compact ? 'state compact' : 'state'} role="alert" data-testid={props.testId ?? 'error-state'} data-kind={props.failure.kind}>
      <p className="state-title">{title}</p>
      <p className="state-hint">
        {hint}
        {auto}
      </p>
      <Actions actions={actions} />
    </div>
  );
}

/** The failure of a read (./hooks.ts), when it has one: ErrorState with the read's own retry. */
export function ResourceError({ of, ...rest }: { of: Resource<unknown> } & Omit<Parameters<typeof ErrorState>[0], 'failure' | 'waiting' | 'retry' | 'retrying'>) {
  return of.failure ? <ErrorState failure={of.failure} waiting={of.waiting} retry={of.retry} retrying={of.loading} {...rest} /> : null;
}

/** Nothing to show: why, and a way on (`children`: more ways, such as categories to try). */
export function EmptyState({ title, hint, actions, testId, children }: { title: string; hint?: string; actions: Action[]; testId?: string; children?: ReactNode }) {
  return (
    <div className="state" data-testid={testId ?? 'empty-state'}>
      <p className="state-title">{title}</p>
      {hint && <p className="state-hint">{hint}</p>}
      {children}
      <Actions actions={actions} />
    </div>
  );
}

/** Grey shapes where goods will be, while they load (announced once as loading). */
export function GridSkeleton({ count, label = '正在加载商品' }: { count: number; label?: string }) {
  return (
    <div data-testid="skeleton">
      <p className="sr-only" role="status">
        {label}
      </p>
      <div className="grid" aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <div key={i} className="good sk-card">
            <div className="sk sk-cover" />
            <div className="sk sk-line" />
            <div className="sk sk-line short" />
          </div>
        ))}
      </div>
    </div>
  );
}

/** A row of grey bars (headings, prices), for the pages that are not grids. */
export const SkeletonLines = ({ lines }: { lines: string[] }) => (
  <div aria-hidden="true">
    {lines.map((c, i) => (
      <div key={i} className={`sk sk-line ${c}`} />
    ))}
  </div>
);

/** The search box of home and the list: submits the keyword (blank clears it). */
export function SearchBox({ initial, onSearch }: { initial: string; onSearch(keyword: string): void }) {
  const [kw, setKw] = useState(initial);
  return (
    <form
      className="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(kw.trim());
      }}
    >
      <label className="sr-only" htmlFor="search-input">
        搜索商品
      </label>
      <input id="search-input" type="search" placeholder="搜索商品" value={kw} onChange={(e) => setKw(e.target.value)} enterKeyHint="search" maxLength={100} />
      <button type="submit">搜索</button>
    </form>
  );
}
