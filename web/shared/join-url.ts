/**
 * Joins an API base (`''`, `/`, `/api`, `/v2-api/`, `http://host:3000/api/`) and a path (`auth/me`,
 * `/auth/me`) with exactly one slash between them: never `/v2-api//auth/refresh` (docs/api.md, Deployments and proxy prefixes).
 * Only the seam is touched: a scheme's `//` and the path's own query string are kept as they are.
 */
export function joinUrl(base: string, path: string): string {
  const b = base.replace(/\/+$/, '');
  const p = path.replace(/^\/+/, '');
  return `${b}/${p}`;
}
