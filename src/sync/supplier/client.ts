/**
 * HTTP client of the supplier contract (docs/supplier.md). Suppliers are slow and flaky, so every
 * request has its own timeout and is retried with exponential backoff and jitter on timeouts, network
 * errors, 429 and 5xx, honouring `Retry-After`. Responses are validated: a bad item in a listing is
 * reported and skipped, a bad page or detail fails with `UPSTREAM.MALFORMED`.
 *
 * Errors (all `AppError`):
 * - `UPSTREAM.UNAVAILABLE` (503): retries exhausted on timeouts, network errors, 429 or 5xx.
 * - `UPSTREAM.MALFORMED` (502): unparseable JSON after its retries, a wrong envelope, a bad detail.
 * - `UPSTREAM.REJECTED` (502): any other 4xx (bad token, bad request); retrying cannot help.
 */
import type { z } from 'zod';
import { AppError, isAppError } from '../../platform/errors';
import { isInt64 } from '../../platform/ids';
import type { Logger } from '../../platform/log';
import { categorySchema, countrySchema, detailSchema, goodsEnvelopeSchema, linkSchema, listEnvelopeSchema, type Category, type Country, type Detail, type Link } from './schemas';
import { getText, TransportTimeout, type TextResponse } from './transport';

export const MAX_PAGE_LIMIT = 500;

const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;
/** A supplier asking for a longer pause than this is treated as asking for this much. */
const RETRY_AFTER_CAP_MS = 30_000;
/**
 * Unparseable JSON with a 200 is usually a connection cut by a proxy, so it is retried, but only this
 * many times: a supplier that keeps sending broken JSON is broken, not unavailable.
 */
const MAX_UNPARSEABLE_RETRIES = 2;
/** How much of an error body goes into an error's details. */
const BODY_EXCERPT_CHARS = 200;

export interface SupplierClientOptions {
  baseUrl: string;
  token?: string;
  /** Per attempt, covering both the headers and the body. */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Requests `details()` runs at once. */
  concurrency?: number;
  log?: Logger;
  /** Waits between attempts; tests inject one that records the delay and returns at once. */
  sleep?: (ms: number) => Promise<void>;
}

export interface InvalidItem {
  /** Position in the page's `items`. */
  index: number;
  /** The item's `id` when it had a string one, so the report can name the link. */
  id?: string;
  issues: string[];
}

export interface Listing<T> {
  items: T[];
  invalid: InvalidItem[];
}

export interface GoodsPage extends Listing<Link> {
  nextCursor: string | null;
}

export interface DetailsReport {
  /** Details received and handed to `onEach`. */
  fetched: number;
  /** Ids the supplier answered 404 for (handed to `onEach` with `null`). */
  gone: string[];
  /** Ids whose detail was malformed; the others went on. */
  failed: { id: string; error: AppError }[];
}

type Failure = { kind: 'retryable'; reason: string; retryAfterMs?: number } | { kind: 'unparseable'; reason: string } | { kind: 'rejected'; status: number; body: string };

type Attempt = { ok: true; body: unknown } | { ok: true; gone: true } | { ok: false; failure: Failure };

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3); anything else is ignored. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, RETRY_AFTER_CAP_MS);
  // All three HTTP date forms start with a day name; Date.parse alone would also take "-5" as a year.
  const at = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(at - now, 0), RETRY_AFTER_CAP_MS);
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
}

function itemId(item: unknown): string | undefined {
  if (item && typeof item === 'object' && 'id' in item && typeof item.id === 'string') return item.id;
  return undefined;
}

function networkReason(e: unknown): string {
  // The socket's error names the cause (ECONNREFUSED, ECONNRESET …). Duck-typed, not `instanceof
  // Error`: errors can come from another realm (e.g. a jest sandbox).
  const err = (e ?? {}) as { message?: unknown; code?: unknown };
  if (typeof err.code === 'string') return `network error ${err.code}`;
  return `network error: ${typeof err.message === 'string' ? err.message : String(e)}`;
}

export class SupplierClient {
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly concurrency: number;
  private readonly log: Logger | undefined;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(opts: SupplierClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.token = opts.token;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.maxRetries = opts.maxRetries ?? 4;
    this.concurrency = opts.concurrency ?? 8;
    this.log = opts.log;
    this.sleep = opts.sleep ?? defaultSleep;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new RangeError('concurrency must be a positive integer');
    }
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) {
      throw new RangeError('maxRetries must be a non-negative integer');
    }
  }

  async categories(): Promise<Listing<Category>> {
    const { items, invalid } = this.parsePage('/categories', await this.getJson('/categories'), listEnvelopeSchema, categorySchema);
    return { items, invalid };
  }

  async countries(): Promise<Listing<Country>> {
    const { items, invalid } = this.parsePage('/countries', await this.getJson('/countries'), listEnvelopeSchema, countrySchema);
    return { items, invalid };
  }

  /** One page of links; `cursor` null asks for the first page. */
  async goodsPage(cursor: string | null, limit: number): Promise<GoodsPage> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
      throw AppError.badRequest('UPSTREAM.PAGE_LIMIT', `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
    }
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor !== null) query.set('cursor', cursor);
    const path = `/goods?${query.toString()}`;
    const { envelope, items, invalid } = this.parsePage(path, await this.getJson(path), goodsEnvelopeSchema, linkSchema);
    return { items, invalid, nextCursor: envelope.nextCursor };
  }

  /** The link's detail, or null when the supplier no longer has the link (404). */
  async detail(id: string): Promise<Detail | null> {
    if (!isInt64(id)) throw AppError.badRequest('INVALID_ID', 'link id must be a decimal 64-bit integer');
    const path = `/goods/${id}/detail`;
    const body = await this.getJson(path, { allowGone: true });
    if (body === null) return null;
    const parsed = detailSchema.safeParse(body);
    if (!parsed.success) {
      throw new AppError('UPSTREAM.MALFORMED', 502, `supplier sent a malformed detail for link ${id}`, {
        path,
        issues: describeIssues(parsed.error),
      });
    }
    if (parsed.data.id !== id) {
      throw new AppError('UPSTREAM.MALFORMED', 502, `supplier answered link ${id} with the detail of ${parsed.data.id}`, {
        path,
      });
    }
    return parsed.data;
  }

  /**
   * Fetches the details of `ids` with at most `concurrency` requests at once, handing each to
   * `onEach` (null when the link is gone) as it arrives, in completion order. A malformed detail is
   * recorded in the report and the others go on; a supplier that is unavailable or rejects us, or an
   * `onEach` that throws, stops the run: no new requests start, the running ones finish, and the
   * first such error is thrown.
   */
  async details(ids: readonly string[], onEach: (id: string, detail: Detail | null) => void | Promise<void>): Promise<DetailsReport> {
    const report: DetailsReport = { fetched: 0, gone: [], failed: [] };
    let next = 0;
    // Set by the first fatal error; workers check it before each step.
    const halt: { stopped: boolean; error: unknown } = { stopped: false, error: undefined };
    const stop = (error: unknown): void => {
      if (halt.stopped) return;
      halt.stopped = true;
      halt.error = error;
    };

    const worker = async (): Promise<void> => {
      while (!halt.stopped && next < ids.length) {
        const id = ids[next++]!;
        let detail: Detail | null;
        try {
          detail = await this.detail(id);
        } catch (e) {
          if (isAppError(e) && e.code === 'UPSTREAM.MALFORMED') {
            report.failed.push({ id, error: e });
            continue;
          }
          stop(e);
          return;
        }
        // Another worker failed while this request ran: its result is dropped like any unstarted id.
        if (halt.stopped) return;
        try {
          await onEach(id, detail);
        } catch (e) {
          stop(e);
          return;
        }
        if (detail) report.fetched++;
        else report.gone.push(id);
      }
    };

    await Promise.all(Array.from({ length: Math.min(this.concurrency, ids.length) }, worker));
    if (halt.stopped) throw halt.error;
    return report;
  }

  private parsePage<E extends { items: unknown[] }, T>(path: string, body: unknown, envelopeSchema: z.ZodType<E>, itemSchema: z.ZodType<T>): Listing<T> & { envelope: E } {
    const page = envelopeSchema.safeParse(body);
    if (!page.success) {
      throw new AppError('UPSTREAM.MALFORMED', 502, `supplier sent a malformed page for GET ${path}`, {
        path,
        issues: describeIssues(page.error),
      });
    }
    const items: T[] = [];
    const invalid: InvalidItem[] = [];
    page.data.items.forEach((raw, index) => {
      const parsed = itemSchema.safeParse(raw);
      if (parsed.success) items.push(parsed.data);
      else invalid.push({ index, id: itemId(raw), issues: describeIssues(parsed.error) });
    });
    return { envelope: page.data, items, invalid };
  }

  /** GET with retries; resolves to the parsed JSON body, or null for a 404 when `allowGone`. */
  private async getJson(path: string, opts: { allowGone?: boolean } = {}): Promise<unknown> {
    let unparseable = 0;
    for (let attempt = 1; ; attempt++) {
      const result = await this.attempt(path, opts.allowGone ?? false);
      if (result.ok) return 'gone' in result ? null : result.body;

      const failure = result.failure;
      if (failure.kind === 'rejected') {
        throw new AppError('UPSTREAM.REJECTED', 502, `supplier answered ${failure.status} to GET ${path}`, {
          path,
          status: failure.status,
          body: failure.body,
        });
      }
      if (failure.kind === 'unparseable') unparseable++;
      const retriesLeft = attempt <= this.maxRetries && unparseable <= MAX_UNPARSEABLE_RETRIES;
      if (!retriesLeft) {
        if (failure.kind === 'unparseable') {
          throw new AppError('UPSTREAM.MALFORMED', 502, `supplier sent unparseable JSON for GET ${path}`, {
            path,
            attempts: attempt,
            last: failure.reason,
          });
        }
        throw new AppError('UPSTREAM.UNAVAILABLE', 503, `supplier unavailable for GET ${path}: ${failure.reason}`, {
          path,
          attempts: attempt,
          last: failure.reason,
        });
      }
      const delayMs = (failure.kind === 'retryable' ? failure.retryAfterMs : undefined) ?? this.backoff(attempt);
      this.log?.warn({ path, attempt, reason: failure.reason, delayMs }, 'supplier request failed; retrying');
      await this.sleep(delayMs);
    }
  }

  /** Exponential backoff with "equal jitter": half fixed, half random, so clients do not retry in step. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  private async attempt(path: string, allowGone: boolean): Promise<Attempt> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let res: TextResponse;
    try {
      res = await getText(this.baseUrl + path, headers, this.timeoutMs);
    } catch (e) {
      if (e instanceof TransportTimeout) return { ok: false, failure: { kind: 'retryable', reason: e.message } };
      return { ok: false, failure: { kind: 'retryable', reason: networkReason(e) } };
    }
    const { status, text } = res;
    if (status >= 200 && status < 300) {
      try {
        return { ok: true, body: JSON.parse(text) };
      } catch {
        return { ok: false, failure: { kind: 'unparseable', reason: `unparseable JSON (${text.length} characters)` } };
      }
    }
    if (status === 404 && allowGone) return { ok: true, gone: true };
    if (status === 429 || status >= 500) {
      const retryAfterMs = parseRetryAfter(res.header('retry-after') ?? null);
      return { ok: false, failure: { kind: 'retryable', reason: `HTTP ${status}`, retryAfterMs } };
    }
    return { ok: false, failure: { kind: 'rejected', status, body: text.slice(0, BODY_EXCERPT_CHARS) } };
  }
}
