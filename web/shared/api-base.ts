/**
 * The API base a client talks to: the one the serving process announces in the page
 * (`<meta name="catalog-api-base">`, from ADMIN_API_BASE / H5_API_BASE: src/web/static.ts), else
 * the build's default. So one build works on the service's own origin and behind a proxy prefix.
 * Typed without the DOM library: the service imports the name of the meta element from here.
 */
export const API_BASE_META = 'catalog-api-base';

interface PageLike {
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
}

export function apiBase(buildDefault: string, page: PageLike | undefined = (globalThis as { document?: PageLike }).document): string {
  const announced = page?.querySelector(`meta[name="${API_BASE_META}"]`)?.getAttribute('content');
  return announced ?? buildDefault;
}
