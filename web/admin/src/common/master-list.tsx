import type React from 'react';
import type { Page, SearchPage } from '../../../../src/contract/page';
import { ErrorLine, Pager } from './components';
import { hrefOf as addressOf, navigate } from './route';

export interface Column<T> {
  label: string;
  render: (x: T) => React.ReactNode;
  className?: string;
}

/**
 * The admin's one list: families, links, goods and the links of a batch. Each row's first cell is a
 * link to the item (its address carries the selection, so back and forward move between items), or,
 * when the list picks several, a checkbox. Rows are reachable by Tab and ↑/↓, opened with Enter or
 * a click anywhere on the row. While a new page or search loads, the rows shown are dimmed and the
 * list says it is loading; an error says so in Chinese.
 */
export function MasterList<T extends { id: string }>(props: {
  /** what the list is, for its caption and its region */
  label: string;
  list: { data: Page<T> | null; error: string; loading: boolean };
  page: number;
  setPage: (p: number) => void;
  /** the first column: its heading and what it shows */
  primaryLabel: string;
  primary: (x: T) => React.ReactNode;
  columns?: Column<T>[];
  /** master-detail: the address a row opens, and the selected item */
  hrefOf?: (x: T) => string;
  selectedId?: string | null;
  /** picking several: which rows can be picked, which are, and how a row is named to a screen reader */
  pick?: { can: (x: T) => boolean; has: (x: T) => boolean; toggle: (x: T, on: boolean) => void; name: (x: T) => string };
  empty: string;
  /**
   * Where a category the service suggests for an empty search leads (docs/api.md, Paging); by
   * default the goods of that category.
   */
  suggestionHref?: (categoryId: string) => string;
  unit?: string;
  testId?: string;
  rowTestId?: string;
  toolbar?: React.ReactNode;
}) {
  const { list, columns = [], hrefOf, pick } = props;
  const items = list.data?.items ?? [];
  const suggestions = (list.data as SearchPage<T> | null)?.suggestions ?? [];
  const suggestionHref = props.suggestionHref ?? ((id: string) => addressOf('goods', { categoryId: id }));
  const stale = list.loading && list.data !== null;
  const span = columns.length + 1 + (pick ? 1 : 0);
  const onRowClick = (e: React.MouseEvent, x: T) => {
    // Controls in the row do their own thing.
    if ((e.target as HTMLElement).closest('a, button, input, select, label, textarea')) return;
    if (hrefOf) void navigate(hrefOf(x));
    else if (pick && pick.can(x)) pick.toggle(x, !pick.has(x));
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const from = (e.target as HTMLElement).closest('tr');
    const to = (e.key === 'ArrowDown' ? from?.nextElementSibling : from?.previousElementSibling) as HTMLElement | null;
    const target = to?.querySelector<HTMLElement>('[data-row-focus]');
    if (!target) return;
    e.preventDefault();
    target.focus();
  };
  return (
    <section className="card list" aria-label={props.label} data-testid={props.testId}>
      {props.toolbar}
      <div className="list-state" aria-live="polite">
        {list.loading && (
          <span className="loading" data-testid="list-loading">
            正在加载…
          </span>
        )}
      </div>
      <ErrorLine error={list.error} />
      <div className="scroll" tabIndex={0} role="region" aria-label={props.label}>
        <table aria-busy={list.loading} className={stale ? 'stale' : undefined} data-stale={stale ? 'true' : undefined}>
          <caption className="visually-hidden">{props.label}</caption>
          <thead>
            <tr>
              {pick && (
                <th scope="col">
                  <span className="visually-hidden">选择</span>
                </th>
              )}
              <th scope="col">{props.primaryLabel}</th>
              {columns.map((c) => (
                <th scope="col" key={c.label} className={c.className}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody onKeyDown={onKeyDown}>
            {list.data && items.length === 0 && (
              <tr>
                <td colSpan={span} className="muted">
                  {props.empty}
                  {suggestions.length > 0 && (
                    <nav className="suggestions" aria-label="推荐类目" data-testid="search-suggestions">
                      试试这些类目：
                      <ul>
                        {suggestions.map((s) => (
                          <li key={s.id}>
                            <a href={suggestionHref(s.id)}>
                              {s.name}（{s.familyCount} 个系列）
                            </a>
                          </li>
                        ))}
                      </ul>
                    </nav>
                  )}
                </td>
              </tr>
            )}
            {!list.data && !list.error && (
              <tr>
                <td colSpan={span} className="muted">
                  加载中…
                </td>
              </tr>
            )}
            {items.map((x) => {
              const selected = x.id === props.selectedId || (pick?.has(x) ?? false);
              return (
                <tr key={x.id} data-testid={props.rowTestId} data-id={x.id} className={selected ? 'selected' : undefined} onClick={(e) => onRowClick(e, x)}>
                  {pick && (
                    <td className="pick">
                      <input
                        type="checkbox"
                        // A row that opens an item is reached at its link; one that is only picked, at its box.
                        data-row-focus={hrefOf ? undefined : true}
                        aria-label={`选择 ${pick.name(x)}`}
                        disabled={!pick.can(x)}
                        checked={pick.has(x)}
                        onChange={(e) => pick.toggle(x, e.target.checked)}
                      />
                    </td>
                  )}
                  <td className="primary">
                    {hrefOf ? (
                      <a href={hrefOf(x)} data-row-focus aria-current={x.id === props.selectedId ? 'true' : undefined}>
                        {props.primary(x)}
                      </a>
                    ) : (
                      props.primary(x)
                    )}
                  </td>
                  {columns.map((c) => (
                    <td key={c.label} className={c.className}>
                      {c.render(x)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {list.data && <Pager page={props.page} setPage={props.setPage} list={list.data} unit={props.unit} />}
    </section>
  );
}

/**
 * The page of a list and its selected item: side by side on a wide screen; on a phone the item alone,
 * with a way back to the list (the list's search, filters and page are kept in the address).
 */
export function MasterDetail({ list, detail, selected, backHref }: { list: React.ReactNode; detail: React.ReactNode; selected: boolean; backHref: string }) {
  return (
    <div className={selected ? 'grid2 has-selection' : 'grid2'}>
      <div className="master">{list}</div>
      <div className="detail">
        {selected && (
          <a className="back-to-list" href={backHref}>
            ← 返回列表
          </a>
        )}
        {detail}
      </div>
    </div>
  );
}
