/**
 * Supplier changes as data, played on a simulator's catalogue in process: what a supplier does to its
 * listing between two synchronisations (docs/supplier.md). A change is a plain object, so a test can
 * print the changes it made and replay them; `applySupplierChange` plays one.
 */
import type { Detail } from '../supplier/schemas';
import type { SimulatorCatalog } from './catalog';

/** The parts of a link name as docs/domain.md's grammar reads it: `<country>（<logistics>）<productName> <SKU> [descriptor]`. */
export interface LinkNameParts {
  country: string;
  logistics: string;
  productName: string;
  sku: string;
  descriptor?: string;
}

/** A name that follows the link grammar, from its parts. */
export function linkName(p: LinkNameParts): string {
  return `${p.country}（${p.logistics}）${p.productName} ${p.sku}${p.descriptor ? ` ${p.descriptor}` : ''}`;
}

/** A change of one link's detail: a variant's price (by size and colour), or a colour no longer made. */
export type DetailChange = { kind: 'variantPrice'; size: string; color: string; price: string } | { kind: 'dropColor'; color: string };

export type SupplierChange =
  /** a new link, after every existing id; `sameProductAs` shares an existing link's detail colours and sizes */
  | { kind: 'newLink'; name: string; categoryId: string; price: string; sameProductAs?: string }
  | { kind: 'price'; linkId: string; price: string }
  | { kind: 'rename'; linkId: string; name: string }
  | { kind: 'detail'; linkId: string; change: DetailChange }
  /** gone from the listing (`removed`), or still listed but off sale */
  | { kind: 'delist'; linkId: string; how: 'removed' | 'offSale' }
  | { kind: 'relist'; linkId: string }
  /** every link gone from the listing at once (a broken export); `restoreListing` brings them back */
  | { kind: 'emptyListing' }
  | { kind: 'restoreListing'; linkIds: string[] };

function editDetail(change: DetailChange): (d: Detail) => Detail {
  if (change.kind === 'variantPrice') {
    return (d) => ({ ...d, variants: d.variants.map((v) => (v.size === change.size && v.color === change.color ? { ...v, price: change.price } : v)) });
  }
  return (d) => ({ ...d, variants: d.variants.filter((v) => v.color !== change.color), media: d.media.filter((m) => m.color !== change.color) });
}

/**
 * Plays one change on the catalogue. Answers the ids it touched: the new link's id, or the links an
 * empty listing removed (to restore them later).
 */
export function applySupplierChange(catalog: SimulatorCatalog, change: SupplierChange): string[] {
  switch (change.kind) {
    case 'newLink':
      return [catalog.addLink({ name: change.name, categoryId: change.categoryId, price: change.price, sameProductAs: change.sameProductAs }).id];
    case 'price':
      catalog.changeLink(change.linkId, { price: change.price });
      return [change.linkId];
    case 'rename':
      catalog.changeLink(change.linkId, { name: change.name });
      return [change.linkId];
    case 'detail':
      catalog.editDetail(change.linkId, editDetail(change.change));
      return [change.linkId];
    case 'delist':
      if (change.how === 'removed') catalog.removeLink(change.linkId);
      else catalog.offSale([change.linkId]);
      return [change.linkId];
    case 'relist':
      catalog.relistLink(change.linkId);
      return [change.linkId];
    case 'emptyListing': {
      const ids = catalog.links().map((l) => l.id);
      for (const id of ids) catalog.removeLink(id);
      return ids;
    }
    case 'restoreListing':
      // Back as they were: a removed link returns with its status (relistLink would also put it on sale).
      for (const id of change.linkIds) catalog.restoreLink(id);
      return change.linkIds;
  }
}
