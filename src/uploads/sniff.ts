/**
 * What an uploaded file is, judged by its leading bytes (magic-bytes.js), never by the name or the
 * client's Content-Type. Only raster images are accepted; SVG (text that may carry script) and
 * everything else is refused.
 *
 * Why magic-bytes.js: maintained, no dependencies, CommonJS (it loads under jest's CommonJS runtime,
 * which `file-type` ≥ 17, ESM-only, does not; `file-type` 16 still loads but its line is frozen).
 */
import { filetypeinfo } from 'magic-bytes.js';

export type ImageKind = 'png' | 'jpg' | 'webp' | 'gif';

const BY_TYPENAME: Record<string, { kind: ImageKind; mime: string }> = {
  png: { kind: 'png', mime: 'image/png' },
  jpg: { kind: 'jpg', mime: 'image/jpeg' },
  webp: { kind: 'webp', mime: 'image/webp' },
  gif: { kind: 'gif', mime: 'image/gif' },
};

/** The image kind, or null when the bytes are not one of the accepted formats. */
export function sniffImage(bytes: Uint8Array): { kind: ImageKind; mime: string } | null {
  // The best guess decides: a file that looks like something else first is not taken as an image.
  const first = filetypeinfo(bytes.subarray(0, 64))[0];
  return first ? (BY_TYPENAME[first.typename] ?? null) : null;
}
