import { useEffect, useState } from 'react';
import { api } from '../api';

/** Loads `path` once per path: its data, or the error's message. */
export function useFetch<T>(path: string) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    api.get<T>(path).then((d) => live && setData(d), (e) => live && setError(e.message));
    return () => { live = false; };
  }, [path]);
  return { data, error };
}
