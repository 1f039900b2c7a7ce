/**
 * The admin guard every administrator route goes through. Authentication fills it in; until then
 * it is the single place that decides.
 */
import type { RequestHandler } from 'express';

export const requireAdmin: RequestHandler = (_req, _res, next) => next();
