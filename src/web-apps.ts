/**
 * The built browser clients (`npm run build` → dist/web/admin, dist/web/h5), served by the service:
 * the administrator SPA under /admin and the V2 mobile storefront under /v2/h5 (docs/api.md, Deployments and proxy prefixes).
 * Hashed assets are cached for a year; index.html is never cached and is the fallback for client routes.
 * A client that was not built answers 404 with a hint instead of failing at start-up.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { API_BASE_META } from '../web/shared/api-base';

export const WEB_APPS = [
  { mount: '/admin', dir: 'admin' },
  { mount: '/v2/h5', dir: 'h5' },
] as const;

/**
 * The directory holding the package's package.json, walking up from `from`: the repository root both
 * from src/ (tsx, ts-jest) and from dist/src/ (compiled).
 */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}

/**
 * dist/web under the package root: the build's output and nothing else. Never web/, whose
 * index.html is the build's input and sits next to the clients' source and Vite's configuration,
 * which an unbuilt service must not serve (it answers 404 with a hint instead).
 */
export function webDistDir(from: string = __dirname): string {
  return path.join(packageRoot(from), 'dist', 'web');
}

/**
 * The page's own CSP: helmet's defaults, plus images from anywhere (product images live on the
 * supplier's CDN). Scripts and styles stay 'self' (Vite emits no inline script); API calls go to
 * the same origin (ADMIN_API_BASE and H5_API_BASE are paths).
 */
const PAGE_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
  "img-src 'self' data: https: http:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A client's index.html as served: with the configured API base as a meta element, so one build
 * serves behind any proxy prefix (ADMIN_API_BASE=/api in docker-compose.yml). Read again when the
 * file changes (a rebuild); null while there is none (not built, or being rebuilt).
 */
function pageOf(file: string, apiBase: string | undefined): () => Promise<string | null> {
  let kept: { key: string; html: string } | null = null;
  return async () => {
    let html: string;
    let key: string;
    try {
      const st = await stat(file);
      key = `${st.mtimeMs}:${st.size}`;
      if (kept?.key === key) return kept.html;
      html = await readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    if (apiBase !== undefined) {
      const meta = `<meta name="${API_BASE_META}" content="${escapeAttr(apiBase)}" />`;
      if (!/<head(\s[^>]*)?>/i.test(html)) throw new Error(`${file} has no <head>: cannot announce the API base`);
      html = html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}\n    ${meta}`);
    }
    // A page read while a rebuild wrote it is not kept: the next request reads it again.
    const after = await stat(file).catch(() => null);
    if (after && `${after.mtimeMs}:${after.size}` === key) kept = { key, html };
    return html;
  };
}

export interface WebRoutesOptions {
  distDir?: string;
  /** per client, the API base to announce in its page; undefined keeps the build's default */
  apiBases?: { admin?: string | undefined; h5?: string | undefined };
}

/** The request's path below the mount, decoded and normalised as express.static would resolve it. */
function resolvedPath(req: Request): string | null {
  try {
    return path.posix.normalize(decodeURIComponent(req.path));
  } catch {
    return null;
  }
}

export function webRoutes(opts: WebRoutesOptions = {}): Router {
  const root = opts.distDir ?? webDistDir();
  const r = Router();
  for (const app of WEB_APPS) {
    const dir = path.join(root, app.dir);
    const page = pageOf(path.join(dir, 'index.html'), opts.apiBases?.[app.dir]);
    const sendPage = async (res: Response, next: NextFunction) => {
      const html = await page().catch((e: unknown) => (next(e), undefined));
      if (html === undefined) return;
      if (html === null) {
        res.status(404).type('text/plain').send(`${app.mount}: client not built; run npm run build`);
        return;
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Content-Security-Policy', PAGE_CSP);
      res.type('html').send(html);
    };
    // `/admin` → `/admin/`, so the relative asset URLs of the build resolve under the mount.
    r.get(app.mount, (req, res, next) => {
      if (req.path !== app.mount) return next();
      const q = req.url.indexOf('?');
      res.redirect(301, `${app.mount}/${q >= 0 ? req.url.slice(q) : ''}`);
    });
    // The page itself, however its name is spelt (`index.html`, `%69ndex.html`, `//index.html`),
    // never by express.static: it must carry the configured API base.
    r.use(app.mount, (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      if (path.posix.basename(resolvedPath(req) ?? '').toLowerCase() !== 'index.html') return next();
      void sendPage(res, next);
    });
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
    // Client routes (and the root): the page; a missing asset or file stays 404.
    r.get(`${app.mount}/{*rest}`, (req, res, next) => {
      if (/\/assets\//.test(req.path) || /\.[a-z0-9]{1,5}$/i.test(req.path)) {
        res.status(404).type('text/plain').send('not found');
        return;
      }
      void sendPage(res, next);
    });
  }
  return r;
}
