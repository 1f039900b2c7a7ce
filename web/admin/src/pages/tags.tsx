import { useEffect, useState } from 'react';
import { api } from '../api';

export interface Tag { id: string; name: string; groupId: string | null; sortOrder: number; color: string | null }
export interface TagGroup { id: string; name: string; dimension: string | null; tagCount: number }

let cache: Promise<{ tags: Tag[]; groups: TagGroup[] }> | null = null;
export function loadTagVocabulary(force = false) {
  if (force || !cache) {
    cache = Promise.all([api.get<{ items: Tag[] }>('/tags?pageSize=1000'), api.get<{ items: TagGroup[] }>('/tag-groups?pageSize=1000')]).then(
      ([t, g]) => ({ tags: t.items, groups: g.items }),
    );
    cache.catch(() => (cache = null));
  }
  return cache;
}

export function useTags() {
  const [v, setV] = useState<{ tags: Tag[]; groups: TagGroup[] } | null>(null);
  useEffect(() => {
    loadTagVocabulary().then(setV, () => undefined);
  }, []);
  return v;
}

/** Tag checkboxes grouped by tag group. */
export function TagPicker({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const v = useTags();
  if (!v) return <div className="muted">加载标签…</div>;
  const groups = [...v.groups, { id: '', name: '未分组', dimension: null, tagCount: 0 }];
  return (
    <div>
      {groups.map((g) => {
        const tags = v.tags.filter((t) => (t.groupId ?? '') === g.id).sort((a, b) => a.sortOrder - b.sortOrder);
        if (!tags.length) return null;
        return (
          <div key={g.id} className="row" style={{ marginBottom: 4 }}>
            <b style={{ minWidth: 64 }}>{g.name}</b>
            {tags.map((t) => (
              <label key={t.id} className="row" style={{ flexDirection: 'row', gap: 2 }}>
                <input
                  type="checkbox"
                  checked={value.includes(t.id)}
                  onChange={(e) => onChange(e.target.checked ? [...value, t.id] : value.filter((x) => x !== t.id))}
                />
                {t.name}
              </label>
            ))}
          </div>
        );
      })}
    </div>
  );
}
