/** The health checks at the root (docs/deployment.md). */
import { z } from 'zod';

/** GET /healthz */
export const liveness = z.object({ status: z.literal('ok') });

/** GET /readyz: each check's `ok`, or what is wrong (`unavailable: …`, the read fence held back). */
export const readiness = z.object({ status: z.enum(['ready', 'degraded', 'not ready']), checks: z.record(z.string(), z.string()) });
