/**
 * What a bench suite is and what the runner (./index.ts) gives it. A suite lives in a file of its
 * own and is registered in index.ts with one line; it measures, the runner prints.
 */
import { performance } from 'node:perf_hooks';
import type { Config } from '../src/config';
import type { Logger } from '../src/platform/log';

/**
 * A command-line flag of a suite: `--<name> <value>`. A number unless its default is a string
 * (a path, say), in which case the value is taken as written.
 */
export interface FlagSpec {
  default: number | string;
  help: string;
}

export interface ScratchDatabase {
  name: string;
  url: string;
}

export interface BenchContext {
  config: Config;
  /** a numeric flag the suite declared: its command-line value, or its default */
  flag(name: string): number;
  /** a text flag (one whose default is a string) the suite declared */
  textFlag(name: string): string;
  /**
   * A migrated database of the suite's own, cloned from the run's migrated scratch database. It is
   * dropped when the run ends; the suite closes its own connections to it.
   */
  freshDatabase(tag: string): Promise<ScratchDatabase>;
  /**
   * An empty database (no schema), dropped when the run ends: for a service that migrates its own
   * schema, possibly another version's.
   */
  emptyDatabase(tag: string): Promise<ScratchDatabase>;
  /**
   * Runs `fn` before the scratch databases are dropped, when the suite ends or the run is
   * interrupted (SIGINT/SIGTERM): child processes go first, so none is left writing to a dropped database.
   */
  onCleanup(fn: () => Promise<void>): void;
  /** for code under test that wants a logger: warnings and errors only, to stderr */
  log: Logger;
  /** a progress line on stderr (stdout carries only the results) */
  progress(msg: string): void;
}

/**
 * One measurement: `count` things (events, requests) in `seconds`. Repeated measurements keep each
 * round's seconds in `samples`; `seconds` is then their median.
 */
export interface Measure {
  kind: 'measure';
  label: string;
  count: number;
  unit: string;
  seconds: number;
  samples?: number[];
}

/** A figure that is not a rate (a size, a latency percentile): printed as written. */
export interface Value {
  kind: 'value';
  label: string;
  value: string;
}

/** `subject` rate divided by `baseline` rate. */
export interface Ratio {
  kind: 'ratio';
  label: string;
  subject: Measure;
  baseline: Measure;
}

export interface SuiteResult {
  rows: (Measure | Ratio | Value)[];
  /** printed under the table, e.g. what exactly was compared */
  notes: string[];
  /** set when the suite stopped part-way: the rows are the figures measured before it did */
  failure?: string;
}

export interface Suite {
  /** the name `--only` selects */
  name: string;
  title: string;
  flags: Record<string, FlagSpec>;
  run(ctx: BenchContext): Promise<SuiteResult>;
}

export function measure(label: string, count: number, seconds: number | number[], unit = 'events'): Measure {
  if (typeof seconds === 'number') return { kind: 'measure', label, count, unit, seconds };
  return { kind: 'measure', label, count, unit, seconds: median(seconds), samples: seconds };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function value(label: string, text: string): Value {
  return { kind: 'value', label, value: text };
}

export function ratio(label: string, subject: Measure, baseline: Measure): Ratio {
  return { kind: 'ratio', label, subject, baseline };
}

export const rate = (m: Measure): number => m.count / m.seconds;

/** Runs `fn` and returns its result with the wall-clock seconds it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `worker(i)` for i in [0, count) on `concurrency` concurrent lanes. */
export async function inParallel(count: number, concurrency: number, worker: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < count; i = next++) await worker(i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** Time spent in some call, accumulated over many calls (instrumentation of the code under test). */
export class Tally {
  calls = 0;
  seconds = 0;

  async time<T>(fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.calls++;
      this.seconds += (performance.now() - t0) / 1000;
    }
  }

  reset(): void {
    this.calls = 0;
    this.seconds = 0;
  }
}
