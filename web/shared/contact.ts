/**
 * Where the storefront's 客服 button leads: announced by the serving process in the page
 * (`<meta name="catalog-contact">`, from H5_CONTACT_URL: src/web-apps.ts); none announced, no button.
 * Typed without the DOM library: the service imports the name of the meta element from here.
 */
export const CONTACT_META = 'catalog-contact';

interface PageLike {
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
}

export function contactUrl(page: PageLike | undefined = (globalThis as { document?: PageLike }).document): string | null {
  return page?.querySelector(`meta[name="${CONTACT_META}"]`)?.getAttribute('content') || null;
}
