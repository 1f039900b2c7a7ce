/**
 * Model-based simulation of the catalogue service (docs/simulation.md): seeded, bounded random
 * sequences of supplier changes, synchronisations, organisation runs, administrator commands,
 * rebuilds and worker faults against the real service, the invariants checked after each step and
 * each sequence. A failing sequence is shrunk and printed with its seed and path. `npm run soak`
 * runs the same for longer. SIM_SEED, SIM_SEQUENCES and SIM_STEPS change the seed, the number of
 * sequences and their longest length.
 */
import { formatDivergence, runSimulation } from './runner';

const SEED = Number(process.env.SIM_SEED ?? 20261126);
const SEQUENCES = Number(process.env.SIM_SEQUENCES ?? 10);
const STEPS = Number(process.env.SIM_STEPS ?? 12);
/** SIM_SHRINK=0: report the first failing sequence as drawn (mutation runs), without shrinking it */
const SHRINK = process.env.SIM_SHRINK !== '0';

jest.setTimeout(1_800_000);

it(`random sequences keep every invariant (seed ${SEED}, ${SEQUENCES} sequences of up to ${STEPS} steps)`, async () => {
  const result = await runSimulation({ seed: SEED, numRuns: SEQUENCES, maxCommands: STEPS, shrink: SHRINK });
  if (result.divergence) throw new Error(formatDivergence(result.divergence));
  expect(result.generated).toBe(SEQUENCES);
  expect(result.operations).toBeGreaterThan(0);
});
