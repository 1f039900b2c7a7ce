import { joinUrl } from './join-url';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface HttpClient {
  base: string;
  url(path: string): string;
  request<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  get<T = any>(path: string): Promise<T>;
  upload(path: string, file: File): Promise<{ url: string }>;
}

/**
 * fetch with the session cookies (`credentials: 'include'`); tokens are never read or stored by
 * the page (they are HttpOnly cookies). With `refresh`, a 401 triggers one POST /auth/refresh
 * (shared by concurrent callers) and one retry of the original request.
 */
export function createHttp(base: string, opts: { refresh?: boolean; onUnauthenticated?: () => void } = {}): HttpClient {
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
    let data: any = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    if (!res.ok) {
      const e = data?.error;
      throw new ApiError(res.status, e?.code ?? `HTTP_${res.status}`, e?.message ?? res.statusText, e?.details);
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
