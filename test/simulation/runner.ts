/**
 * Runs the simulation: random sequences of operations (commands.ts) against the real service, each
 * from the same baseline (world.ts), the invariants checked after each (invariants.ts), a failing
 * sequence shrunk by fast-check to a minimal one. Used by the jest test (seeded, bounded) and by
 * `npm run soak` (as long as asked, one seed after another).
 */
import fc from 'fast-check';
import { generateCatalog } from '../../src/sync/simulator';
import { createPool } from '../../src/platform/db';
import { databaseUrl } from '../support/db';
import { allCommands } from './commands';
import { checkAll } from './invariants';
import { Model } from './model';
import { prepareBaseline, startWorld, type Real, type WorldOptions } from './world';

export interface SimulationOptions {
  seed: number;
  /** sequences to run (the jest test); with `until`, as many as fit */
  numRuns: number;
  /** stop starting sequences after this time (epoch ms) */
  until?: number;
  maxCommands?: number;
  /** shrink a failing sequence to a minimal one (default); off, the first failing sequence is reported as drawn */
  shrink?: boolean;
  world?: Partial<WorldOptions>;
  /** called after each sequence (replays while shrinking included) */
  onSequence?: (progress: { sequences: number; operations: number; ms: number; failed: boolean }) => void;
}

export interface DivergenceReport {
  seed: number;
  /** fast-check's path of the shrunk counterexample: replays it with `{seed, path}` */
  path: string;
  /** the shrunk sequence, one operation per line */
  reproduction: string;
  error: string;
  shrinks: number;
}

export interface SimulationResult {
  seed: number;
  sequences: number;
  operations: number;
  /** how many of the sequences fast-check ran were generated (the others were shrinking replays) */
  generated: number;
  divergence: DivergenceReport | null;
  interrupted: boolean;
}

export const DEFAULT_WORLD: WorldOptions = { links: 40, catalogueSeed: 7 };

/** One baseline, then sequences until `numRuns` ran, the time is up, or one diverged (shrunk). */
export async function runSimulation(opts: SimulationOptions): Promise<SimulationResult> {
  const worldOptions = { ...DEFAULT_WORLD, ...opts.world };
  const baseline = await prepareBaseline(worldOptions);
  const counters = { sequences: 0, operations: { count: 0 } };
  try {
    const pool = createPool(databaseUrl(baseline.name), 2, 'catalog-simulation');
    let start: Model;
    try {
      const supplier = generateCatalog({ links: worldOptions.links, seed: worldOptions.catalogueSeed }).links();
      start = await Model.fromBaseline(pool, supplier);
    } finally {
      await pool.end();
    }
    const property = fc.asyncProperty(fc.commands(allCommands(), { maxCommands: opts.maxCommands ?? 25, size: 'max' }), async (cmds) => {
      const t0 = Date.now();
      const world = await startWorld(baseline.name, worldOptions);
      const real: Real = { world, ops: counters.operations };
      const model = start.clone();
      let failed = true;
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        const t1 = Date.now();
        await checkAll(model, real);
        if (process.env.SIMULATION_VERBOSE) process.stderr.write(`  invariants ${Date.now() - t1} ms\n`);
        failed = false;
      } finally {
        counters.sequences++;
        await world.close();
        opts.onSequence?.({ sequences: counters.sequences, operations: counters.operations.count, ms: Date.now() - t0, failed });
      }
    });
    const details = await fc.check(property, {
      seed: opts.seed,
      numRuns: opts.numRuns,
      ...(opts.shrink === false ? { endOnFailure: true } : {}),
      ...(opts.until ? { interruptAfterTimeLimit: Math.max(1, opts.until - Date.now()), markInterruptAsFailure: false } : {}),
    });
    let divergence: DivergenceReport | null = null;
    // fast-check calls a check the time limit interrupted before any sequence ended "failed", with no
    // counterexample: the soak's last seed, started just before its end. Nothing diverged there.
    if (details.failed && !(details.interrupted && details.counterexample === null)) {
      const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      divergence = {
        seed: details.seed,
        path: details.counterexamplePath ?? '',
        reproduction: details.counterexample ? String(details.counterexample[0]) : '(none)',
        error,
        shrinks: details.numShrinks,
      };
    }
    return {
      seed: opts.seed,
      sequences: counters.sequences,
      operations: counters.operations.count,
      generated: details.numRuns,
      divergence,
      interrupted: details.interrupted,
    };
  } finally {
    await baseline.drop();
  }
}

/** A divergence as the test and the soak print it: the shrunk sequence and how to replay it. */
export function formatDivergence(d: DivergenceReport): string {
  const steps = d.reproduction
    .split(/,(?=[a-zA-Z]+\()/)
    .map((s, i) => `  ${i + 1}. ${s.trim()}`)
    .join('\n');
  return [`divergence (seed ${d.seed}, path "${d.path}", ${d.shrinks} shrinks): ${d.error}`, 'shrunk sequence:', steps].join('\n');
}
