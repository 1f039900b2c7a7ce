/**
 * The supplier simulator: a generated catalog served with the contract of docs/supplier.md, for
 * the demo, the tests and benchmarks. `startSimulator` is what the CLI runs.
 */
import { generateCatalog } from './catalog';
import { createSimulatorServer, type Faults, type RunningSimulator } from './server';

export { generateCatalog, SimulatorCatalog, FIRST_LINK_ID, MAX_LINKS } from './catalog';
export type { CatalogOptions, CategoryPatch, LinkPatch, NewLink } from './catalog';
export { createSimulatorServer, noFaults, MAX_LIMIT } from './server';
export type { Faults, RunningSimulator, SimulatorServer, SimulatorServerOptions, SimulatorStats } from './server';

export interface StartSimulatorOptions {
  links: number;
  seed: number;
  /** 0 (the default) picks a free port; the chosen one is in the returned `url`. */
  port?: number;
  host?: string;
  token?: string;
  faults?: Partial<Faults>;
}

export async function startSimulator(opts: StartSimulatorOptions): Promise<RunningSimulator> {
  const catalog = generateCatalog({ links: opts.links, seed: opts.seed });
  const server = createSimulatorServer({ catalog, token: opts.token, faults: opts.faults });
  return server.start({ port: opts.port ?? 0, host: opts.host });
}
