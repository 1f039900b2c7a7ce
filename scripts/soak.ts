/**
 * `npm run soak -- --minutes N [--seed S] [--max-commands K] [--per-seed P]`: the simulation of
 * test/simulation for as long as asked, one seed after another, P sequences from each (a seed whose
 * sequence diverged is reported, shrunk, and the next seed goes on). Prints progress, then the figures: sequences, operations, divergences
 * (each with its shrunk reproduction, seed and path) and the seed it started from. Needs DATABASE_URL
 * (a PostgreSQL server it may create databases on). Exit 1 when anything diverged.
 */
import { Command } from 'commander';
import { formatDivergence, runSimulation, type DivergenceReport } from '../test/simulation/runner';

const program = new Command()
  .option('--minutes <n>', 'how long to run', '30')
  .option('--seed <s>', 'the first seed (default: from the clock)')
  .option('--max-commands <k>', 'operations per sequence at most', '25')
  .option('--per-seed <p>', 'sequences drawn from each seed before the next', '8')
  .parse(process.argv);
const o = program.opts<{ minutes: string; seed?: string; maxCommands: string; perSeed: string }>();

async function main(): Promise<number> {
  if (!process.env.DATABASE_URL) {
    process.stderr.write('soak: set DATABASE_URL to a PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432/postgres)\n');
    return 2;
  }
  const firstSeed = o.seed !== undefined ? Number(o.seed) : Date.now() % 2 ** 31;
  const minutes = Number(o.minutes);
  const until = Date.now() + minutes * 60_000;
  const started = Date.now();
  let sequences = 0;
  let operations = 0;
  const divergences: DivergenceReport[] = [];
  process.stdout.write(`soak: ${minutes} min from seed ${firstSeed}\n`);
  let lastSeed = firstSeed;
  for (let seed = firstSeed; Date.now() < until - 30_000; seed++) {
    lastSeed = seed;
    const base = { sequences, operations };
    const result = await runSimulation({
      seed,
      numRuns: Number(o.perSeed),
      until,
      maxCommands: Number(o.maxCommands),
      onSequence: (p) => {
        const elapsed = ((Date.now() - started) / 60_000).toFixed(1);
        process.stdout.write(
          `[${elapsed} min] seed ${seed}: sequence ${base.sequences + p.sequences} (${(p.ms / 1000).toFixed(1)} s${p.failed ? ', diverged' : ''}), operations ${base.operations + p.operations}, divergences ${divergences.length}\n`,
        );
      },
    });
    sequences += result.sequences;
    operations += result.operations;
    if (result.divergence) {
      divergences.push(result.divergence);
      process.stdout.write(`${formatDivergence(result.divergence)}\n`);
    }
  }
  process.stdout.write(`\nsoak finished after ${((Date.now() - started) / 60_000).toFixed(1)} min\n`);
  process.stdout.write(`seeds: ${firstSeed}…${lastSeed}\nsequences: ${sequences}\noperations: ${operations}\ndivergences: ${divergences.length}\n`);
  for (const d of divergences) process.stdout.write(`\n${formatDivergence(d)}\n`);
  return divergences.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`soak failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
