/**
 * Deny by default: every route of the API requires a guard (an administrator, or a route that widens
 * the roles explicitly), unless it is on the one list of public routes. The composition root checks
 * the mounted router at start-up and refuses to start when a route has neither, so a route added
 * without its guard never serves anyone.
 */
import type { Router } from 'express';

export interface MountedRoute {
  method: string;
  path: string;
  handlers: unknown[];
}

interface LayerLike {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle?: { stack?: LayerLike[] };
}

/** Every route of a router and the routers mounted in it, with its full path and its handlers. */
export function mountedRoutes(router: Router, prefix = ''): MountedRoute[] {
  const out: MountedRoute[] = [];
  for (const layer of (router as unknown as { stack: LayerLike[] }).stack) {
    if (layer.route) {
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') out.push({ method: method.toUpperCase(), path: prefix + layer.route.path, handlers: layer.route.stack.map((l) => l.handle) });
      }
    } else if (layer.handle?.stack) {
      const mount = layer.rawPath && layer.rawPath !== '/' ? layer.rawPath : '';
      out.push(...mountedRoutes(layer.handle as unknown as Router, prefix + mount));
    }
  }
  return out;
}

/** `METHOD /path` of a route, as the public list names it. */
export const routeKey = (r: Pick<MountedRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** Throws, naming them, when routes are neither public nor guarded. */
export function assertDeniedByDefault(router: Router, opts: { isGuard(handler: unknown): boolean; isPublic(key: string): boolean }): void {
  const open = mountedRoutes(router).filter((r) => !opts.isPublic(routeKey(r)) && !r.handlers.some(opts.isGuard));
  if (open.length) {
    throw new Error(`routes without a guard that are not on the public list: ${open.map(routeKey).join(', ')}`);
  }
}
