import { useEffect, useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../../src/contract/page';

type NameKind = 'goods' | 'origin-goods';
const NOT_FOUND = '（不存在）';
/** The lists take at most this many ids (and answer at most this many rows) per request. */
const IDS_PER_REQUEST = 1000;

/**
 * Names of resources by id, fetched once per page load: the ids not yet known in one request
 * (`GET /goods?ids=…`, `GET /origin-goods?ids=…`). An id the answer leaves out does not exist; a
 * failed request is forgotten, so a later render asks again.
 */
const nameCache = new Map<string, Promise<string>>();
const nameKey = (kind: NameKind, id: string) => `${kind}/${id}`;

function fetchNames(kind: NameKind, ids: string[]): void {
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    const chunk = ids.slice(i, i + IDS_PER_REQUEST);
    const answer = api
      .get<Page<{ id: string; name: string }>>(`/${kind}?ids=${chunk.join(',')}&pageSize=${IDS_PER_REQUEST}`)
      .then((p) => new Map(p.items.map((x) => [x.id, x.name])));
    for (const id of chunk) {
      const k = nameKey(kind, id);
      const name = answer.then((m) => m.get(id) ?? NOT_FOUND);
      nameCache.set(k, name);
      name.catch(() => {
        if (nameCache.get(k) === name) nameCache.delete(k);
      });
    }
  }
}

export function useNames(kind: NameKind, ids: readonly string[]): Record<string, string> {
  const [names, setNames] = useState<Record<string, string>>({});
  const key = ids.join(',');
  useEffect(() => {
    let live = true;
    const wanted = [...new Set(ids)];
    fetchNames(
      kind,
      wanted.filter((id) => !nameCache.has(nameKey(kind, id))),
    );
    void Promise.allSettled(wanted.map((id) => nameCache.get(nameKey(kind, id))!)).then((rs) => {
      if (!live) return;
      const known: Record<string, string> = {};
      rs.forEach((r, i) => {
        if (r.status === 'fulfilled') known[wanted[i]!] = r.value;
      });
      setNames((m) => (Object.entries(known).every(([id, n]) => m[id] === n) ? m : { ...m, ...known }));
    });
    return () => {
      live = false;
    };
  }, [kind, key]);
  return names;
}
/** Remember a name already known (a search result), so a picked item shows it at once. */
export const rememberName = (kind: NameKind, id: string, name: string) => nameCache.set(nameKey(kind, id), Promise.resolve(name));

/** Which part of a link's name could not be read (the organisation report's `problem`), in words. */
const PART: Record<string, string> = { country: '国家', logistics: '物流', productName: '品名', sku: '款号' };
export function nameProblemText(p: { part: string; reason: string; text?: string | undefined }): string {
  const part = PART[p.part] ?? '名称';
  switch (p.reason) {
    case 'NO_LOGISTICS_BRACKET':
      return `读不出${part}：名称开头缺少「国家（物流）」，如「美国（包邮）」`;
    case 'MALFORMED_FIRST_SEGMENT':
      return `读不出${part}：开头的「${p.text ?? ''}」不是「国家（物流）」的写法`;
    case 'EMPTY_COUNTRY':
      return `读不出${part}：括号前缺少国家，如「美国（包邮）」`;
    case 'EMPTY_LOGISTICS':
      return `读不出${part}：括号里缺少物流方式，如「（包邮）」`;
    case 'NO_STYLE_CODE':
      return `读不出${part}：品名后找不到款号（如 G5000）${p.text ? `，「${p.text}」中没有` : ''}`;
    case 'NO_PRODUCT_NAME':
      return `读不出${part}：款号「${p.text ?? ''}」前没有品名`;
    default:
      return `读不出${part}`;
  }
}
