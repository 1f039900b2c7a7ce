/**
 * A projection's checkpoint row (projection_checkpoints): where its live tables are in the log, and
 * the poison event that stopped it, if one did.
 */
import type pg from 'pg';
import type { LogPosition } from '../event-store/port';

export function toPosition(commit: string, prepare: string): LogPosition {
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
}

export async function ensureCheckpointRow(db: Pick<pg.ClientBase, 'query'>, name: string): Promise<void> {
  await db.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
}

/** After an operator fixed the code behind a poison event: try the event again. */
export async function retryFailed(db: Pick<pg.ClientBase, 'query'>, name: string): Promise<boolean> {
  const r = await db.query(
    `UPDATE projection_checkpoints
        SET last_error = NULL,
            state = CASE WHEN EXISTS (SELECT 1 FROM projection_rebuilds b WHERE b.name = $1) THEN 'rebuilding' ELSE 'running' END,
            updated_at = now()
      WHERE name = $1 AND last_error IS NOT NULL`,
    [name],
  );
  return (r.rowCount ?? 0) > 0;
}
