/**
 * The built browser clients (`npm run build` → dist/web/admin, dist/web/h5), served by the service:
 * the administrator SPA under /admin and the V2 mobile storefront under /v2/h5 (docs/api.md, Deployments and proxy prefixes).
 * Hashed assets are cached for a year; index.html is never cached and is the fallback for client routes.
 * A client that was not built answers 404 with a hint instead of failing at start-up.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Router, type NextFunction, type Request, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { API_BASE_META } from '../web/shared/api-base';
import { CONTACT_META } from '../web/shared/contact';
import type { RouteDoc } from './platform/http/openapi';
import type { Logger } from './platform/log';
import type { ShareCard } from './storefront/share-card';

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

const HEAD = /<head(\s[^>]*)?>/i;
/** `tags` (elements, each on a line) right after the page's `<head>`, before anything the build put there. */
function intoHead(html: string, tags: string[], file: string): string {
  if (!HEAD.test(html)) throw new Error(`${file} has no <head>: cannot announce ${tags.length} element(s)`);
  return html.replace(HEAD, (head) => `${head}${tags.map((t) => `\n    ${t}`).join('')}`);
}

/**
 * A client's index.html as served: with the configured API base as a meta element, so one build
 * serves behind any proxy prefix (ADMIN_API_BASE=/api in docker-compose.yml), and the storefront's
 * 客服 address (H5_CONTACT_URL) likewise. Read again when the file changes (a rebuild); null while
 * there is none (not built, or being rebuilt).
 */
function pageOf(file: string, apiBase: string | undefined, contactUrl?: string): () => Promise<string | null> {
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
    const metas = [
      ...(apiBase !== undefined ? [`<meta name="${API_BASE_META}" content="${escapeAttr(apiBase)}" />`] : []),
      ...(contactUrl !== undefined ? [`<meta name="${CONTACT_META}" content="${escapeAttr(contactUrl)}" />`] : []),
    ];
    if (metas.length) html = intoHead(html, metas, file);
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
  /** where the storefront's 客服 button leads, announced in its page; undefined: no such button */
  contactUrl?: string | undefined;
  /** the public good behind `/v2/h5/goods/:id`, for its link preview; null: the shop shows none */
  shareCard?: (id: string) => Promise<ShareCard | null>;
  /** where browsers reach the service (PUBLIC_URL): the preview's absolute addresses; else the request's own origin */
  publicUrl?: string | undefined;
  log?: Pick<Logger, 'warn'>;
}

/** The storefront's mount and the path of a product there: the address a shared product link has. */
const H5_MOUNT = '/v2/h5';
const GOOD_PATH = `${H5_MOUNT}/goods/:goodId`;
/** What every storefront page is called until it names itself (and what a shared link of none names). */
const SHOP_NAME = '商城';

/** An address as a preview needs it, absolute (a picture stored as a path on this service); null when it is none. */
function absolute(address: string | null, base: string): string | null {
  if (!address) return null;
  try {
    return new URL(address, `${base}/`).href;
  } catch {
    return null;
  }
}

/**
 * A product's page as a link preview shows it (WeChat and other apps read the Open Graph tags of the
 * HTML they are given, and run no script): its name as the title, the price it starts from, its
 * picture, each escaped. A good the shop does not show gets the shop's generic preview.
 */
function withPreview(html: string, file: string, url: string, card: ShareCard | null, base: string): string {
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeAttr(content)}" />`;
  const title = card?.name ?? SHOP_NAME;
  const description = card ? (card.price ? `¥${card.price} 起` : '暂无报价') : '手机商城：挑选商品，查看各规格价格';
  const image = absolute(card?.image ?? null, base);
  const tags = [
    `<meta name="description" content="${escapeAttr(description)}" />`,
    meta('og:site_name', SHOP_NAME),
    meta('og:type', card ? 'product' : 'website'),
    meta('og:title', title),
    meta('og:description', description),
    meta('og:url', url),
    ...(image ? [meta('og:image', image), meta('og:image:alt', title)] : []),
    ...(card?.price ? [meta('product:price:amount', card.price), meta('product:price:currency', 'CNY')] : []),
  ];
  const titled = html.replace(/<title>[^<]*<\/title>/i, `<title>${escapeAttr(title)}</title>`);
  return intoHead(titled, tags, file);
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
    const file = path.join(dir, 'index.html');
    const page = pageOf(file, opts.apiBases?.[app.dir], app.dir === 'h5' ? opts.contactUrl : undefined);
    const sendPage = async (res: Response, next: NextFunction, edit?: (html: string) => string) => {
      let html = await page().catch((e: unknown) => (next(e), undefined));
      if (html === undefined) return;
      if (html !== null && edit) html = edit(html);
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
    // Each file as the build compressed it (`.br` where the browser accepts it, else `.gz`; the
    // build's own, web/production-build.mts), else as it is. The compressed files are found once,
    // here: a client rebuilt while the service runs is served uncompressed until it restarts.
    const files = expressStaticGzip(dir, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        index: false,
        fallthrough: true,
        setHeaders: (res, file) => {
          res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      },
    });
    r.use(app.mount, (req, res, next) => {
      // A path that does not decode is the app's to refuse (its 400), not the library's plain text.
      try {
        decodeURIComponent(req.path);
      } catch {
        return next();
      }
      // The library sets Vary to Accept-Encoding alone: what was there (CORS's Origin) is kept beside it.
      const vary = res.getHeader('Vary');
      files(req, res, (err?: unknown) => {
        // Not served (another method, or a compressed file gone since the start): whatever answers
        // next must not go out labelled as the compressed file it is not.
        if (!res.headersSent) {
          res.removeHeader('Content-Encoding');
          res.removeHeader('Content-Type');
        }
        next(err);
      });
      if (vary !== undefined && !res.headersSent) res.vary(String(vary));
    });
    // A product's own address (the one its 分享 hands out): the page with the product's preview.
    // The page stays uncached (no-cache) like every other: the preview follows a rename at once.
    if (app.mount === H5_MOUNT && opts.shareCard) {
      const shareCard = opts.shareCard;
      r.get(GOOD_PATH, (req, res, next) => {
        const id = String(req.params.goodId);
        const base = opts.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
        const url = `${base}${H5_MOUNT}/goods/${encodeURIComponent(id)}`;
        void shareCard(id)
          .catch((e: unknown) => {
            // The preview is a courtesy: a database that cannot answer still lets the page open.
            opts.log?.warn({ err: e, goodId: id }, 'storefront: no link preview for a product page');
            return null;
          })
          .then((card) => sendPage(res, next, (html) => withPreview(html, file, url, card, base)));
      });
    }
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

/** The icon the home page and the service's other pages show (the admin's). */
const SERVICE_ICON = '/admin/favicon.svg';

/**
 * `/`: where a first visit lands. A page that says what runs here and links both clients (and the
 * API description where it is served), instead of a 404. Plain HTML under the pages' CSP: no script.
 * Behind the compose proxy `/` goes to the storefront instead (web/proxy/default.conf.template).
 */
export function homeRoutes(opts: { docs?: string } = {}): Router {
  const r = Router();
  const links = [
    { href: '/admin/', title: '管理后台', text: '同步供应商、整理商品、定价与上架。首次使用时在这里创建第一个管理员。' },
    { href: '/v2/h5/', title: '商城', text: '顾客看到的手机商城。' },
    ...(opts.docs ? [{ href: opts.docs, title: 'API 文档', text: '每个接口的说明（OpenAPI 3.1），仅开发环境提供。' }] : []),
  ];
  const page =
    `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>商品目录</title><link rel="icon" type="image/svg+xml" href="${SERVICE_ICON}">` +
    `<style>body{margin:0;font:16px/1.6 system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f5f4;color:#1c1917}` +
    `main{max-width:40rem;margin:0 auto;padding:3rem 1.25rem}h1{font-size:1.6rem;margin:0 0 .25rem}p{margin:0 0 1.5rem;color:#44403c}` +
    `a{display:block;background:#fff;border:1px solid #d6d3d1;border-radius:12px;padding:1rem 1.25rem;margin:0 0 .75rem;color:inherit;text-decoration:none}` +
    `a:hover,a:focus-visible{border-color:#1d4ed8;outline:2px solid #1d4ed8;outline-offset:1px}strong{display:block;color:#1d4ed8;font-size:1.1rem}span{color:#44403c}</style></head>` +
    `<body><main><h1>商品目录</h1><p>这个服务提供管理后台和手机商城：</p>` +
    links.map((l) => `<a href="${l.href}"><strong>${l.title}</strong><span>${l.text}</span></a>`).join('') +
    `</main></body></html>`;
  r.get('/', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.type('html').send(page);
  });
  // Browsers ask for it on any page without an icon of its own (the API's JSON, /docs).
  r.get('/favicon.ico', (_req, res) => res.redirect(302, SERVICE_ICON));
  return r;
}

/** The operations above (src/platform/http/openapi.ts), at the root. */
export const homeRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/',
    summary: 'A page linking the administrator app (/admin/), the storefront (/v2/h5/) and, in development, the API docs',
    standalone: true,
    responses: { 200: { contentType: 'text/html', description: 'The page' } },
  },
  {
    method: 'get',
    path: '/favicon.ico',
    summary: "The service's icon: a redirect to the administrator app's",
    standalone: true,
    responses: { 302: { contentType: 'text/plain', description: 'Found: Location /admin/favicon.svg', headers: ['Location'] } },
  },
];
