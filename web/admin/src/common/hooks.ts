import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import { errorText } from './error-text';

/** Loads `path`; `reload()` fetches again. */
export function useLoad<T>(path: string | null) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!path) return;
    let live = true;
    setError('');
    api
      .get<T>(path)
      .then((d) => live && setData(d))
      .catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, reload, setData };
}

/**
 * Runs an action, showing its error; `run` answers whether the action succeeded (it never
 * rejects: the error is in the state).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const run = async (f: () => Promise<unknown>, ok?: string): Promise<boolean> => {
    setBusy(true);
    setError('');
    setMessage('');
    try {
      await f();
      if (ok) setMessage(ok);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, message, run };
}
