/** Operators' view of the projections: status, rebuild, retry after a poison event. */
import { Router } from 'express';
import type { RequestHandler } from 'express';
import type { ProjectionEngine } from './engine';

export function projectionRoutes(engine: ProjectionEngine, guard: RequestHandler): Router {
  const r = Router();
  r.get('/projections', guard, async (_req, res) => {
    const [items, fence] = await Promise.all([engine.status(), engine.fence()]);
    res.json({
      // lagEvents counts committed events the fence still holds back; `fence` says who holds it.
      fence,
      items: items.map((s) => ({
        name: s.name,
        state: s.state,
        position: s.position,
        eventsApplied: s.eventsApplied,
        lagEvents: s.lagEvents,
        lagSeconds: Math.round(s.lagSeconds * 10) / 10,
        lastError: s.lastError,
        rebuildError: s.rebuildError,
        retrying: s.retrying,
        lastRebuildAt: s.lastRebuildAt,
        rebuild: s.rebuild,
      })),
    });
  });
  r.post('/projections/:name/rebuild', guard, async (req, res) => {
    await engine.requestRebuild(String(req.params.name));
    res.status(202).json({ name: req.params.name, state: 'rebuilding' });
  });
  r.post('/projections/:name/retry', guard, async (req, res) => {
    const retried = await engine.retry(String(req.params.name));
    res.status(retried ? 202 : 200).json({ name: req.params.name, retried });
  });
  return r;
}
