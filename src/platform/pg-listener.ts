/**
 * One LISTEN connection per process, shared by everything that waits for a PostgreSQL notification
 * (event-store readers, cache coherence, command waits). It reconnects with backoff; after a
 * reconnect every subscriber is called once, because notifications sent while it was away are lost.
 */
import type pg from 'pg';
import { createClient, ident } from './db';

type Handler = (payload: string) => void;

export class PgListener {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private connecting: Promise<void> | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  async subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    const fresh = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    await this.ensureConnected();
    if (fresh && this.client) await this.client.query(`LISTEN ${ident(channel)}`);
    return async () => {
      set!.delete(handler);
      if (set!.size === 0) {
        this.handlers.delete(channel);
        await this.client?.query(`UNLISTEN ${ident(channel)}`).catch(() => undefined);
      }
    };
  }

  private ensureConnected(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    if (!this.connecting) {
      this.connecting = this.connect().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = createClient(this.url, 'catalog-listener');
    client.on('notification', (msg) => {
      for (const h of this.handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, new Error('listener connection ended')));
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${ident(channel)}`);
    this.client = client;
  }

  private lost(client: pg.Client, e: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.onError(e);
    this.scheduleReconnect(250);
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.ensureConnected().then(
        () => {
          // Whatever was notified while disconnected is gone: wake everyone so they re-read.
          for (const [, hs] of this.handlers) for (const h of hs) h('');
        },
        (err) => {
          this.onError(err);
          this.scheduleReconnect(Math.min(delayMs * 2, 10_000));
        },
      );
    }, delayMs);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}
