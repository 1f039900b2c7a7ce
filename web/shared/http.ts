import { joinUrl } from './join-url';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** How long the server asked the client to wait (`Retry-After` on a 429 or 503), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** `Retry-After` in milliseconds: seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface HttpClient {
  base: string;
  url(path: string): string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a caller that names no type reads the answer as the API documents it
  request<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as request
  get<T = any>(path: string): Promise<T>;
  upload(path: string, file: File): Promise<{ url: string }>;
}

/**
 * fetch with the session cookies (`credentials: 'include'`); tokens are never read or stored by
 * the page (they are HttpOnly cookies). With `refresh`, a 401 triggers one POST /auth/refresh
 * (shared by concurrent callers) and one retry of the original request. With `timeoutMs`, a request
 * without an answer by then fails (as a network failure would).
 */
export function createHttp(base: string, opts: { refresh?: boolean; onUnauthenticated?: () => void; timeoutMs?: number } = {}): HttpClient {
  let refreshing: Promise<boolean> | null = null;
  const refresh = () =>
    (refreshing ??= fetch(joinUrl(base, '/auth/refresh'), { method: 'POST', credentials: 'include' })
      .then((r) => r.ok)
      .catch(() => false)
      .finally(() => setTimeout(() => (refreshing = null), 0)));

  async function send(method: string, path: string, body: unknown, retry: boolean): Promise<Response> {
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    const res = await fetch(joinUrl(base, path), {
      method,
      credentials: 'include',
      headers: body === undefined || isForm ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      // A request a poor network never answers fails after `timeoutMs` instead of hanging the page.
      ...(opts.timeoutMs && typeof AbortSignal.timeout === 'function' ? { signal: AbortSignal.timeout(opts.timeoutMs) } : {}),
    });
    const isAuthRoute = /\/auth\/(login|register|refresh)$/.test(path);
    if (res.status === 401 && retry && opts.refresh && !isAuthRoute) {
      if (await refresh()) return send(method, path, body, false);
      opts.onUnauthenticated?.();
    }
    return res;
  }

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await send(method, path, body, true);
    const text = await res.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    if (!res.ok) {
      const e = (data as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
      throw new ApiError(res.status, e?.code ?? `HTTP_${res.status}`, e?.message ?? res.statusText, e?.details, retryAfterMs(res.headers.get('retry-after')));
    }
    return data as T;
  }

  return {
    base,
    url: (p) => joinUrl(base, p),
    request,
    get: (p) => request('GET', p),
    upload: (p, file) => {
      const fd = new FormData();
      fd.append('file', file);
      return request('POST', p, fd);
    },
  };
}
