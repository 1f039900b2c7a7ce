/**
 * Category name cleaning (docs/domain.md, Category names): every parenthesised segment
 * goes, whatever its content, with half- and full-width brackets pairing freely (`（男款)` is one
 * segment); a bare style-code token outside brackets stays; white space is folded; a name that would
 * become empty keeps its original form.
 */
const SEGMENT = /[（(][^（()）]*[)）]/g;

export function foldWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function cleanCategoryName(raw: string): string {
  let s = raw;
  // Repeat so nested brackets go from the inside out.
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replace(SEGMENT, ' ');
  }
  const cleaned = foldWhitespace(s);
  return cleaned === '' ? raw : cleaned;
}

/** An empty icon counts as none. */
export function normaliseIcon(icon: string | null | undefined): string | null {
  const t = icon?.trim();
  return t ? t : null;
}
