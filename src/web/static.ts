/**
 * The built browser clients (`npm run build` → dist/web/admin, dist/web/h5), served by the service:
 * the administrator SPA under /admin and the V2 mobile storefront under /v2/h5 (spec section 9).
 * Hashed assets are cached for a year; index.html is never cached and is the fallback for client routes.
 * A client that was not built answers 404 with a hint instead of failing at start-up.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';
import { API_BASE_META } from '../../web/shared/api-base';

export const WEB_APPS = [
  { mount: '/admin', dir: 'admin' },
  { mount: '/v2/h5', dir: 'h5' },
] as const;


/** dist/web, seen from src/web (tsx, ts-jest) or from dist/src/web (compiled). */
export function webDistDir(): string {
  const candidates = [path.resolve(__dirname, '../../dist/web'), path.resolve(__dirname, '../../web')];
  return candidates.find((d) => existsSync(path.join(d, 'admin', 'index.html')) || existsSync(path.join(d, 'h5', 'index.html'))) ?? candidates[0]!;
}

/**
 * The page's own CSP: helmet's defaults, plus images from anywhere (product images live on the
 * supplier's CDN) . Scripts and styles stay 'self' (Vite emits no inline script).
 */
const PAGE_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
  "img-src 'self' data: https: http:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * index.html with the configured API base as a meta element, so one build serves behind any proxy
 * prefix (ADMIN_API_BASE=/api in docker-compose.yml). Read again only when the file changes.
 */
function indexWithApiBase(file: string, apiBase: string): () => string {
  let kept: { mtimeMs: number; html: string } | null = null;
  return () => {
    const { mtimeMs } = statSync(file);
    if (kept?.mtimeMs !== mtimeMs) {
      const meta = `<meta name="${API_BASE_META}" content="${escapeAttr(apiBase)}" />`;
      kept = { mtimeMs, html: readFileSync(file, 'utf8').replace(/<head>/i, (head) => `${head}\n    ${meta}`) };
    }
    return kept.html;
  };
}

function sendIndex(res: Response, file: string, html: (() => string) | null) {
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  if (html) res.type('html').send(html());
  else res.sendFile(file);
}

export interface WebRoutesOptions {
  distDir?: string;
  /** per client, the API base to announce in its page; undefined keeps the build's default */
  apiBases?: { admin?: string | undefined; h5?: string | undefined };
}

export function webRoutes(opts: WebRoutesOptions = {}): Router {
  const root = opts.distDir ?? webDistDir();
  const r = Router();
  for (const app of WEB_APPS) {
    const dir = path.join(root, app.dir);
    const index = path.join(dir, 'index.html');
    const apiBase = opts.apiBases?.[app.dir];
    const html = apiBase === undefined ? null : indexWithApiBase(index, apiBase);
    // `/admin` → `/admin/`, so the relative asset URLs of the build resolve under the mount.
    r.get(app.mount, (req, res, next) => {
      if (req.path !== app.mount) return next();
      const q = req.url.indexOf('?');
      res.redirect(301, `${app.mount}/${q >= 0 ? req.url.slice(q) : ''}`);
    });
    // Never the raw file: the page must carry the configured API base.
    r.get(`${app.mount}/index.html`, (_req, res, next) => (existsSync(index) ? sendIndex(res, index, html) : next()));
    r.use(
      app.mount,
      express.static(dir, {
        index: false,
        fallthrough: true,
        setHeaders: (res, file) => {
          res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      }),
    );
    // Client routes (and the root): the app's index.html; missing assets stay 404.
    r.get(`${app.mount}/{*rest}`, (req, res) => {
      if (!existsSync(index)) {
        res.status(404).type('text/plain').send(`${app.mount}: client not built; run npm run build`);
        return;
      }
      if (/\/assets\//.test(req.path) || /\.[a-z0-9]{1,5}$/i.test(req.path)) {
        res.status(404).type('text/plain').send('not found');
        return;
      }
      sendIndex(res, index, html);
    });
  }
  return r;
}
