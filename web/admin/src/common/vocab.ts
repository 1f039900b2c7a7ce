import { useEffect, useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../../src/contract/page';
import type { CategoryView, CountryView } from '../../../../src/contract/vocabulary';

/** Countries and categories by id, read once per page load (the lists name them; ids never show). */
let cache: Promise<{ countries: CountryView[]; categories: CategoryView[] }> | null = null;
export function loadPlaces(force = false) {
  if (force || !cache) {
    cache = Promise.all([api.get<Page<CountryView>>('/countries?pageSize=1000'), api.get<Page<CategoryView>>('/categories?pageSize=1000')]).then(([c, k]) => ({
      countries: c.items,
      categories: k.items,
    }));
    cache.catch(() => (cache = null));
  }
  return cache;
}

export function usePlaces() {
  const [v, setV] = useState<{ countries: CountryView[]; categories: CategoryView[] } | null>(null);
  useEffect(() => {
    let live = true;
    loadPlaces().then(
      (x) => live && setV(x),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  const country = (id: string | null | undefined) => (id ? (v?.countries.find((c) => c.id === id)?.name ?? '') : '');
  const category = (id: string | null | undefined) => (id ? (v?.categories.find((c) => c.id === id)?.name ?? '') : '');
  return { places: v, country, category };
}
