/**
 * The jobs thread of a serving process (a composition root, like src/cli.ts): services of its own on
 * the same database, which run the long operations the main thread hands over (src/jobs/jobs.ts) and, in a
 * process of role `all` (the `npm start` default), the worker role too: the projection runners, the
 * scheduled synchronisations and the demo seeding. Its event loop and its heap are its own, so
 * neither its CPU-heavy stretches nor its garbage collections hold up a shopper's request.
 * Started by src/jobs/client.ts through bin/jobs-thread.js.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeServices, createServices, inProcessJobs } from './services';
import { createLogger } from './platform/log';
import { startSchedules } from './sync/scheduler';
import { seedDemoCatalog } from './sync/demo';
import type { Call, Reply, ThreadStart } from './jobs/protocol';
import { toWire } from './jobs/protocol';

async function main(): Promise<void> {
  const port = parentPort!;
  const start = workerData as ThreadStart;
  const post = (m: Reply) => port.postMessage(m);
  // The main thread's format (readable lines on a terminal): its thread writes to the same output.
  const log = createLogger(start.config.logLevel, 'catalog-jobs', undefined, start.config.logFormat);
  let services: Awaited<ReturnType<typeof createServices>>;
  try {
    services = await createServices(start.config, log, start.databaseUrl);
  } catch (e) {
    post({ kind: 'failed', error: toWire(e) });
    return;
  }
  const jobs = inProcessJobs(services);
  let schedule: { stop(): void } | null = null;
  let stopping = false;
  let seeding: Promise<void> | null = null;
  if (start.worker) {
    await services.engine.startRunners();
    schedule = startSchedules(services);
    // Every step is idempotent: a seeding the shutdown stops halfway resumes at the next start.
    if (start.seedDemo) seeding = seedDemoCatalog(services, { stopping: () => stopping }).catch((e) => log.error({ err: e }, 'demo catalog seeding failed'));
  }

  port.on('message', (m: Call) => {
    if (m.kind === 'close') {
      void (async () => {
        stopping = true;
        schedule?.stop();
        // The seeding stops at its next step, a synchronisation at its next batch; an organisation
        // under way runs to its end.
        await Promise.all([seeding, services.sync.stop()]);
        await closeServices(services).catch((e) => log.error({ err: e }, 'closing the jobs thread'));
        post({ kind: 'closed' });
        port.close();
      })();
      return;
    }
    const answer = (p: Promise<unknown>) =>
      p.then(
        (value) => post({ kind: 'result', id: m.id, ok: true, value }),
        (e) => post({ kind: 'result', id: m.id, ok: false, error: toWire(e) }),
      );
    switch (m.op) {
      case 'organise':
        void answer(jobs.organise(m.by, { groupOnly: m.groupOnly, onRun: (runId) => post({ kind: 'run', id: m.id, runId }) }));
        return;
      case 'startSync':
        void answer(
          jobs.startSync(m.syncKind as never, m.params as never).then(({ runId, finished }) => {
            finished.then(
              (value) => post({ kind: 'finished', id: m.id, ok: true, value }),
              (e) => post({ kind: 'finished', id: m.id, ok: false, error: toWire(e) }),
            );
            return { runId };
          }),
        );
        return;
      case 'batchCreateGoods':
        void answer(jobs.batchCreateGoods(m.body as never, m.actor as never));
        return;
      case 'metrics':
        void answer(services.metrics.registry.getMetricsAsJSON());
        return;
      default: {
        const _exhaustive: never = m;
        throw new Error('unknown call');
      }
    }
  });
  post({ kind: 'ready' });
}

void main().catch((e) => parentPort?.postMessage({ kind: 'failed', error: toWire(e) } satisfies Reply));
