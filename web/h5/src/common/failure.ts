/**
 * What went wrong with a storefront read, as the shopper is told it, and whether trying again can
 * help. No DOM here (the unit tests run it under Node): whether the device is online is passed in.
 *
 * A read that failed for a passing reason (the network, a 5xx, a 429) is tried again after a
 * growing, capped delay (./retrier.ts); one the server refused (any other 4xx) is not, since the
 * same request would be refused again: the shopper is offered a way on instead.
 */
export type FailureKind =
  /** the device says it has no network */
  | 'offline'
  /** the request got no answer (dropped, timed out) though the device thinks it is online */
  | 'network'
  /** the server failed (5xx other than 503) */
  | 'server'
  /** the server asked to come back later (503, 429, 408, 425) */
  | 'busy'
  /** what was asked for does not exist (404): a product that is gone */
  | 'notFound'
  /** the request itself was refused (another 4xx): a malformed link or filter */
  | 'invalid';

export interface Failure {
  kind: FailureKind;
  /** the HTTP status, when the server answered */
  status: number | null;
  /** the API's error code (docs/api.md, Errors), when the server answered one */
  code: string | null;
  /** how long the server asked us to wait, when it said */
  retryAfterMs: number | null;
}

interface AnsweredError {
  status: number;
  code?: string;
  retryAfterMs?: number;
}

const isAnswered = (e: unknown): e is AnsweredError => typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number';

/** Classifies what a request threw: an `ApiError` (the server answered) or anything else (no answer). */
export function failureOf(e: unknown, online: boolean): Failure {
  if (!isAnswered(e)) return { kind: online ? 'network' : 'offline', status: null, code: null, retryAfterMs: null };
  const { status } = e;
  const kind: FailureKind = status === 404 ? 'notFound' : status === 408 || status === 425 || status === 429 || status === 503 ? 'busy' : status >= 500 ? 'server' : 'invalid';
  return { kind, status, code: e.code ?? null, retryAfterMs: e.retryAfterMs ?? null };
}

/** Whether the same request may succeed later on its own. */
export const isPassing = (f: Failure): boolean => f.kind === 'offline' || f.kind === 'network' || f.kind === 'server' || f.kind === 'busy';

/** The first automatic retry waits about a second; each next one twice as long, never over the cap. */
export const FIRST_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 30_000;
/** Automatic retries in a row before the page waits for the shopper (or the network) instead. */
export const MAX_AUTO_RETRIES = 4;
/** A server's `Retry-After` is obeyed up to this long. */
const MAX_SERVER_WAIT_MS = 5 * 60_000;

/**
 * How long to wait before automatic retry number `n` (1-based): exponential from FIRST_RETRY_MS,
 * capped at MAX_RETRY_MS, spread by ±20% so that many phones cut off together do not come back in
 * step; never sooner than the server's `Retry-After`.
 */
export function retryDelayMs(n: number, f: Failure, random: () => number): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (n - 1));
  const spread = Math.min(MAX_RETRY_MS, base * (0.8 + 0.4 * random()));
  return Math.max(spread, Math.min(f.retryAfterMs ?? 0, MAX_SERVER_WAIT_MS));
}

/**
 * What the page says about a failure: a title and what happened. `subject` names what failed to
 * load. For a passing failure the page adds what happens next (./components.tsx, ErrorState).
 */
export function failureText(f: Failure, subject = '内容'): { title: string; hint: string } {
  switch (f.kind) {
    case 'offline':
      return { title: '网络已断开', hint: `请检查网络连接，网络恢复后会自动重新加载${subject}` };
    case 'network':
      return { title: '网络不给力', hint: `${subject}没有加载出来，请检查网络` };
    case 'server':
      return { title: '服务器开小差了', hint: `${subject}暂时加载不出来` };
    case 'busy':
      return { title: '当前访问人数较多', hint: `${subject}暂时加载不出来` };
    case 'notFound':
      return { title: '商品已下架或不存在', hint: '这件商品可能已经下架，去看看其他商品吧' };
    case 'invalid':
      return { title: '链接无效', hint: '这个链接不完整或已失效，去看看其他商品吧' };
    default: {
      const never: never = f.kind;
      return never;
    }
  }
}
