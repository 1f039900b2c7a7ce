import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { errorText, fieldErrors } from './error-text';

/**
 * Loads `path`; `reload()` fetches again. While a new path loads, the last answer stays (`data`)
 * with `loading` set, so a list can dim its stale rows instead of going blank; an answer that
 * arrives after a newer request was made is dropped.
 */
export function useLoad<T>(path: string | null) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(path !== null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!path) {
      setLoading(false);
      return;
    }
    let live = true;
    setLoading(true);
    api
      .get<T>(path)
      .then((d) => {
        if (!live) return;
        setData(d);
        setError('');
      })
      .catch((e) => live && setError(errorText(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, setData };
}

/**
 * Runs an action, showing its outcome: the error in Chinese (with one message per field for a
 * validation failure), or the success message. A later success clears an earlier error. `run`
 * answers whether the action succeeded (it never rejects: the error is in the state).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = async (f: () => Promise<unknown>, ok?: string): Promise<boolean> => {
    setBusy(true);
    setError('');
    setFields({});
    setMessage('');
    try {
      await f();
      if (mounted.current && ok) setMessage(ok);
      return true;
    } catch (e) {
      if (mounted.current) {
        setError(errorText(e));
        setFields(fieldErrors(e));
      }
      return false;
    } finally {
      if (mounted.current) setBusy(false);
    }
  };
  const clear = useCallback(() => {
    setError('');
    setFields({});
    setMessage('');
  }, []);
  return { busy, error, fields, message, run, clear };
}

/**
 * A key handler for a field of a form that cannot be a `<form>` (it holds a search form of its own):
 * Enter does what the form's main button does. Not while an input method is composing: that Enter
 * picks the characters.
 */
export const onEnter = (f: () => unknown) => (e: { key: string; nativeEvent: { isComposing: boolean }; preventDefault(): void }) => {
  if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
  e.preventDefault();
  void f();
};
