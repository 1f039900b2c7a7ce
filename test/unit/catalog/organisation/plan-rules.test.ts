import { createHash } from 'node:crypto';
import { LINK_PLAN_RULES, planLink } from '../../../../src/catalog/organisation/plan';
import { stableJson } from '../../../../src/platform/content-hash';
import { generateCatalog } from '../../../../src/sync/simulator/catalog';

/**
 * Organisation skips links whose stamp says the per-link step already left them as the present rules
 * make them (src/catalog/organisation/organise.ts), so any change to what `planLink` answers (the
 * name grammar, the family name key, tag derivation) must come with a new LINK_PLAN_RULES. This holds
 * the plans of a generated catalogue (every name shape the simulator makes, unparseable ones
 * included) against a digest recorded with the version. A change to the simulator's names changes
 * the digest too: then record it again, changing the version costs one slower organisation.
 */
const RECORDED = { rules: '1', digest: '84e760d5926b721a476b0d7d9972105114acfa9916628ffe44a02da78b63cda3' };

describe('the per-link organisation rules carry a version (docs/domain.md, Organisation)', () => {
  const catalog = generateCatalog({ links: 2_000, seed: 7 });
  const plans = catalog.links().map((l) => {
    const detail = catalog.detail(l.id);
    return planLink({ id: l.id, name: l.name, detail: detail && { variants: detail.variants }, parsed: null, tags: null, tagsManual: false });
  });

  it('given 2 000 generated links, then their plans are the ones recorded with LINK_PLAN_RULES', () => {
    const digest = createHash('sha256').update(stableJson(plans)).digest('hex');
    // A failure here: planLink's answers changed. Change LINK_PLAN_RULES, then record both.
    expect({ rules: LINK_PLAN_RULES, digest }).toEqual(RECORDED);
  });

  it('the links are not trivial: parsed, unparseable, and derived from variants', () => {
    expect(plans.filter((p) => p.parsed === null).length).toBeGreaterThan(0);
    expect(plans.filter((p) => p.parsed !== null && (p.tags?.color.length ?? 0) > 1).length).toBeGreaterThan(100);
  });
});
