/**
 * The session cookies. `svc_at` carries the access token, `svc_rt` the refresh token; tokens never
 * appear in a response body. Attributes (docs/security.md explains each):
 * - HttpOnly: page scripts (and so an XSS payload) cannot read them.
 * - Path=/: sent through any proxy prefix (/api, /v2-api; docs/api.md, Deployments and proxy prefixes).
 * - SameSite=Lax: a cross-site POST/PUT/PATCH/DELETE carries no cookie, which is the CSRF defence for
 *   every state-changing route; same-site clients (the admin SPA under /admin, or a sibling
 *   sub-domain) work unchanged.
 * - Secure when the request arrived over HTTPS (`req.secure`; behind a TLS-terminating proxy that
 *   needs TRUST_PROXY), so plain-HTTP development still works and HTTPS never leaks them.
 */
import type { CookieOptions, Request, Response } from 'express';
import type { TokenPair } from './sessions';

export const ACCESS_COOKIE = 'svc_at';
export const REFRESH_COOKIE = 'svc_rt';

const base = (req: Request): CookieOptions => ({ httpOnly: true, path: '/', sameSite: 'lax', secure: req.secure });

export function setSessionCookies(req: Request, res: Response, tokens: TokenPair): void {
  res.cookie(ACCESS_COOKIE, tokens.access, { ...base(req), maxAge: tokens.accessTtlSeconds * 1000 });
  res.cookie(REFRESH_COOKIE, tokens.refresh, { ...base(req), maxAge: tokens.refreshTtlSeconds * 1000 });
}

export function clearSessionCookies(req: Request, res: Response): void {
  res.clearCookie(ACCESS_COOKIE, base(req));
  res.clearCookie(REFRESH_COOKIE, base(req));
}

/**
 * A cookie's value only when it is a string. cookie-parser turns `j:`-prefixed values into parsed
 * JSON (objects, numbers), which must read as "no token" (401), never reach a string method (500).
 */
export function cookieString(req: Request, name: string): string | undefined {
  const jar: unknown = (req as { cookies?: unknown }).cookies;
  if (!jar || typeof jar !== 'object') return undefined;
  const v: unknown = Object.prototype.hasOwnProperty.call(jar, name) ? (jar as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
