/**
 * The simulated supplier's pictures: product photos and category icons drawn on request, so the demo
 * catalogue shows garments instead of broken images, with no network and nothing stored.
 *
 * A picture's address says everything needed to draw it (shape, colour, which family's print, which
 * view), so any process that runs the simulator serves every picture the simulator ever announced,
 * whichever catalogue it generated: the service serves them under PICTURES_PATH next to its API (the
 * address the demo announces is PUBLIC_URL's, or the service's own), the standalone simulator under
 * the same path on its own port. The drawings are SVG: crisp at any size, a few kilobytes, and an
 * `<img>` renders them (the pages' CSP allows images from any http(s) origin). Uploads stay raster
 * only (docs/security.md); these are addresses, not uploads.
 *
 * Addresses, under the base:
 *   /goods/f<family>/<shape>-<COLOUR>.svg          a link's main picture (front, the family's print)
 *   /media/f<family>/<shape>-<COLOUR>-<n>.svg      a family's photos: 1 front, 2 back, 3 and on a close-up
 *   /media/f<family>-l<link>/<shape>-<COLOUR>-1.svg a photo one offer adds (on a hanger)
 *   /icons/<shape>-<category>.svg                  a category icon
 */
import { Router, type Request, type Response } from 'express';
import { COLORS, type CategoryDef, type ProductKind } from './vocabulary';

/** Where the service and the standalone simulator serve the pictures. */
export const PICTURES_PATH = '/demo-pictures';
/** The base a catalogue generated on its own announces: `catalog simulator` on its default port. */
export const DEFAULT_PICTURES_BASE = `http://localhost:4010${PICTURES_PATH}`;

export const SHAPES = ['tee', 'longTee', 'sweatshirt', 'hoodie', 'pants', 'shorts', 'tote', 'backpack', 'pillow', 'apron'] as const;
export type Shape = (typeof SHAPES)[number];

type ColourCode = (typeof COLORS)[number]['code'];

/** What each colour of the vocabulary looks like on fabric. */
export const COLOUR_HEX: Record<ColourCode, string> = {
  BLK: '#222326',
  WHT: '#f7f7f5',
  GRY: '#9b9fa4',
  NVY: '#24304f',
  RED: '#c42b2b',
  OLV: '#5d6438',
  KHK: '#c2ad88',
  PNK: '#f2a9bd',
  RBL: '#2f5bc0',
  MRN: '#7a2130',
  CRM: '#f1e8d6',
  LBL: '#a3c8e8',
};

/** The picture a style category's goods get; the kind decides where the style does not. */
const SHAPE_BY_KIND: Record<ProductKind, Shape> = {
  tee: 'tee',
  longTee: 'longTee',
  hoodie: 'hoodie',
  pants: 'pants',
  shorts: 'shorts',
  bag: 'tote',
  pillow: 'pillow',
  apron: 'apron',
};
/** Styles whose goods do not look like their kind's default: crew-neck sweatshirts, a backpack. */
const SHAPE_BY_CATEGORY: Readonly<Record<number, Shape>> = {
  // top and middle levels: what their icon shows
  101: 'tee',
  102: 'tote',
  103: 'pillow',
  201: 'tee',
  202: 'hoodie',
  203: 'pants',
  204: 'tote',
  205: 'backpack',
  206: 'pillow',
  207: 'apron',
  // styles
  307: 'sweatshirt',
  309: 'sweatshirt',
  314: 'backpack',
};

export function shapeOf(categoryId: number | string, kind?: ProductKind): Shape {
  return SHAPE_BY_CATEGORY[Number(categoryId)] ?? (kind ? SHAPE_BY_KIND[kind] : 'tee');
}

/** The category's icon shape: its own, else its kind's (style level). */
export function iconShapeOf(def: CategoryDef & { kind?: ProductKind }): Shape {
  return shapeOf(def.id, def.kind);
}

/** The addresses of the pictures under one absolute http(s) base (no trailing slash). */
export class PictureAddresses {
  readonly base: string;
  constructor(base: string) {
    this.base = base.replace(/\/+$/, '');
  }

  /** A link's main picture: its family's product in one of its colours. */
  main(family: number, shape: Shape, colour: string): string {
    return `${this.base}/goods/f${family}/${shape}-${colour}.svg`;
  }

  /** A family's photo `n` in a colour (1 front, 2 back, 3+ close-ups); `link`: a photo that offer adds. */
  media(family: number, shape: Shape, colour: string, n: number, link?: string): string {
    return `${this.base}/media/f${family}${link === undefined ? '' : `-l${link}`}/${shape}-${colour}-${n}.svg`;
  }

  icon(categoryId: number | string, shape: Shape): string {
    return `${this.base}/icons/${shape}-${categoryId}.svg`;
  }
}

// ---------------------------------------------------------------------------------------------
// Drawing. Every garment is drawn on an 800×800 canvas, from its right half mirrored, so it is
// symmetric; details (ribs, pockets, strings) are drawn inside the silhouette's clip.

type Pt = readonly [number, number];
/** A segment of a right half: a line to `to`, or a cubic curve through `c1`, `c2`. */
type Seg = { to: Pt; c?: readonly [Pt, Pt] };

const SIZE = 800;
const mirror = ([x, y]: Pt): Pt => [SIZE - x, y];
const pt = ([x, y]: Pt) => `${x} ${y}`;

/** A closed symmetric outline: from `start` (on the centre line) along the right half, back along the left. */
function symmetric(start: Pt, right: readonly Seg[]): string {
  let d = `M${pt(start)}`;
  for (const s of right) d += s.c ? `C${pt(s.c[0])} ${pt(s.c[1])} ${pt(s.to)}` : `L${pt(s.to)}`;
  // The left half: the right half backwards and mirrored (a curve's control points swap).
  const points: Pt[] = [start, ...right.map((s) => s.to)];
  for (let i = right.length - 1; i >= 0; i--) {
    const s = right[i]!;
    const to = mirror(points[i]!);
    d += s.c ? `C${pt(mirror(s.c[1]))} ${pt(mirror(s.c[0]))} ${pt(to)}` : `L${pt(to)}`;
  }
  return d + 'Z';
}

interface Garment {
  outline: string;
  /** drawn behind the outline (a hood, bag handles, apron ties) */
  behind?: (c: Colours) => string;
  /** drawn inside the outline's clip (ribs, pockets, strings) */
  details?: (c: Colours, view: View) => string;
  /** drawn over everything (collars, a hood's opening) */
  over?: (c: Colours, view: View) => string;
  /** where the print goes and how big it is */
  print: { x: number; y: number; size: number; back?: { x: number; y: number; size: number } };
}

interface Colours {
  fill: string;
  shade: string;
  deep: string;
  line: string;
  light: boolean;
}

type View = 'front' | 'back';

const NECK: Seg = {
  to: [505, 118],
  c: [
    [452, 160],
    [490, 142],
  ],
};
const neck: Seg[] = [NECK];
const CREW: Seg = {
  to: [497, 116],
  c: [
    [446, 152],
    [482, 136],
  ],
};
const crewNeck: Seg[] = [CREW];

const band = (c: Colours, y0: number, y1: number) => `<rect x="0" y="${y0}" width="${SIZE}" height="${y1 - y0}" fill="${c.shade}"/>` + ribs(c, y0, y1);
const ribs = (c: Colours, y0: number, y1: number) => {
  let s = '';
  for (let x = 8; x < SIZE; x += 14) s += `M${x} ${y0 + 3}V${y1 - 3}`;
  return `<path d="${s}" stroke="${c.deep}" stroke-opacity=".25" stroke-width="2"/>`;
};
/** The neckline from the left neck point through `centre` to the right one (as the outline draws it). */
const neckline = (centre: Pt, seg: Seg) => `M${pt(mirror(seg.to))}C${pt(mirror(seg.c![1]))} ${pt(mirror(seg.c![0]))} ${pt(centre)}C${pt(seg.c![0])} ${pt(seg.c![1])} ${pt(seg.to)}`;
/** Seen from the front: the inside of the back of the neck above the neckline, and the rib along it; from the back, the rib only. */
const collar = (c: Colours, view: View, centre: Pt, seg: Seg) => {
  const [x, y] = seg.to;
  const back = `M${pt(mirror(seg.to))}C${SIZE - x + 40} ${y + 22} ${x - 40} ${y + 22} ${x} ${y}`;
  return view === 'front'
    ? `<path d="${neckline(centre, seg)}C${x - 40} ${y + 16} ${SIZE - x + 40} ${y + 16} ${SIZE - x} ${y}Z" fill="${c.deep}"/>` +
        `<path d="${neckline(centre, seg)}" fill="none" stroke="${c.shade}" stroke-width="14"/>` +
        `<path d="${neckline(centre, seg)}" fill="none" stroke="${c.line}" stroke-width="2"/>`
    : `<path d="${back}" fill="none" stroke="${c.shade}" stroke-width="14"/>`;
};
const stitch = (d: string, c: Colours) => `<path d="${d}" fill="none" stroke="${c.line}" stroke-opacity=".45" stroke-width="2" stroke-dasharray="7 6"/>`;
const folds = (c: Colours, lines: string) => `<path d="${lines}" fill="none" stroke="${c.deep}" stroke-opacity=".14" stroke-width="5" stroke-linecap="round"/>`;
/** A cuff: a rib band across the sleeve end, drawn as a thick line between two points. */
const cuff = (c: Colours, a: Pt, b: Pt) => {
  const line = (p: Pt, q: Pt) => `<path d="M${pt(p)}L${pt(q)}" stroke="${c.shade}" stroke-width="44" stroke-linecap="butt"/>`;
  return line(a, b) + line(mirror(a), mirror(b));
};

/** A sweatshirt's body: long sleeves with rib cuffs, a crew neck (a hoodie's too, its hood drawn apart). */
const BOXY = symmetric(
  [400, 152],
  [
    ...crewNeck,
    { to: [616, 150] },
    { to: [704, 250] },
    { to: [752, 560] },
    { to: [760, 612] },
    { to: [688, 622] },
    { to: [680, 572] },
    { to: [598, 336] },
    { to: [606, 718] },
    {
      to: [400, 722],
      c: [
        [540, 722],
        [460, 722],
      ],
    },
  ],
);
/** Drawstrings, a light or a dark cord as the fabric asks. */
const strings = (c: Colours, d: string, width = 6) => `<path d="${d}" stroke="${c.light ? '#8a8580' : '#ecebe8'}" stroke-width="${width}" stroke-linecap="round"/>`;

const GARMENTS: Record<Shape, Garment> = {
  tee: {
    outline: symmetric(
      [400, 160],
      [
        ...neck,
        { to: [606, 148] },
        { to: [730, 262] },
        { to: [666, 344] },
        { to: [592, 298] },
        { to: [596, 700] },
        {
          to: [400, 716],
          c: [
            [540, 712],
            [460, 716],
          ],
        },
      ],
    ),
    over: (c, view) => collar(c, view, [400, 160], NECK),
    details: (c) =>
      stitch('M700 238L636 326M100 238L164 326', c) +
      stitch('M206 684C300 698 500 698 594 684', c) +
      folds(c, 'M300 420Q322 520 296 640M505 430Q486 540 512 650M232 330Q260 360 240 420'),
    print: { x: 400, y: 380, size: 170, back: { x: 400, y: 230, size: 60 } },
  },
  longTee: {
    outline: symmetric(
      [400, 160],
      [
        ...neck,
        { to: [606, 148] },
        { to: [690, 244] },
        { to: [748, 566] },
        { to: [682, 584] },
        { to: [594, 330] },
        { to: [598, 700] },
        {
          to: [400, 716],
          c: [
            [540, 712],
            [460, 716],
          ],
        },
      ],
    ),
    over: (c, view) => collar(c, view, [400, 160], NECK),
    details: (c) =>
      stitch('M742 536L677 554M58 536L123 554', c) +
      stitch('M206 684C300 698 500 698 594 684', c) +
      folds(c, 'M300 430Q322 520 296 640M505 430Q486 540 512 650M690 330Q705 420 718 480M110 330Q95 420 82 480'),
    print: { x: 400, y: 380, size: 170, back: { x: 400, y: 230, size: 60 } },
  },
  sweatshirt: {
    outline: BOXY,
    over: (c, view) => collar(c, view, [400, 152], CREW),
    details: (c) =>
      cuff(c, [756, 590], [684, 600]) + band(c, 660, 730) + folds(c, 'M300 420Q322 520 296 620M505 420Q486 520 512 630M700 330Q714 420 726 500M100 330Q86 420 74 500'),
    print: { x: 400, y: 370, size: 170, back: { x: 400, y: 230, size: 60 } },
  },
  hoodie: {
    outline: BOXY,
    behind: (c) => `<path d="M280 160C256 30 544 30 520 160Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3"/>`,
    over: (c, view) =>
      view === 'front'
        ? `<path d="M318 150C304 64 496 64 482 150C466 212 334 212 318 150Z" fill="${c.deep}"/>` +
          `<path d="M318 150C304 64 496 64 482 150C466 212 334 212 318 150Z" fill="none" stroke="${c.shade}" stroke-width="16"/>` +
          `<path d="M306 150C290 52 510 52 494 150C476 224 324 224 306 150Z" fill="none" stroke="${c.line}" stroke-width="2"/>` +
          strings(c, 'M374 196L368 310M426 196L432 310', 7)
        : `<path d="M286 150C290 44 510 44 514 150C474 236 326 236 286 150Z" fill="${c.shade}" stroke="${c.line}" stroke-width="2"/>` + stitch('M400 52L400 200', c),
    details: (c, view) =>
      (view === 'front'
        ? `<path d="M284 486L516 486L552 616L248 616Z" fill="${c.fill}" stroke="${c.line}" stroke-opacity=".6" stroke-width="3"/>` + stitch('M294 498L506 498M262 600L538 600', c)
        : '') +
      cuff(c, [756, 590], [684, 600]) +
      band(c, 660, 730) +
      folds(c, 'M700 330Q714 420 726 500M100 330Q86 420 74 500'),
    print: { x: 400, y: 380, size: 120, back: { x: 400, y: 360, size: 190 } },
  },
  pants: {
    outline: symmetric([400, 118], [{ to: [562, 118] }, { to: [590, 706] }, { to: [440, 712] }, { to: [400, 300] }]),
    details: (c, view) =>
      band(c, 118, 166) +
      (view === 'front'
        ? strings(c, 'M388 166L380 226M412 166L420 226') + stitch('M268 172C286 214 300 230 330 238M532 172C514 214 500 230 470 238', c)
        : stitch('M270 220L350 226L346 300L276 296ZM530 220L450 226L454 300L524 296Z', c)) +
      band(c, 664, 716) +
      folds(c, 'M300 360Q286 460 300 560M500 360Q514 460 500 560'),
    print: { x: 296, y: 400, size: 70, back: { x: 504, y: 400, size: 0 } },
  },
  shorts: {
    outline: symmetric([400, 196], [{ to: [566, 196] }, { to: [604, 524] }, { to: [432, 538] }, { to: [400, 388] }]),
    details: (c, view) =>
      band(c, 196, 244) +
      (view === 'front' ? strings(c, 'M388 244L380 300M412 244L420 300') : '') +
      stitch('M232 506L370 518M568 506L430 518', c) +
      folds(c, 'M300 330Q292 400 304 470M500 330Q508 400 496 470'),
    print: { x: 290, y: 340, size: 60, back: { x: 510, y: 340, size: 0 } },
  },
  tote: {
    outline: symmetric([400, 296], [{ to: [566, 296] }, { to: [592, 708] }, { to: [400, 708] }]),
    behind: (c) =>
      `<path d="M318 300C318 120 482 120 482 300" fill="none" stroke="${c.deep}" stroke-width="24"/>` +
      `<path d="M300 300C300 150 500 150 500 300" fill="none" stroke="${c.shade}" stroke-width="26"/>`,
    details: (c) => stitch('M224 326L576 326', c) + folds(c, 'M330 360Q318 520 332 680M470 360Q482 520 468 680'),
    print: { x: 400, y: 520, size: 190, back: { x: 400, y: 520, size: 0 } },
  },
  backpack: {
    outline: symmetric(
      [400, 186],
      [
        {
          to: [590, 320],
          c: [
            [486, 186],
            [580, 214],
          ],
        },
        { to: [600, 680] },
        {
          to: [400, 724],
          c: [
            [600, 716],
            [560, 724],
          ],
        },
      ],
    ),
    behind: (c) => `<path d="M356 196C356 120 444 120 444 196" fill="none" stroke="${c.deep}" stroke-width="20"/>`,
    details: (c, view) =>
      view === 'front'
        ? stitch('M226 300C300 214 500 214 574 300', c) +
          `<rect x="262" y="452" width="276" height="222" rx="36" fill="${c.shade}" stroke="${c.line}" stroke-opacity=".5" stroke-width="3"/>` +
          `<path d="M280 482L520 482" stroke="${c.deep}" stroke-width="6"/><rect x="492" y="474" width="18" height="34" rx="4" fill="#c9c6c0"/>` +
          `<rect x="378" y="300" width="44" height="18" rx="6" fill="${c.deep}"/>`
        : `<path d="M300 220L320 700M500 220L480 700" stroke="${c.deep}" stroke-width="44" stroke-linecap="round"/>` +
          `<rect x="260" y="560" width="280" height="30" rx="8" fill="${c.shade}"/>`,
    print: { x: 400, y: 578, size: 110, back: { x: 400, y: 400, size: 0 } },
  },
  pillow: {
    outline: symmetric(
      [400, 188],
      [
        {
          to: [652, 150],
          c: [
            [500, 188],
            [600, 170],
          ],
        },
        {
          to: [652, 650],
          c: [
            [628, 300],
            [628, 500],
          ],
        },
        {
          to: [400, 612],
          c: [
            [600, 632],
            [500, 612],
          ],
        },
      ],
    ),
    details: (c) =>
      `<path d="M168 166C300 200 500 200 632 166M168 634C300 598 500 598 632 634M166 170C186 300 186 500 166 630M634 170C614 300 614 500 634 630" fill="none" stroke="${c.shade}" stroke-width="6"/>` +
      folds(c, 'M200 200Q260 230 300 250M600 200Q540 230 500 250M200 600Q260 570 300 550M600 600Q540 570 500 550'),
    print: { x: 400, y: 400, size: 230, back: { x: 400, y: 400, size: 0 } },
  },
  apron: {
    outline: symmetric(
      [400, 170],
      [
        { to: [484, 170] },
        { to: [492, 324] },
        {
          to: [588, 372],
          c: [
            [540, 336],
            [576, 352],
          ],
        },
        { to: [604, 716] },
        {
          to: [400, 726],
          c: [
            [540, 722],
            [460, 726],
          ],
        },
      ],
    ),
    behind: (c) =>
      `<path d="M320 176C316 56 484 56 480 176" fill="none" stroke="${c.shade}" stroke-width="16"/>` +
      `<path d="M586 364C660 372 700 430 716 500M214 364C140 372 100 430 84 500" fill="none" stroke="${c.shade}" stroke-width="16" stroke-linecap="round"/>`,
    details: (c) =>
      `<rect x="282" y="470" width="236" height="128" rx="10" fill="${c.shade}" fill-opacity=".55"/>` +
      stitch('M290 478L510 478L510 590L290 590ZM400 478L400 590', c) +
      stitch('M326 182L474 182', c) +
      folds(c, 'M300 620Q296 660 304 700M500 620Q504 660 496 700'),
    print: { x: 400, y: 260, size: 100, back: { x: 400, y: 260, size: 0 } },
  },
};

// The prints: simple designs a print-on-demand catalogue shows its goods with, one per family.

const PRINTS_ON_LIGHT = ['#e4572e', '#1b998b', '#f2a541', '#2e294e', '#3a86ff', '#8338ec', '#d62246', '#2d6a4f'];
const PRINTS_ON_DARK = ['#ffc914', '#f4f1de', '#3ddbd9', '#ff7aa2', '#a0e7e5', '#ffd6a5', '#b9fbc0', '#ffffff'];

/** A design centred on 0,0 that fits a square of side `s`, in colours `p` and `q`. */
const MOTIFS: readonly ((s: number, p: string, q: string) => string)[] = [
  // sun
  (s, p, q) => {
    let rays = '';
    for (let i = 0; i < 12; i++) {
      const a = (i * Math.PI) / 6;
      rays += `M${r1(Math.cos(a) * s * 0.3)} ${r1(Math.sin(a) * s * 0.3)}L${r1(Math.cos(a) * s * 0.48)} ${r1(Math.sin(a) * s * 0.48)}`;
    }
    return `<path d="${rays}" stroke="${q}" stroke-width="${r1(s * 0.05)}" stroke-linecap="round"/><circle r="${r1(s * 0.24)}" fill="${p}"/>`;
  },
  // star
  (s, p, q) => `<circle r="${r1(s * 0.48)}" fill="none" stroke="${q}" stroke-width="${r1(s * 0.04)}"/><path d="${star(s * 0.4, s * 0.17)}" fill="${p}"/>`,
  // mountains under a moon
  (s, p, q) =>
    `<circle cx="${r1(s * 0.2)}" cy="${r1(-s * 0.22)}" r="${r1(s * 0.1)}" fill="${q}"/>` +
    `<path d="M${r1(-s * 0.5)} ${r1(s * 0.3)}L${r1(-s * 0.15)} ${r1(-s * 0.2)}L${r1(s * 0.05)} ${r1(s * 0.05)}L${r1(s * 0.2)} ${r1(-s * 0.08)}L${r1(s * 0.5)} ${r1(s * 0.3)}Z" fill="${p}"/>`,
  // stripes
  (s, p, q) =>
    [-0.3, 0, 0.3]
      .map((y, i) => `<rect x="${r1(-s * 0.45)}" y="${r1(y * s - s * 0.08)}" width="${r1(s * 0.9)}" height="${r1(s * 0.16)}" rx="${r1(s * 0.08)}" fill="${i === 1 ? q : p}"/>`)
      .join(''),
  // heart
  (s, p, q) =>
    `<path d="M0 ${r1(s * 0.38)}C${r1(-s * 0.6)} ${r1(-s * 0.02)} ${r1(-s * 0.3)} ${r1(-s * 0.5)} 0 ${r1(-s * 0.18)}C${r1(s * 0.3)} ${r1(-s * 0.5)} ${r1(s * 0.6)} ${r1(-s * 0.02)} 0 ${r1(s * 0.38)}Z" fill="${p}" stroke="${q}" stroke-width="${r1(s * 0.04)}"/>`,
  // waves
  (s, p, q) =>
    [-0.25, 0, 0.25]
      .map(
        (y, i) =>
          `<path d="M${r1(-s * 0.48)} ${r1(y * s)}q${r1(s * 0.12)} ${r1(-s * 0.14)} ${r1(s * 0.24)} 0t${r1(s * 0.24)} 0t${r1(s * 0.24)} 0t${r1(s * 0.24)} 0" fill="none" stroke="${i === 1 ? q : p}" stroke-width="${r1(s * 0.07)}" stroke-linecap="round"/>`,
      )
      .join(''),
  // badge
  (s, p, q) =>
    `<circle r="${r1(s * 0.46)}" fill="${p}"/><circle r="${r1(s * 0.36)}" fill="none" stroke="${q}" stroke-width="${r1(s * 0.03)}" stroke-dasharray="${r1(s * 0.05)} ${r1(s * 0.04)}"/><path d="${star(s * 0.22, s * 0.09)}" fill="${q}"/>`,
  // diamonds
  (s, p, q) =>
    [
      [-0.22, -0.22],
      [0.22, -0.22],
      [-0.22, 0.22],
      [0.22, 0.22],
    ]
      .map(
        ([x, y], i) =>
          `<path d="M${r1(x! * s)} ${r1(y! * s - s * 0.2)}l${r1(s * 0.2)} ${r1(s * 0.2)}l${r1(-s * 0.2)} ${r1(s * 0.2)}l${r1(-s * 0.2)} ${r1(-s * 0.2)}Z" fill="${i % 3 === 0 ? p : q}"/>`,
      )
      .join(''),
  // lightning
  (s, p, q) =>
    `<circle r="${r1(s * 0.47)}" fill="${q}"/><path d="M${r1(s * 0.08)} ${r1(-s * 0.42)}L${r1(-s * 0.22)} ${r1(s * 0.06)}L${r1(0)} ${r1(s * 0.06)}L${r1(-s * 0.1)} ${r1(s * 0.42)}L${r1(s * 0.24)} ${r1(-s * 0.08)}L${r1(s * 0.02)} ${r1(-s * 0.08)}Z" fill="${p}"/>`,
  // flower
  (s, p, q) => {
    let petals = '';
    for (let i = 0; i < 6; i++) {
      const a = (i * Math.PI) / 3;
      petals += `<circle cx="${r1(Math.cos(a) * s * 0.25)}" cy="${r1(Math.sin(a) * s * 0.25)}" r="${r1(s * 0.18)}" fill="${p}"/>`;
    }
    return petals + `<circle r="${r1(s * 0.14)}" fill="${q}"/>`;
  },
];

const r1 = (n: number) => Math.round(n * 10) / 10;

function star(outer: number, inner: number): string {
  let d = '';
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    d += `${i === 0 ? 'M' : 'L'}${r1(Math.cos(a) * r)} ${r1(Math.sin(a) * r)}`;
  }
  return d + 'Z';
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** `hex` darkened (f < 1) or lightened towards white (f > 1). */
function tone(hex: string, f: number): string {
  const out = rgb(hex).map((v) => Math.round(f <= 1 ? v * f : v + (255 - v) * (f - 1)));
  return `#${out.map((v) => Math.max(0, Math.min(255, v)).toString(16).padStart(2, '0')).join('')}`;
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

function coloursOf(hex: string): Colours {
  const light = luminance(hex) > 0.6;
  return {
    fill: hex,
    shade: tone(hex, light ? 0.9 : 0.82),
    deep: tone(hex, light ? 0.78 : 0.62),
    line: light ? '#a8a39b' : tone(hex, 0.55),
    light,
  };
}

function printOf(family: number, c: Colours, x: number, y: number, size: number): string {
  if (size <= 0) return '';
  const palette = c.light ? PRINTS_ON_LIGHT : PRINTS_ON_DARK;
  const p = palette[family % palette.length]!;
  const q = palette[(family * 3 + 1) % palette.length]!;
  const motif = MOTIFS[Math.floor(family / 3) % MOTIFS.length]!;
  return `<g transform="translate(${x} ${y})" opacity=".95">${motif(size, p, q === p ? palette[(family + 2) % palette.length]! : q)}</g>`;
}

export type PictureView = 'front' | 'back' | 'closeUp' | 'hanger';

export interface GarmentPicture {
  shape: Shape;
  /** a colour code of the vocabulary (BLK, NVY, ...) */
  colour: string;
  /** whose print: the family number */
  family: number;
  view: PictureView;
}

const BACKDROP: Record<PictureView, [string, string]> = {
  front: ['#f6f4f0', '#e9e5de'],
  back: ['#f3f4f6', '#e3e6ea'],
  closeUp: ['#f6f4f0', '#e9e5de'],
  hanger: ['#eef3f1', '#dde7e3'],
};

/** A product photo as SVG, or null when the colour is not one of the vocabulary's. */
export function drawGarment(pic: GarmentPicture): string | null {
  const hex = COLOUR_HEX[pic.colour as ColourCode];
  if (!hex) return null;
  const g = GARMENTS[pic.shape];
  const c = coloursOf(hex);
  const view: View = pic.view === 'back' ? 'back' : 'front';
  const spot = view === 'back' ? (g.print.back ?? { ...g.print, size: 0 }) : g.print;
  const [bg0, bg1] = BACKDROP[pic.view];
  // A close-up is the front seen through a smaller window around the print, fabric texture on top.
  const zoom = Math.max(g.print.size, 120) * 0.85;
  const viewBox = pic.view === 'closeUp' ? `${g.print.x - zoom} ${g.print.y - zoom} ${2 * zoom} ${2 * zoom}` : `0 0 ${SIZE} ${SIZE}`;
  const hanger =
    pic.view === 'hanger'
      ? `<path d="M400 60C420 60 428 78 418 90C410 98 400 100 400 112" fill="none" stroke="#8d8a85" stroke-width="6" stroke-linecap="round"/>` +
        `<path d="M400 112L250 150L550 150Z" fill="none" stroke="#8d8a85" stroke-width="8" stroke-linejoin="round"/>`
      : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="${viewBox}">` +
    `<defs>` +
    `<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bg0}"/><stop offset="1" stop-color="${bg1}"/></linearGradient>` +
    `<linearGradient id="light" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity=".16"/><stop offset=".45" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".14"/></linearGradient>` +
    `<filter id="blur" x="-20%" y="-200%" width="140%" height="500%"><feGaussianBlur stdDeviation="10"/></filter>` +
    `<clipPath id="body"><path d="${g.outline}"/></clipPath>` +
    `<pattern id="weave" width="6" height="6" patternUnits="userSpaceOnUse"><path d="M0 6L6 0" stroke="#000" stroke-opacity=".07" stroke-width="1.2"/></pattern>` +
    `</defs>` +
    `<rect x="-400" y="-400" width="1600" height="1600" fill="url(#bg)"/>` +
    `<ellipse cx="400" cy="748" rx="270" ry="18" fill="#000" opacity=".16" filter="url(#blur)"/>` +
    hanger +
    (g.behind?.(c) ?? '') +
    `<path d="${g.outline}" fill="${c.fill}"/>` +
    `<g clip-path="url(#body)">${g.details?.(c, view) ?? ''}${printOf(pic.family, c, spot.x, spot.y, spot.size)}` +
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#light)"/>${pic.view === 'closeUp' ? `<rect width="${SIZE}" height="${SIZE}" fill="url(#weave)"/>` : ''}</g>` +
    `<path d="${g.outline}" fill="none" stroke="${c.line}" stroke-width="3" stroke-linejoin="round"/>` +
    (g.over?.(c, view) ?? '') +
    `</svg>`
  );
}

/** A category icon: the shape, flat, in a hue of the category's own, on a round tile. */
export function drawIcon(shape: Shape, categoryId: number): string {
  const hue = (categoryId * 47) % 360;
  const g = GARMENTS[shape];
  const fill = `hsl(${hue} 42% 46%)`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">` +
    `<circle cx="128" cy="128" r="126" fill="hsl(${hue} 70% 93%)"/>` +
    `<g transform="translate(36 30) scale(.23)">` +
    (g.behind?.({ fill, shade: fill, deep: fill, line: fill, light: false }) ?? '') +
    `<path d="${g.outline}" fill="${fill}"/></g></svg>`
  );
}

// ---------------------------------------------------------------------------------------------
// Serving.

const GOODS = /^\/goods\/f(\d{1,9})\/([A-Za-z]+)-([A-Z]{3})\.svg$/;
const MEDIA = /^\/media\/f(\d{1,9})(-l\d{1,19})?\/([A-Za-z]+)-([A-Z]{3})-(\d{1,2})\.svg$/;
const ICON = /^\/icons\/([A-Za-z]+)-(\d{1,19})\.svg$/;

const isShape = (s: string): s is Shape => (SHAPES as readonly string[]).includes(s);

/** The SVG an address under the base names, or null when it names none. */
export function pictureAt(path: string): string | null {
  let m = GOODS.exec(path);
  if (m) return isShape(m[2]!) ? drawGarment({ family: Number(m[1]), shape: m[2], colour: m[3]!, view: 'front' }) : null;
  m = MEDIA.exec(path);
  if (m) {
    if (!isShape(m[3]!)) return null;
    const n = Number(m[5]);
    const view: PictureView = m[2] ? 'hanger' : n === 1 ? 'front' : n === 2 ? 'back' : 'closeUp';
    return drawGarment({ family: Number(m[1]), shape: m[3], colour: m[4]!, view });
  }
  m = ICON.exec(path);
  if (m) return isShape(m[1]!) ? drawIcon(m[1], Number(m[2])) : null;
  return null;
}

/**
 * GET and HEAD of the pictures, mounted at PICTURES_PATH. Outside every fault and token check of the
 * simulator: a browser asks for them, with no bearer token, and they are no part of the supplier's API.
 */
export function picturesRoutes(): Router {
  const r = Router();
  r.use((req: Request, res: Response, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const svg = pictureAt(req.path);
    if (svg === null) {
      res.status(404).type('text/plain').send('no such picture');
      return;
    }
    res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    // The same address always draws the same picture.
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Opened on its own, the drawing still may run nothing and load nothing.
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.send(svg);
  });
  return r;
}
