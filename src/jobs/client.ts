/**
 * The main thread's side of the jobs thread (src/jobs-thread.ts): starts it, hands it the long operations
 * (./jobs.ts) and answers as if they had run in process (the same results, the same AppErrors). A
 * thread that dies is started again; the calls it was running fail with a 503, so an administrator
 * can retry (a run's own record says how far it got).
 */
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { AppError } from '../platform/errors';
import type { Jobs } from './jobs';
import { fromWire, type Call, type Reply, type ThreadStart } from './protocol';

type MetricsJson = Awaited<ReturnType<import('prom-client').Registry['getMetricsAsJSON']>>;
interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onRun?: (runId: string) => void;
}

const BOOTSTRAP = path.resolve(__dirname, '../../bin/jobs-thread.js');
const RESTART_DELAY_MS = 1_000;

export class JobsThread implements Jobs {
  private worker!: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** synchronisations started through this thread, by the id of the call that started them */
  private readonly finishing = new Map<number, Pending>();
  private closing: Promise<void> | null = null;
  /** between a thread's death and its successor's start: calls fail at once (503) */
  private down = false;

  private constructor(
    private readonly start: ThreadStart,
    private readonly log: Logger,
  ) {}

  /** Starts the thread and waits until its services are up (and, with the worker role, its runners). */
  static async start(start: ThreadStart, log: Logger): Promise<JobsThread> {
    const t = new JobsThread(start, log);
    await t.spawn();
    return t;
  }

  private spawn(): Promise<void> {
    // The thread's heap is capped like the process's (bin/catalog.js): its old space holds what
    // organisation plans, the projections' batches and a rebuild's replay.
    const heapMb = Math.round(getHeapStatistics().heap_size_limit / 1024 / 1024);
    this.worker = new Worker(BOOTSTRAP, { workerData: this.start, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      this.worker.on('message', (m: Reply) => {
        if (m.kind === 'ready') {
          ready = true;
          this.down = false;
          resolve();
        } else if (m.kind === 'failed') reject(fromWire(m.error));
        else this.receive(m);
      });
      this.worker.on('error', (e) => {
        this.log.error({ err: e }, 'the jobs thread failed');
        if (!ready) reject(e);
      });
      this.worker.on('exit', (code) => {
        if (this.closing) return;
        this.down = true;
        this.failAll(AppError.unavailable('JOBS.UNAVAILABLE', 'the operation stopped with its thread; try again'));
        if (!ready) return reject(new Error(`the jobs thread exited (${code}) before it was ready`));
        this.log.error({ code }, 'the jobs thread exited; starting it again');
        setTimeout(() => {
          if (!this.closing) this.spawn().catch((e) => this.log.error({ err: e }, 'the jobs thread could not be started again'));
        }, RESTART_DELAY_MS).unref();
      });
    });
  }

  private receive(m: Exclude<Reply, { kind: 'ready' } | { kind: 'failed' }>): void {
    if (m.kind === 'closed') return;
    if (m.kind === 'run') {
      this.pending.get(m.id)?.onRun?.(m.runId);
      return;
    }
    const table = m.kind === 'finished' ? this.finishing : this.pending;
    const p = table.get(m.id);
    if (!p) return;
    table.delete(m.id);
    if (m.ok) p.resolve(m.value);
    else p.reject(fromWire(m.error));
  }

  private failAll(e: Error): void {
    for (const table of [this.pending, this.finishing]) {
      for (const p of table.values()) p.reject(e);
      table.clear();
    }
  }

  private call<T>(c: Call & { kind: 'call' }, extra: Partial<Pending> = {}): Promise<T> {
    if (this.closing) return Promise.reject(AppError.unavailable('JOBS.UNAVAILABLE', 'the service is stopping'));
    if (this.down) return Promise.reject(AppError.unavailable('JOBS.UNAVAILABLE', 'the thread that runs long operations is starting again; try again shortly'));
    return new Promise<T>((resolve, reject) => {
      this.pending.set(c.id, { resolve: resolve as (v: unknown) => void, reject, ...extra });
      this.worker.postMessage(c);
    });
  }

  organise(by: string, opts: { groupOnly?: boolean; onRun?: (runId: string) => void } = {}): ReturnType<Jobs['organise']> {
    return this.call({ kind: 'call', id: this.nextId++, op: 'organise', by, groupOnly: !!opts.groupOnly }, opts.onRun ? { onRun: opts.onRun } : {});
  }

  async startSync(...[kind, params]: Parameters<Jobs['startSync']>): ReturnType<Jobs['startSync']> {
    const id = this.nextId++;
    const finished = new Promise<never>((resolve, reject) => this.finishing.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    // Nobody may be waiting for the end (a run started over HTTP answers its id): no unhandled rejection.
    finished.catch(() => undefined);
    try {
      const { runId } = await this.call<{ runId: string }>({ kind: 'call', id, op: 'startSync', syncKind: kind, params });
      return { runId, finished };
    } catch (e) {
      this.finishing.delete(id);
      throw e;
    }
  }

  batchCreateGoods(...[body, actor]: Parameters<Jobs['batchCreateGoods']>): ReturnType<Jobs['batchCreateGoods']> {
    return this.call({ kind: 'call', id: this.nextId++, op: 'batchCreateGoods', body, actor });
  }

  /** The thread's own metrics (appends, applied events, synchronisation runs), for this process's /metrics. */
  metrics(): Promise<MetricsJson> {
    return this.call<MetricsJson>({ kind: 'call', id: this.nextId++, op: 'metrics' });
  }

  /** Lets the thread finish what it runs (a synchronisation drains) and close its services. */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      const closed = new Promise<void>((resolve) => {
        this.worker.once('exit', () => resolve());
        this.worker.on('message', (m: Reply) => {
          if (m.kind === 'closed') void this.worker.terminate();
        });
      });
      this.worker.postMessage({ kind: 'close' } satisfies Call);
      await closed;
      this.failAll(AppError.unavailable('JOBS.UNAVAILABLE', 'the service is stopping'));
    })());
  }
}
