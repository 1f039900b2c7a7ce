/**
 * The supplier simulator: a generated catalog served with the contract of docs/supplier.md, for
 * the demo, the tests and benchmarks. `startSimulator` is what the CLI runs.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserOrigin } from '../../platform/http/origin';
import { generateCatalog } from './catalog';
import { PICTURES_PATH } from './pictures';
import { createSimulatorServer, type Faults, type RunningSimulator } from './server';

export { generateCatalog, SimulatorCatalog, FIRST_LINK_ID, MAX_LINKS } from './catalog';
export type { CatalogOptions, CategoryPatch, LinkPatch, NewLink } from './catalog';
export { createSimulatorServer, noFaults, MAX_LIMIT } from './server';
export { applySupplierChange, linkName } from './mutations';
export type { DetailChange, LinkNameParts, SupplierChange } from './mutations';
export { PICTURES_PATH, picturesRoutes } from './pictures';
export type { Faults, RunningSimulator } from './server';

export interface StartSimulatorOptions {
  links: number;
  seed: number;
  /** 0 (the default) picks a free port; the chosen one is in the returned `url`. */
  port?: number;
  host?: string;
  token?: string;
  faults?: Partial<Faults>;
  /**
   * The absolute base under which browsers find its pictures (src/sync/simulator/pictures.ts);
   * unset: the simulator's own address, where it serves them itself.
   */
  pictures?: string;
}

export async function startSimulator(opts: StartSimulatorOptions): Promise<RunningSimulator> {
  // Listening first: the catalogue's pictures are announced at the port the simulator got.
  const host = opts.host ?? '127.0.0.1';
  const listener = createServer();
  listener.listen(opts.port ?? 0, host);
  await once(listener, 'listening');
  try {
    const pictures = opts.pictures ?? `${browserOrigin(host, (listener.address() as AddressInfo).port)}${PICTURES_PATH}`;
    const catalog = generateCatalog({ links: opts.links, seed: opts.seed, pictures });
    return await createSimulatorServer({ catalog, token: opts.token, faults: opts.faults }).start({ server: listener, host });
  } catch (e) {
    listener.close();
    throw e;
  }
}
