/** The read fence as operators see it, and the one line that names who holds it back. */
import type { FenceView } from '../../contract/projections';

/** The read fence as operators see it (GET /projections, `catalog projections status`, /readyz). */
export type { FenceView };

/** One line on a held-back read fence, naming who holds it. */
export function describeFence(f: FenceView): string {
  const h = f.holder;
  const who = !h
    ? 'no running transaction found (it may have just ended)'
    : h.pid === null
      ? `prepared transaction ${h.preparedGid ?? ''} (database ${h.database ?? '?'}, ${h.ageSeconds.toFixed(0)} s old); end it with COMMIT PREPARED or ROLLBACK PREPARED`
      : `pid ${h.pid} (${h.state}, ${h.ageSeconds.toFixed(0)} s, application ${h.applicationName || '-'}, database ${h.database ?? '?'})`;
  return `read fence held back: ${f.heldBackEvents} committed events wait ${f.heldBackSeconds.toFixed(1)} s behind ${who}`;
}
