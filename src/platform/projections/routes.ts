/** Operators' view of the projections: status, rebuild, retry after a poison event. */
import { Router } from 'express';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { ProjectionEngine } from './engine';
import type { RouteDoc } from '../http/openapi';
import { projectionList, rebuildAnswer, retryAnswer } from '../../contract/projections';

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
        lagApproximate: s.lagApproximate,
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

const projectionName = z.object({ name: z.string() });

/** The operations above (src/platform/http/openapi.ts); an unknown projection name is a 404. */
export const projectionRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/projections',
    summary: "Each projection's position, lag, state and last error, and who holds the read fence",
    auth: true,
    responses: { 200: projectionList },
  },
  {
    method: 'post',
    path: '/projections/:name/rebuild',
    summary: 'Rebuild a projection into shadow tables, then swap them in',
    auth: true,
    params: projectionName,
    appends: false,
    errors: ['PROJECTION.NOT_FOUND'],
    responses: { 202: rebuildAnswer },
  },
  {
    method: 'post',
    path: '/projections/:name/retry',
    summary: 'After fixing the code behind a poison event: apply it again',
    auth: true,
    params: projectionName,
    appends: false,
    errors: ['PROJECTION.NOT_FOUND'],
    responses: {
      200: { description: 'It was not failed: `retried` false', body: retryAnswer },
      202: { description: 'Retried: `retried` true', body: retryAnswer },
    },
  },
];
