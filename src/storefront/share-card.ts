/**
 * What a shared product link shows before it is opened (the storefront page's Open Graph tags,
 * src/web-apps.ts): the product's name, the price it starts from and its picture. Read as the public
 * detail is (docs/api.md, Public read caching): through the freshness gate and the public cache, so
 * a rename or a new price shows on the very next request, and many shares of one product cost one load.
 */
import type { PublicGoodDetail } from '../contract/storefront';
import { isAppError } from '../platform/errors';
import { PUBLIC_ROUTES, type StorefrontDeps } from './public-routes';

export interface ShareCard {
  name: string;
  /** the lowest price of its cells, a decimal string; null: not priced yet */
  price: string | null;
  /** its picture's address as stored (absolute, or a path on this service); null: none */
  image: string | null;
}

const DETAIL = PUBLIC_ROUTES.find((r) => r.path === '/public/goods/:goodId')!;

/**
 * The share card of the public good `id` (a family id, as in `GET /public/goods/:goodId`); null when
 * the shop shows no such good: an id that is malformed, unknown, a link's, or of a family not public.
 */
export async function shareCardOf(s: StorefrontDeps, id: string): Promise<ShareCard | null> {
  try {
    const read = await DETAIL.read(s, { goodId: id }, {});
    if (!s.config.publicCache.disabled) await s.storefront.gate.fresh();
    const entry = await s.cache.get(read.key, read.domains, read.load);
    // The entry as loaded is the JSON itself; its compressed forms are derived beside it.
    const d = (entry.encoding === undefined ? JSON.parse(entry.body.toString('utf8')) : await read.load()) as PublicGoodDetail;
    return { name: d.name, price: d.lowestPrice, image: d.image };
  } catch (e) {
    if (isAppError(e) && e.status < 500) return null;
    throw e;
  }
}
