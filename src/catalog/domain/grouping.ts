/**
 * Auto-grouping and consolidation decisions, pure (docs/domain.md, Families):
 * - a link without family joins an unlocked autoManaged family of its familyNameKey (the lowest id
 *   among those with goods, else the lowest id), or a new family when there is none; when only
 *   locked or manual families of that product exist it stays out and is reported;
 * - among families of one key, a pure fragment (autoManaged, unlocked, no goods, no override prices)
 *   is merged into the family that has goods, which keeps its id (the public goodId); a fragment
 *   that is not pure is listed for manual review.
 */
import { compareIds } from './matrix';

export interface FamilyFacts {
  id: string;
  familyNameKey: string | null;
  autoManaged: boolean;
  locked: boolean;
  goodCount: number;
  overrideCount: number;
}

export interface GroupingLink {
  id: string;
  familyNameKey: string;
  productName: string;
  sku: string;
}

export type GroupDecision =
  { kind: 'join'; linkId: string; familyId: string } | { kind: 'create'; linkId: string; key: string; name: string } | { kind: 'lockedSkipped'; linkId: string; familyId: string };

function byNameKey(families: readonly FamilyFacts[]): Map<string, FamilyFacts[]> {
  const byKey = new Map<string, FamilyFacts[]>();
  for (const f of families) {
    if (!f.familyNameKey) continue;
    let list = byKey.get(f.familyNameKey);
    if (!list) byKey.set(f.familyNameKey, (list = []));
    list.push(f);
  }
  return byKey;
}

const takesLinks = (f: FamilyFacts) => f.autoManaged && !f.locked;

function preferred(families: FamilyFacts[]): FamilyFacts | undefined {
  return [...families].sort((a, b) => Number(b.goodCount > 0) - Number(a.goodCount > 0) || compareIds(a.id, b.id))[0];
}

/** Links in id order; a family created for the first link of a key takes the later ones. */
export function decideGrouping(links: readonly GroupingLink[], families: readonly FamilyFacts[]): GroupDecision[] {
  const byKey = byNameKey(families);
  const decisions: GroupDecision[] = [];
  const createdFor = new Map<string, string>(); // key → first link id, standing for the new family
  for (const link of [...links].sort((a, b) => compareIds(a.id, b.id))) {
    const candidates = byKey.get(link.familyNameKey) ?? [];
    const target = preferred(candidates.filter(takesLinks));
    if (target) {
      decisions.push({ kind: 'join', linkId: link.id, familyId: target.id });
    } else if (candidates.length > 0) {
      decisions.push({ kind: 'lockedSkipped', linkId: link.id, familyId: preferred(candidates)!.id });
    } else if (createdFor.has(link.familyNameKey)) {
      decisions.push({ kind: 'join', linkId: link.id, familyId: `new:${link.familyNameKey}` });
    } else {
      createdFor.set(link.familyNameKey, link.id);
      decisions.push({ kind: 'create', linkId: link.id, key: link.familyNameKey, name: `${link.productName} ${link.sku}` });
    }
  }
  return decisions;
}

export type ConsolidationDecision =
  { kind: 'merge'; fragmentId: string; intoFamilyId: string } | { kind: 'review'; familyId: string; reason: 'HAS_GOODS' | 'HAS_OVERRIDES' | 'LOCKED' | 'MANUAL' };

export function decideConsolidation(families: readonly FamilyFacts[]): ConsolidationDecision[] {
  const byKey = byNameKey(families);
  const out: ConsolidationDecision[] = [];
  for (const [, group] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (group.length < 2) continue;
    const withGoods = group.filter((f) => f.goodCount > 0).sort((a, b) => compareIds(a.id, b.id));
    const target = withGoods[0];
    if (!target) continue; // nothing public to keep stable yet: leave the fragments as they are
    for (const f of [...group].sort((a, b) => compareIds(a.id, b.id))) {
      if (f.id === target.id) continue;
      if (f.locked) out.push({ kind: 'review', familyId: f.id, reason: 'LOCKED' });
      else if (f.goodCount > 0) out.push({ kind: 'review', familyId: f.id, reason: 'HAS_GOODS' });
      else if (f.overrideCount > 0) out.push({ kind: 'review', familyId: f.id, reason: 'HAS_OVERRIDES' });
      else if (!f.autoManaged) out.push({ kind: 'review', familyId: f.id, reason: 'MANUAL' });
      else out.push({ kind: 'merge', fragmentId: f.id, intoFamilyId: target.id });
    }
  }
  return out;
}
