/**
 * The hourly category synchronisation (CATEGORY_SYNC_CRON). A tick while the previous run is still
 * going is skipped: the run table allows one running run per kind, in any process.
 */
import cron from 'node-cron';
import type { Services } from '../main';
import { AppError } from '../platform/errors';

export function startCategorySchedule(s: Services): { stop(): void } {
  const task = cron.schedule(s.config.categorySyncCron, async () => {
    try {
      const { runId } = await s.sync.start('categories', { by: 'system:sync' });
      s.log.info({ runId }, 'scheduled category synchronisation started');
    } catch (e) {
      if (e instanceof AppError && e.code === 'SYNC.ALREADY_RUNNING') s.log.info('previous category synchronisation still running; tick skipped');
      else s.log.error({ err: e }, 'scheduled category synchronisation could not start');
    }
  });
  return { stop: () => void task.stop() };
}
