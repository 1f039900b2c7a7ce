/**
 * Model-based simulation of the catalogue service (docs/simulation.md): seeded, bounded random
 * sequences of supplier changes, synchronisations, organisation runs, administrator commands,
 * rebuilds and worker faults against the real service, the invariants checked after each. A failing
 * sequence is shrunk and printed with its seed and path. `npm run soak` runs the same for longer.
 */
import { formatDivergence, runSimulation } from './runner';

const SEED = Number(process.env.SIMULATION_SEED ?? 20261126);
const RUNS = Number(process.env.SIMULATION_RUNS ?? 2);

jest.setTimeout(900_000);

it(`random sequences keep every invariant (seed ${SEED}, ${RUNS} sequences)`, async () => {
  const result = await runSimulation({ seed: SEED, numRuns: RUNS, maxCommands: 20 });
  if (result.divergence) throw new Error(formatDivergence(result.divergence));
  expect(result.generated).toBe(RUNS);
  expect(result.operations).toBeGreaterThan(0);
});
