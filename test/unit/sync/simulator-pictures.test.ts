/**
 * The simulated supplier's pictures (src/sync/simulator/pictures.ts): every address the catalogue
 * announces passes the service's own image rule and names a drawing, of the link's kind of product, in
 * the colour the address (and the detail's media entry) says.
 */
import { isImageUrl } from '../../../src/platform/http/fields';
import { generateCatalog } from '../../../src/sync/simulator';
import { COLOUR_HEX, PICTURES_PATH, SHAPES, drawGarment, pictureAt } from '../../../src/sync/simulator/pictures';
import { COLORS } from '../../../src/sync/simulator/vocabulary';

const BASE = `http://localhost:3999${PICTURES_PATH}`;

/** Tags open and close in order: a drawing a browser can parse (no XML parser among the dependencies). */
function wellFormed(svg: string): boolean {
  const open: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (m[1]) {
      if (open.pop() !== m[2]) return false;
    } else if (!m[3]) open.push(m[2]!);
  }
  return open.length === 0;
}

/** The drawing an announced address names, read back through the path the service serves. */
const drawingAt = (url: string) => {
  expect(url.startsWith(`${BASE}/`)).toBe(true);
  return pictureAt(url.slice(BASE.length));
};

describe('the simulator pictures', () => {
  const catalog = generateCatalog({ links: 3000, seed: 1, pictures: BASE });
  const links = catalog.links();

  it('draws every shape in every colour of the vocabulary, from every side, as an 800 px SVG', () => {
    for (const shape of SHAPES) {
      for (const { code } of COLORS) {
        for (const view of ['front', 'back', 'closeUp', 'hanger'] as const) {
          const svg = drawGarment({ shape, colour: code, family: 7, view });
          expect(svg).not.toBeNull();
          expect(svg!.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"')).toBe(true);
          expect(wellFormed(svg!)).toBe(true);
          // the garment itself is filled with the colour
          expect(svg).toContain(`fill="${COLOUR_HEX[code]}"`);
        }
      }
    }
  });

  it("announces every link's picture, media and category icon at the base, where each passes the image rule and names a drawing", () => {
    const urls = [
      ...links.map((l) => l.image),
      ...links.slice(0, 400).flatMap((l) => catalog.detail(l.id)!.media.map((m) => m.url)),
      ...catalog.categories().flatMap((c) => (c.icon ? [c.icon] : [])),
    ];
    expect(urls.length).toBeGreaterThan(3500);
    for (const url of urls) {
      expect(isImageUrl(url)).toBe(true);
      const svg = drawingAt(url);
      expect(svg).not.toBeNull();
      expect(wellFormed(svg!)).toBe(true);
    }
    // top-level categories all have an icon, so the storefront's first row is pictures, not letters
    expect(
      catalog
        .categories()
        .filter((c) => c.parentId === null)
        .every((c) => c.icon && isImageUrl(c.icon)),
    ).toBe(true);
  });

  it("shows the link's kind of product, each media entry in its own colour", () => {
    const byCategory = (id: string) => links.filter((l) => l.categoryId === id);
    const shapeIn = (url: string) => /\/([a-zA-Z]+)-[A-Z]{3}(?:-\d+)?\.svg$/.exec(url)![1];
    expect(new Set(byCategory('301').map((l) => shapeIn(l.image)))).toEqual(new Set(['tee']));
    expect(new Set(byCategory('305').map((l) => shapeIn(l.image)))).toEqual(new Set(['longTee']));
    expect(new Set(byCategory('308').map((l) => shapeIn(l.image)))).toEqual(new Set(['hoodie']));
    expect(new Set(byCategory('309').map((l) => shapeIn(l.image)))).toEqual(new Set(['sweatshirt']));
    expect(new Set(byCategory('312').map((l) => shapeIn(l.image)))).toEqual(new Set(['tote']));
    expect(new Set(byCategory('314').map((l) => shapeIn(l.image)))).toEqual(new Set(['backpack']));
    expect(new Set(byCategory('315').map((l) => shapeIn(l.image)))).toEqual(new Set(['pillow']));
    const codeOf = new Map(COLORS.map((c) => [c.name as string, c.code as string]));
    let checked = 0;
    for (const l of links.slice(0, 300)) {
      for (const m of catalog.detail(l.id)!.media) {
        const code = codeOf.get(m.color)!;
        expect(m.url).toMatch(new RegExp(`-${code}-\\d+\\.svg$`));
        expect(drawingAt(m.url)).toContain(`fill="${COLOUR_HEX[code as keyof typeof COLOUR_HEX]}"`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('gives nearly every link a main picture in a colour it sells', () => {
    // One of the family's colours: an offer may come without it (the supplier drops a colour now and then).
    const sample = links.slice(0, 1000);
    const selling = sample.filter((l) => {
      const name = COLORS.find((c) => c.code === /-([A-Z]{3})\.svg$/.exec(l.image)![1])!.name;
      return catalog.detail(l.id)!.media.some((m) => m.color === name);
    });
    expect(selling.length).toBeGreaterThan(sample.length * 0.9);
  });

  it('names no drawing for an unknown shape, colour or path', () => {
    for (const path of [
      '/goods/f1/robot-BLK.svg',
      '/goods/f1/tee-XXX.svg',
      '/goods/f1/tee-BLK.png',
      '/media/f1/tee-BLK.svg',
      '/icons/tee-.svg',
      '/../etc/passwd',
      '/goods/f1/tee-BLK.svg/..',
    ]) {
      expect(pictureAt(path)).toBeNull();
    }
  });
});
