import { useEffect, useState } from 'react';
import { api } from '../api';
import type { TagGroupView, TagView } from '../../../../src/contract/vocabulary';
import { bySortOrder } from './order';

let cache: Promise<{ tags: TagView[]; groups: TagGroupView[] }> | null = null;
export function loadTagVocabulary(force = false) {
  if (force || !cache) {
    cache = Promise.all([api.get<{ items: TagView[] }>('/tags?pageSize=1000'), api.get<{ items: TagGroupView[] }>('/tag-groups?pageSize=1000')]).then(([t, g]) => ({
      tags: t.items,
      groups: g.items,
    }));
    cache.catch(() => (cache = null));
  }
  return cache;
}

export function useTags() {
  const [v, setV] = useState<{ tags: TagView[]; groups: TagGroupView[] } | null>(null);
  useEffect(() => {
    loadTagVocabulary().then(setV, () => undefined);
  }, []);
  return v;
}

/** Tag checkboxes grouped by tag group, each group a fieldset named by it. */
export function TagPicker({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const v = useTags();
  if (!v)
    return (
      <div className="muted" role="status">
        正在加载标签…
      </div>
    );
  const groups = [...v.groups, { id: '', name: '未分组', dimension: null, tagCount: 0 }];
  return (
    <div>
      {groups.map((g) => {
        const tags = v.tags.filter((t) => (t.groupId ?? '') === g.id).sort(bySortOrder);
        if (!tags.length) return null;
        return (
          <fieldset key={g.id} className="row plain" style={{ marginBottom: 4 }} data-testid={`tag-picker-${g.dimension ?? `group-${g.id || 'none'}`}`}>
            <legend style={{ minWidth: 64, fontWeight: 600, float: 'left' }}>{g.name}</legend>
            {tags.map((t) => (
              <label key={t.id} className="check">
                <input type="checkbox" checked={value.includes(t.id)} onChange={(e) => onChange(e.target.checked ? [...value, t.id] : value.filter((x) => x !== t.id))} />
                {t.name}
              </label>
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}

/** The five dimensions of a family's price matrix and their labels: the one list the pages use. */
export const DIMENSIONS = ['size', 'color', 'printCount', 'craft', 'logistics'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const DIM_LABEL: Record<Dimension, string> = { size: '尺码', color: '颜色', printCount: '印花面数', craft: '工艺', logistics: '物流' };

/** Each dimension's tag names (the values a family matrix uses), in tag order, from the groups that carry the dimension. */
export function dimensionValues(v: { tags: TagView[]; groups: TagGroupView[] }): Record<Dimension, string[]> {
  const out = Object.fromEntries(DIMENSIONS.map((d) => [d, [] as string[]])) as Record<Dimension, string[]>;
  const groupDim = new Map(v.groups.map((g) => [g.id, g.dimension]));
  for (const t of [...v.tags].sort(bySortOrder)) {
    const d = groupDim.get(t.groupId ?? '') as Dimension | null | undefined;
    if (d && out[d] && !out[d].includes(t.name)) out[d].push(t.name);
  }
  return out;
}
