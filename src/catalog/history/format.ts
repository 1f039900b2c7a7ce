/** The history as plain text for the command line (`catalog history`): one line per event, short change summaries. Pure. */
import type { HistoryItem } from './history';

type Changes = Record<string, unknown> | null;
interface FromTo {
  from: unknown;
  to: unknown;
}
const isFromTo = (v: unknown): v is FromTo => !!v && typeof v === 'object' && 'from' in v && 'to' in v;
const show = (v: unknown): string =>
  v === null || v === undefined ? '-' : typeof v === 'object' ? ('goodId' in v ? String((v as { goodId: unknown }).goodId) : JSON.stringify(v)) : String(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `members +100002 -100003; cells +2 -1 ~1; lowestPrice 39.90 -> 35.00; other: mediaByColor` */
export function summariseChanges(changes: Changes): string {
  if (!changes) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(changes)) {
    if (isFromTo(v)) parts.push(`${k} ${show(v.from)} -> ${show(v.to)}`);
    else if (Array.isArray(v)) parts.push(`${k}: ${v.join(', ')}`);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ('changed' in o) parts.push(`${k} +${arr(o.added).length} -${arr(o.removed).length} ~${arr(o.changed).length}`);
      else if ('priceChanged' in o) {
        const prices = arr(o.priceChanged).map((p) => {
          const x = p as { size: string; color: string; from: string; to: string };
          return `${x.size}/${x.color} ${x.from} -> ${x.to}`;
        });
        parts.push(`${k} +${arr(o.added).length} -${arr(o.removed).length}${prices.length ? ` prices ${prices.join(', ')}` : ''}`);
      } else {
        // `members +100001 -100002`: each side's ids, empty sides left out
        const ids = Object.entries(o).flatMap(([side, list]) => arr(list).map((id) => `${side === 'added' ? '+' : side === 'removed' ? '-' : `${side}:`}${String(id)}`));
        parts.push(`${k} ${ids.join(' ')}`);
      }
    }
  }
  return parts.join('; ');
}

/** A table of history items: time, stream@revision, type, who, why, correlation id, what changed. */
export function historyTable(items: readonly HistoryItem[]): string {
  const rows = [
    ['at', 'stream', 'type', 'by', 'why', 'correlation', 'changes'],
    ...items.map((e) => [e.at, `${e.stream}@${e.version}`, e.type, e.by, e.why, e.correlationId, summariseChanges(e.changes)]),
  ];
  const widths = rows[0]!.map((_, i) => (i === rows[0]!.length - 1 ? 0 : Math.max(...rows.map((r) => r[i]!.length))));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => (widths[i] ? c.padEnd(widths[i]!) : c))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
