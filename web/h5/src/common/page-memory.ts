/**
 * A page's place in the shopper's history: each history entry of the storefront carries a key
 * (`history.state.key`), and what its page showed (the scroll position, and what the page chooses
 * to keep: the list's loaded pages, the selected category) is kept under that key. Going back to
 * the entry brings it back; a new visit (a tapped link makes a new entry) starts afresh.
 *
 * Kept in memory, and copied to sessionStorage when the page is left, so a reload or a return from
 * another site keeps it too (best effort: a full or refused storage just loses it).
 */
import { useEffect, useLayoutEffect, useRef } from 'react';

interface EntryState {
  key: string;
  /** reached by navigating inside the storefront: going back stays in it */
  inApp: boolean;
}

interface Kept {
  y: number;
  data?: unknown;
}

const STORAGE_PREFIX = 'h5-page:';
const memory = new Map<string, Kept>();

const entryState = (): Partial<EntryState> => (history.state && typeof history.state === 'object' ? (history.state as Partial<EntryState>) : {});
const newKey = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** Gives the current history entry its key, once; `inApp` says how the shopper got here. */
export function markEntry(inApp: boolean): void {
  const s = entryState();
  if (typeof s.key === 'string') return;
  history.replaceState({ ...s, key: newKey(), inApp }, '', location.href);
}

/** Whether the previous history entry is a storefront page (so 返回 can go back to it). */
export const cameFromStorefront = (): boolean => entryState().inApp === true;

/** Changes the current entry's address without a new entry, keeping its key. */
export function replaceAddress(hash: string): void {
  history.replaceState(history.state, '', hash);
}

function read(key: string): Kept | undefined {
  const inMemory = memory.get(key);
  if (inMemory) return inMemory;
  try {
    const stored = sessionStorage.getItem(STORAGE_PREFIX + key);
    if (!stored) return undefined;
    const kept = JSON.parse(stored) as Kept;
    memory.set(key, kept);
    return kept;
  } catch {
    return undefined;
  }
}

function store(key: string, kept: Kept): void {
  try {
    sessionStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(kept));
  } catch {
    // Storage full or refused: the memory copy still serves back navigation.
  }
}

/**
 * The current entry's kept state: `restored` is what `remember` kept there before (undefined on a
 * new visit). The scroll position is kept as the shopper scrolls, and put back once `ready` (the
 * page has drawn what it showed, so there is somewhere to scroll to); a new visit starts at the top.
 */
export function usePageMemory<T>(ready: boolean): { restored: T | undefined; remember(data: T): void } {
  const key = useRef<string | null>(null);
  if (key.current === null) key.current = entryState().key ?? newKey();
  const k = key.current;
  const kept = useRef<Kept | undefined>(undefined);
  if (kept.current === undefined) kept.current = read(k) ?? { y: 0 };
  const restoredY = useRef<number | null>(kept.current.y);
  const restored = useRef(kept.current.data as T | undefined);

  useLayoutEffect(() => {
    if (restoredY.current === null) return;
    if (restoredY.current === 0) {
      window.scrollTo(0, 0);
      restoredY.current = null;
    } else if (ready) {
      window.scrollTo(0, restoredY.current);
      restoredY.current = null;
    }
  }, [ready]);

  useEffect(() => {
    const entry = kept.current!;
    memory.set(k, entry);
    // Scroll events of another entry (the page that replaces this one) are not this page's.
    const onScroll = () => {
      if (entryState().key === k && restoredY.current === null) entry.y = window.scrollY;
    };
    const save = () => store(k, entry);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', save);
      save();
    };
  }, [k]);

  return {
    restored: restored.current,
    remember: (data: T) => {
      kept.current!.data = data;
    },
  };
}
