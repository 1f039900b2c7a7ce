/**
 * The list's filter panel: a modal sheet (a native <dialog>, so focus stays in it, Esc closes it and
 * the page behind is inert) where the shopper picks a country and any tags. Choices are a draft
 * until 确定; 重置 clears the draft and keeps the panel open; closing without 确定 changes nothing.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ResourceError, SkeletonLines } from '../common/components';
import type { Resource } from '../common/hooks';

export interface Country {
  id: string;
  name: string;
  familyCount: number;
}
export interface TagGroup {
  id: string;
  name: string;
  tags: { id: string; name: string; familyCount: number }[];
}
export interface PanelChoice {
  countryId: string | null;
  tagIds: string[];
}

/**
 * Tab from the panel's last control goes to its first, Shift+Tab from the first to the last: the
 * page behind is inert, and without this the focus would leave for the browser's own controls.
 */
function wrapFocus(e: KeyboardEvent<HTMLDialogElement>, box: HTMLDialogElement | null): void {
  if (e.key !== 'Tab' || !box) return;
  const all = [...box.querySelectorAll<HTMLElement>('button, a[href], input, [tabindex]:not([tabindex="-1"])')].filter((x) => !x.hasAttribute('disabled'));
  const first = all[0];
  const last = all[all.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

export function FilterPanel(props: {
  countries: Resource<{ items: Country[] }>;
  groups: Resource<{ items: TagGroup[] }>;
  applied: PanelChoice;
  onApply(choice: PanelChoice): void;
  onClose(): void;
}) {
  const { countries, groups } = props;
  const [draft, setDraft] = useState<PanelChoice>(props.applied);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const toggleTag = (id: string) => setDraft((d) => ({ ...d, tagIds: d.tagIds.includes(id) ? d.tagIds.filter((x) => x !== id) : [...d.tagIds, id] }));
  const chosen = (draft.countryId ? 1 : 0) + draft.tagIds.length;
  return (
    <dialog
      ref={dialog}
      className="sheet"
      aria-labelledby="filter-title"
      data-testid="filter-panel"
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
      // A tap on the backdrop (outside the sheet's box) closes it, like the Esc key.
      onClick={(e) => {
        if (e.target === dialog.current) props.onClose();
      }}
      onKeyDown={(e) => wrapFocus(e, dialog.current)}
    >
      <div className="sheet-head">
        <h2 id="filter-title">筛选</h2>
        <button type="button" className="close" aria-label="关闭筛选" onClick={props.onClose}>
          ×
        </button>
      </div>
      <div className="sheet-body">
        <p className="hint left" id="count-note">
          选项后的数字是全店的商品款数，不随已选条件变化
        </p>
        <fieldset>
          <legend>国家</legend>
          {countries.data ? (
            <div className="opts">
              <button type="button" aria-pressed={draft.countryId === null} onClick={() => setDraft((d) => ({ ...d, countryId: null }))}>
                不限
              </button>
              {countries.data.items.map((c) => (
                <button
                  key={c.id}
                  type="button"
                  aria-pressed={draft.countryId === c.id}
                  aria-label={`${c.name}（全店 ${c.familyCount} 款）`}
                  onClick={() => setDraft((d) => ({ ...d, countryId: c.id }))}
                >
                  {c.name}
                  <span className="count">{c.familyCount}</span>
                </button>
              ))}
            </div>
          ) : countries.failure ? (
            <ResourceError compact of={countries} subject="国家" />
          ) : (
            <SkeletonLines lines={['opts']} />
          )}
        </fieldset>
        {groups.data ? (
          groups.data.items
            .filter((g) => g.tags.length > 0)
            .map((g) => (
              <fieldset key={g.id}>
                <legend>{g.name}</legend>
                <div className="opts">
                  {g.tags.map((t) => (
                    <button
                      key={t.id}
                      type="button"
                      aria-pressed={draft.tagIds.includes(t.id)}
                      aria-label={`${t.name}（全店 ${t.familyCount} 款）`}
                      onClick={() => toggleTag(t.id)}
                    >
                      {t.name}
                      <span className="count">{t.familyCount}</span>
                    </button>
                  ))}
                </div>
              </fieldset>
            ))
        ) : groups.failure ? (
          <ResourceError compact of={groups} subject="标签" />
        ) : (
          <SkeletonLines lines={['short', 'opts', 'short', 'opts']} />
        )}
      </div>
      <div className="sheet-foot">
        <button type="button" className="btn" onClick={() => setDraft({ countryId: null, tagIds: [] })}>
          重置
        </button>
        <button type="button" className="btn primary" onClick={() => props.onApply(draft)}>
          确定{chosen > 0 ? `（已选 ${chosen} 项）` : ''}
        </button>
      </div>
    </dialog>
  );
}
