import { useId, useState } from 'react';
import { api } from '../api';
import type { BulkRun } from '../../../../src/contract/bulk';
import { Status } from './components';
import { useAction } from './hooks';
import { BulkRunStatus, useBulkRun } from './bulk-run';
import { useTags } from './tags';
import { usePlaces } from './vocab';

export type ReplaceKind = 'countries' | 'categories' | 'tags';

/** What a replacement moves (docs/api.md, Usage): goods, and a category's subcategories; never links. */
export const REPLACEABLE: readonly string[] = ['goods', 'children'];

const WHAT: Record<ReplaceKind, string> = { countries: '国家', categories: '类目', tags: '标签' };

/** The live ones of the kind, itself left out; a tag is offered from its own group first. */
function useCandidates(kind: ReplaceKind, id: string): { id: string; name: string }[] {
  const { places } = usePlaces();
  const tags = useTags();
  if (kind === 'tags') {
    const own = tags?.tags.find((t) => t.id === id)?.groupId;
    const groupName = (g: string) => tags?.groups.find((x) => x.id === g)?.name ?? '';
    return (tags?.tags ?? [])
      .filter((t) => t.id !== id)
      .sort((a, b) => Number(b.groupId === own) - Number(a.groupId === own))
      .map((t) => ({ id: t.id, name: `${t.name}（${groupName(t.groupId)}）` }));
  }
  return ((kind === 'countries' ? places?.countries : places?.categories) ?? []).filter((x) => x.id !== id);
}

/**
 * "替换为 … 并删除": moves every user the administrator can move to another one, each by its own
 * change, then deletes, in one step (POST /<kind>/:id/replace), showing the run as it goes.
 */
export function ReplaceAndDelete({ kind, id, name, onReplaced }: { kind: ReplaceKind; id: string; name: string; onReplaced: () => void }) {
  const candidates = useCandidates(kind, id);
  const [to, setTo] = useState('');
  const [started, setStarted] = useState<BulkRun | null>(null);
  const run = useBulkRun(started, (r) => r.state === 'succeeded' && onReplaced());
  const a = useAction();
  const field = useId();
  const what = WHAT[kind];
  const target = candidates.find((c) => c.id === to)?.name ?? '…';
  if (run) return <BulkRunStatus run={run} unit={kind === 'categories' ? '商品或下级类目' : '商品'} />;
  return (
    <div className="card inset" data-testid="replace">
      <p>
        也可以把用到「{name}」的商品{kind === 'categories' ? '和下级类目' : ''}一次改到另一个{what}，然后删除「{name}」。每个商品的修改都会记入它的历史。
      </p>
      <div className="row">
        <label htmlFor={field}>替换为</label>
        <select id={field} data-testid="replace-with" value={to} onChange={(e) => setTo(e.target.value)}>
          <option value="">选择{what}…</option>
          {candidates.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="danger-solid"
          disabled={!to || a.busy}
          data-testid="replace-confirm"
          onClick={() => void a.run(async () => setStarted(await api.request<BulkRun>('POST', `/${kind}/${id}/replace`, { replaceWith: to })))}
        >
          替换为「{target}」并删除
        </button>
      </div>
      <Status a={a} />
    </div>
  );
}
