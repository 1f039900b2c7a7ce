/**
 * Accessibility checks in the browser tests: axe-core (through @axe-core/playwright) on the page as
 * it stands, against WCAG 2.x A and AA. A page fails on any serious or critical violation; minor and
 * moderate ones are returned for the test to print or assert on. axe runs through the DevTools
 * protocol, so the pages' CSP (no eval) does not get in its way. The page must belong to a context
 * made with `browser.newContext()` (as test/support/browser.ts makes them), not `browser.newPage()`.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the offending nodes (the first few) */
  targets: string[];
}

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Every violation axe finds on the page now (or within `include`, a selector). */
export async function axeFindings(page: Page, opts: { include?: string; exclude?: string[] } = {}): Promise<AxeFinding[]> {
  // @axe-core/playwright is typed against `playwright`'s Page; playwright-core's is the same object.
  let builder = new AxeBuilder({ page: page as unknown as ConstructorParameters<typeof AxeBuilder>[0]['page'] }).withTags(WCAG_AA);
  if (opts.include) builder = builder.include(opts.include);
  for (const x of opts.exclude ?? []) builder = builder.exclude(x);
  const result = await builder.analyze();
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
}

/** Fails (throws, naming each rule and where) when axe finds a serious or critical violation; answers the rest. */
export async function expectAccessible(page: Page, what: string, opts: { include?: string; exclude?: string[] } = {}): Promise<AxeFinding[]> {
  const findings = await axeFindings(page, opts);
  const grave = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  if (grave.length) {
    const lines = grave.map((f) => `  ${f.impact} ${f.id}: ${f.help}\n    at ${f.targets.join('\n    at ')}`);
    throw new Error(`axe: ${grave.length} serious or critical violation(s) on ${what}:\n${lines.join('\n')}`);
  }
  return findings;
}
