/**
 * Request fields whose values the storefront shows, shared by every schema (docs/http-contract.md,
 * Values the storefront shows): a page renders them into `src`, `style` and text, so only forms
 * that cannot turn into script, another scheme or an invisible label are accepted.
 */
import { z } from 'zod';
import { decimalsUpTo } from '../ids';

/** The service's own upload URL (src/uploads/routes.ts), under any API mount point. */
const OWN_UPLOAD = /^(?:\/[A-Za-z0-9._~-]+)*\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:png|jpg|webp|gif)$/;

/** An octet of a dotted IPv4 address, without leading zeros (which URL parsers read as octal). */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** The rest of a host name label after its first character: letters, digits, `_` and `-`, not ending in `-`. */
const LABEL_REST = '(?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
/** No Punycode label (`xn--`): one that does not decode is refused by URL parsers, and a pattern cannot tell. */
const NOT_PUNYCODE = '(?![xX][nN]--)';
/**
 * The hosts an image may name: a host name of ASCII labels whose last label starts with a letter (one
 * of digits would be read as an IPv4 address), or a dotted IPv4 address; then a port up to 65535.
 * Every such host is one the WHATWG URL parser accepts as it is, so the pattern alone is the rule.
 */
const HOST = `(?:(?:${NOT_PUNYCODE}[A-Za-z0-9_]${LABEL_REST}\\.)*${NOT_PUNYCODE}[A-Za-z]${LABEL_REST}\\.?|(?:${OCTET}\\.){3}${OCTET})(?::${decimalsUpTo('65535').slice(1, -1)})?`;

/**
 * An absolute http(s) URL (the scheme in any case) with such a host and no user information, then a
 * path, query or fragment without white space, quotes, angle brackets, backslashes or backticks:
 * nothing a page could read as markup or a second URL.
 */
const HTTP_IMAGE_SOURCE = `[hH][tT][tT][pP][sS]?://${HOST}(?:[/?#][^\\s"'<>\\\\\`]*)?`;
const HTTP_IMAGE = new RegExp(`^${HTTP_IMAGE_SOURCE}$`);

/** Whether a value is an image the storefront may show: this service's own upload, or an http(s) URL of `HTTP_IMAGE`. */
export function isImageUrl(value: string): boolean {
  if (OWN_UPLOAD.test(value)) return true;
  if (!HTTP_IMAGE.test(value)) return false;
  // The pattern admits only what a URL parser takes as it is; parsing again keeps that promise checked.
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

const IMAGE_MESSAGE = 'must be an http(s) URL (an ASCII host name or IPv4 address, no user information) or an upload of this service (/uploads/<name>)';

/** `isImageUrl` as the API description says it: the same two patterns, nothing else. */
const IMAGE_SOURCE = `${OWN_UPLOAD.source.slice(1, -1)}|${HTTP_IMAGE_SOURCE}`;
export const IMAGE_PATTERN = `^(?:${IMAGE_SOURCE})$`;

/** An image: an http(s) URL or this service's `/uploads/<generated name>`. */
export const imageField = (max = 2000) => z.string().max(max).refine(isImageUrl, { message: IMAGE_MESSAGE }).meta({ pattern: IMAGE_PATTERN, description: IMAGE_MESSAGE });

/** A category icon: the image rule, with "" (or only white space) meaning none (docs/domain.md, Category names). */
export const iconField = (max = 1000) =>
  z
    .string()
    .max(max)
    .nullable()
    .transform((v) => (v === null || v.trim() === '' ? null : v.trim()))
    .refine((v) => v === null || isImageUrl(v), { message: IMAGE_MESSAGE })
    .meta({ pattern: `^\\s*(?:${IMAGE_SOURCE})?\\s*$`, description: `${IMAGE_MESSAGE}; "" or null: none` });

/** A colour as CSS hex, `#rgb` or `#rrggbb`: nothing else can reach a style attribute. */
export const colourField = () => z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a colour #rgb or #rrggbb');

/**
 * Characters that take no space and show nothing: zero-width space, joiners, word joiner, BOM,
 * soft hyphen, the Mongolian vowel separator, bidirectional marks, and Hangul fillers.
 */
// eslint-disable-next-line no-misleading-character-class -- each is matched alone: the joiners and Hangul fillers are among what it removes
const INVISIBLE = /[\s\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]/g;

/** Whether anything visible remains once white space and invisible characters are taken away. */
export function hasVisibleText(value: string): boolean {
  return value.replace(INVISIBLE, '') !== '';
}

/** `hasVisibleText` as the API description says it: somewhere, a character that is not invisible. */
export const VISIBLE_PATTERN = `[^${INVISIBLE.source.slice(1)}`;

/**
 * A name a page shows: at most `max` characters as sent (the API description's `maxLength`), then
 * trimmed, and not only invisible characters.
 */
export const visibleName = (max: number) =>
  z
    .string()
    .max(max)
    .trim()
    .min(1)
    .refine(hasVisibleText, { message: 'must contain a visible character' })
    .meta({ pattern: VISIBLE_PATTERN, description: `at most ${max} characters, something of them visible; trimmed` });

/** The display order values and priorities: an integer in the 32-bit range, never rounded. */
export const int32Field = () => z.number().int().min(-2_147_483_648).max(2_147_483_647);

/** Money in a request: a positive decimal string with at most two places (docs/domain.md, Identifiers and money). */
export const priceField = () =>
  z
    .string()
    .max(20)
    .regex(/^\d{1,12}(?:\.\d{1,2})?$/, 'must be a positive amount with at most two decimals, e.g. "12.50"')
    .refine((v) => /[1-9]/.test(v), { message: 'must be greater than zero' })
    .meta({ pattern: '^(?=[\\d.]*[1-9])\\d{1,12}(?:\\.\\d{1,2})?$', description: 'a positive amount with at most two decimals, e.g. "12.50"' });
