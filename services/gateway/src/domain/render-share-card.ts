import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import { BORDER_INK, SEA, regionPalette, shade, type Rgb } from '@pixel-atlas/contracts/terrain-palette';
import { TIER_COLOR, TIER_SIZE, normalizeTier, tierPlotLabel, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import sharp, { type OverlayOptions } from 'sharp';
import { escapeHtml } from './render-share-page.ts';
import { SHARE_CARD_SIZE } from './share-card-address.ts';

const CARD_WIDTH = SHARE_CARD_SIZE.width;
const CARD_HEIGHT = SHARE_CARD_SIZE.height;
/** Screen pixels per map tile on the card, and per pixel of a tile's 8x8 sprite. */
const TILE_PX = 40;
const SPRITE = 8;
const DOT = TILE_PX / SPRITE;
/** Where the plot's centre sits on the card: right of the name panel. */
const FOCUS = { x: 840, y: 290 };

/** The name panel (bottom left) and the framed avatar inside it; exported for tests that look at the pixels. */
export const PANEL = { x: 40, y: 382, width: 620, height: 208 } as const;
export const AVATAR_FRAME = { x: PANEL.x + 24, y: PANEL.y + 24, size: 160, border: 8 } as const;
/** Where the name goes: right of the avatar, inside the panel's border, above the tier line. */
export const NAME_BOX = {
  x: AVATAR_FRAME.x + AVATAR_FRAME.size + 32,
  y: PANEL.y + 22,
  width: PANEL.x + PANEL.width - 24 - (AVATAR_FRAME.x + AVATAR_FRAME.size + 32),
  height: 70,
} as const;
/** The name's size when it fits on one line; it shrinks to fit, down to NAME_MIN_PX, then wraps onto two lines. */
const NAME_MAX_PX = 46;
const NAME_MIN_PX = 30;
/** A Pango font list: DejaVu and Liberation where installed, and Pango's fallback for scripts and emoji they lack. */
const NAME_FONT = 'DejaVu Sans,Liberation Sans,Arial Bold';

export interface CardPlot {
  id: string;
  display_name: string;
  tier: string;
  x: number;
  y: number;
  region_name?: string | null;
}

export interface CardTile {
  x: number;
  y: number;
  zone_value: number;
  is_land: boolean;
}

export interface ShareCardInput {
  plot: CardPlot;
  /** The plot's stored avatar (a small PNG), or null to draw its initials' field only. */
  avatarPng: Buffer | null;
  /** Other public plots: those in view are drawn with their tier frames. */
  neighbours: Array<Pick<CardPlot, 'id' | 'tier' | 'x' | 'y'>>;
  /** The map's tiles, or null when no map exists (the card shows open sea). */
  tiles: CardTile[] | null;
  siteName: string;
  /** e.g. atlas.example.com, shown under the site name. */
  siteHost: string;
}

function hex(value: string): Rgb {
  const n = Number.parseInt(value.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** A small deterministic hash of a tile (and a salt): the same tile always gets the same trees and waves. */
function hash(x: number, y: number, salt: number): number {
  let h = (x * 374_761_393 + y * 668_265_263 + salt * 2_147_483_647) | 0;
  h = Math.imul(h ^ (h >>> 13), 1_274_126_177);
  return ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296;
}

class Canvas {
  readonly pixels = Buffer.alloc(CARD_WIDTH * CARD_HEIGHT * 3);

  fill(x0: number, y0: number, width: number, height: number, [r, g, b]: Rgb, alpha = 1): void {
    const xa = Math.max(0, Math.round(x0));
    const ya = Math.max(0, Math.round(y0));
    const xb = Math.min(CARD_WIDTH, Math.round(x0 + width));
    const yb = Math.min(CARD_HEIGHT, Math.round(y0 + height));
    for (let y = ya; y < yb; y++) {
      let i = (y * CARD_WIDTH + xa) * 3;
      for (let x = xa; x < xb; x++, i += 3) {
        if (alpha >= 1) {
          this.pixels[i] = r;
          this.pixels[i + 1] = g;
          this.pixels[i + 2] = b;
        } else {
          this.pixels[i] = Math.round(this.pixels[i]! * (1 - alpha) + r * alpha);
          this.pixels[i + 1] = Math.round(this.pixels[i + 1]! * (1 - alpha) + g * alpha);
          this.pixels[i + 2] = Math.round(this.pixels[i + 2]! * (1 - alpha) + b * alpha);
        }
      }
    }
  }

  /** A ring of `width` around the rectangle (outside it). */
  ring(x: number, y: number, w: number, h: number, width: number, colour: Rgb, alpha = 1): void {
    this.fill(x - width, y - width, w + 2 * width, width, colour, alpha);
    this.fill(x - width, y + h, w + 2 * width, width, colour, alpha);
    this.fill(x - width, y, width, h, colour, alpha);
    this.fill(x + w, y, width, h, colour, alpha);
  }
}

type TileKind = 'void' | 'deep' | 'water' | 'shallows' | 'sand' | 'grass' | 'forest' | 'hill';

class TerrainMap {
  private readonly byIndex: Array<CardTile | undefined> = [];

  constructor(tiles: CardTile[] | null) {
    for (const tile of tiles ?? [])
      if (tile.x >= 0 && tile.y >= 0 && tile.x < GRID_SIZE && tile.y < GRID_SIZE) this.byIndex[tile.y * GRID_SIZE + tile.x] = tile;
  }

  tile(x: number, y: number): CardTile | undefined {
    return x < 0 || y < 0 || x >= GRID_SIZE || y >= GRID_SIZE ? undefined : this.byIndex[y * GRID_SIZE + x];
  }

  isLand(x: number, y: number): boolean {
    return this.tile(x, y)?.is_land ?? false;
  }

  private landWithin(x: number, y: number, radius: number): boolean {
    for (let dy = -radius; dy <= radius; dy++) for (let dx = -radius; dx <= radius; dx++) if (this.isLand(x + dx, y + dy)) return true;
    return false;
  }

  kind(x: number, y: number): TileKind {
    if (x < 0 || y < 0 || x >= GRID_SIZE || y >= GRID_SIZE) return 'void';
    const tile = this.tile(x, y);
    if (!tile?.is_land) return this.landWithin(x, y, 1) ? 'shallows' : this.landWithin(x, y, 3) ? 'water' : 'deep';
    const coast = !this.isLand(x - 1, y) || !this.isLand(x + 1, y) || !this.isLand(x, y - 1) || !this.isLand(x, y + 1);
    if (coast) return 'sand';
    const palette = regionPalette(tile.zone_value);
    const roll = hash(x, y, 1);
    if (roll < palette.forestShare) return 'forest';
    if (roll < palette.forestShare + palette.hillShare) return 'hill';
    return 'grass';
  }
}

/** One tile as an 8x8 pixel sprite in the map's colours (water waves, sand speckles, trees, hills, region borders). */
function paintTile(canvas: Canvas, terrain: TerrainMap, tx: number, ty: number, left: number, top: number): void {
  const kind = terrain.kind(tx, ty);
  const dot = (sx: number, sy: number, colour: Rgb) => canvas.fill(left + sx * DOT, top + sy * DOT, DOT, DOT, colour);
  if (kind === 'void') return canvas.fill(left, top, TILE_PX, TILE_PX, hex(SEA.abyss));
  if (kind === 'deep' || kind === 'water' || kind === 'shallows') {
    canvas.fill(left, top, TILE_PX, TILE_PX, kind === 'deep' ? SEA.deep : kind === 'water' ? SEA.water : SEA.shallows);
    // A short wave on about half the tiles, as on the map.
    if (hash(tx, ty, 2) < 0.55) {
      const sx = Math.floor(hash(tx, ty, 3) * 5);
      const sy = 1 + Math.floor(hash(tx, ty, 4) * 6);
      for (let i = 0; i < 3; i++) dot(sx + i, sy - (i === 1 ? 1 : 0), SEA.wave);
    }
    return;
  }
  const palette = regionPalette(terrain.tile(tx, ty)!.zone_value);
  const base = kind === 'sand' ? SEA.sand : kind === 'forest' ? palette.forest : kind === 'hill' ? palette.hill : palette.grass;
  canvas.fill(left, top, TILE_PX, TILE_PX, base);
  if (kind === 'sand' || kind === 'grass') {
    const speck = kind === 'sand' ? SEA.sandDark : palette.grassDark;
    for (let i = 0; i < 4; i++) dot(Math.floor(hash(tx, ty, 10 + i) * SPRITE), Math.floor(hash(tx, ty, 20 + i) * SPRITE), speck);
  } else if (kind === 'forest') {
    // Two little trees: a light crown over a dark trunk.
    for (const [cx, cy] of [
      [1, 1],
      [4, 3],
    ] as const) {
      dot(cx + 1, cy, palette.forestLight);
      dot(cx, cy + 1, palette.forestLight);
      dot(cx + 1, cy + 1, palette.forestLight);
      dot(cx + 2, cy + 1, palette.forestLight);
      dot(cx + 1, cy + 2, shade(palette.forest, -0.35));
    }
  } else {
    // A hill: a lit slope and a shaded one.
    for (let row = 0; row < 4; row++) {
      for (let col = 3 - row; col <= 4 + row; col++) dot(col, 3 + row, col <= 3 ? palette.hill : palette.hillShade);
    }
  }
  // Region borders read at a glance: ink where the next land tile belongs to another region.
  const region = terrain.tile(tx, ty)!.zone_value;
  const other = (x: number, y: number) => terrain.isLand(x, y) && terrain.tile(x, y)!.zone_value !== region;
  const ink = (x: number, y: number, w: number, h: number) => canvas.fill(x, y, w, h, BORDER_INK, 0.7);
  if (other(tx, ty - 1)) ink(left, top, TILE_PX, 2);
  if (other(tx - 1, ty)) ink(left, top, 2, TILE_PX);
}

function tierRgb(tier: Tier): Rgb {
  return hex(TIER_COLOR[tier].hex);
}

/** A plot as the map draws it: a glow growing with the tier, the tier-coloured frame, a deep field inside. */
function paintPlotFrame(canvas: Canvas, tier: Tier, left: number, top: number, side: number): void {
  const colour = tierRgb(tier);
  const glow = 3 + TIER_SIZE[tier] * 2;
  canvas.ring(left, top, side, side, glow, colour, 0.28);
  canvas.ring(left, top, side, side, Math.ceil(glow / 2), colour, 0.3);
  canvas.fill(left, top, side, side, shade(colour, -0.55));
  canvas.ring(left + 4, top + 4, side - 8, side - 8, 4, colour);
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0]![0]! + words[1]![0]! : name.trim().slice(0, 2)).toUpperCase();
}

/** Renders the name with Pango (the text laid out and measured, in any script the fonts cover) as an RGBA PNG. */
async function renderNameText(name: string, box?: { width: number; height: number }, px = NAME_MAX_PX) {
  const text = `<span foreground="#ffffff">${escapeHtml(name)}</span>`;
  // At 72 dpi a point is a pixel; with a box Pango picks the largest size that fits it, wrapping between characters.
  const options = box
    ? { text, font: NAME_FONT, width: box.width, height: box.height, wrap: 'word-char' as const, rgba: true }
    : { text, font: `${NAME_FONT} ${px}`, dpi: 72, rgba: true };
  return sharp({ text: options }).png().toBuffer({ resolveWithObject: true });
}

/**
 * The name fitted to NAME_BOX, measured rather than guessed from its length (a W is three times an i, a CJK character
 * twice a Latin one): at NAME_MAX_PX on one line if it fits, else as large as fits on one line down to NAME_MIN_PX, else
 * on two lines as large as fits the box. Bottom-aligned in the box, so it sits on the tier line whatever its size.
 */
export async function nameLayer(name: string): Promise<OverlayOptions & { width: number; height: number }> {
  let rendered = await renderNameText(name);
  if (rendered.info.width > NAME_BOX.width) {
    const px = Math.floor((NAME_MAX_PX * NAME_BOX.width) / rendered.info.width);
    rendered = px >= NAME_MIN_PX ? await renderNameText(name, undefined, px) : await renderNameText(name, NAME_BOX);
    // Glyph metrics do not scale exactly with the size: a last pass into the box if the estimate came out too wide.
    if (rendered.info.width > NAME_BOX.width || rendered.info.height > NAME_BOX.height) rendered = await renderNameText(name, NAME_BOX);
  }
  const { width, height } = rendered.info;
  return { input: rendered.data, left: NAME_BOX.x, top: NAME_BOX.y + Math.max(0, NAME_BOX.height - height), width, height };
}

function textOverlay(input: ShareCardInput, tier: Tier): Buffer {
  const { plot } = input;
  const name = plot.display_name;
  const textX = NAME_BOX.x;
  const where = `(${plot.x}, ${plot.y})${plot.region_name ? ` · ${plot.region_name}` : ''}`;
  // User text is escaped into the SVG as character data (never markup), and the font stack is a plain list.
  const font = `font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"`;
  const field =
    input.avatarPng === null
      ? `<text x="${AVATAR_FRAME.x + AVATAR_FRAME.size / 2}" y="${AVATAR_FRAME.y + AVATAR_FRAME.size / 2 + 22}" text-anchor="middle" ${font} font-weight="bold" font-size="64" fill="${TIER_COLOR[tier].hex}">${escapeHtml(initials(name))}</text>`
      : '';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">` +
      field +
      `<text x="${textX}" y="${PANEL.y + 120}" ${font} font-weight="bold" font-size="26" fill="${TIER_COLOR[tier].hex}">${escapeHtml(tierPlotLabel(tier))}</text>` +
      `<text x="${textX}" y="${PANEL.y + 154}" ${font} font-size="22" fill="#d8d4e8">${escapeHtml(where)}</text>` +
      `<text x="${textX}" y="${PANEL.y + 186}" ${font} font-size="18" fill="#a8a2c0">${escapeHtml(`${input.siteName} · ${input.siteHost}`)}</text>` +
      `</svg>`,
  );
}

/**
 * The top-left tile of the view: the plot's centre at FOCUS, the view then moved inside the world where it can be
 * (no sea of nothing beyond the edge) as long as the plot stays clear of the name panel.
 */
function viewOrigin(x: number, y: number, size: number): { originX: number; originY: number } {
  const focusX = x + size / 2 - FOCUS.x / TILE_PX;
  const focusY = y + size / 2 - FOCUS.y / TILE_PX;
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), Math.max(max, 0));
  const originX = clamp(focusX, GRID_SIZE - CARD_WIDTH / TILE_PX);
  const originY = clamp(focusY, GRID_SIZE - CARD_HEIGHT / TILE_PX);
  const left = (x - originX) * TILE_PX;
  const top = (y - originY) * TILE_PX;
  const margin = 24;
  const underPanel =
    left < PANEL.x + PANEL.width + margin && left + size * TILE_PX > PANEL.x - margin && top + size * TILE_PX > PANEL.y - margin;
  return underPanel ? { originX: focusX, originY: focusY } : { originX, originY };
}

/**
 * The share card of a plot: a 1200x630 PNG of its neighbourhood on the map in the map's pixel style (terrain
 * sprites in the shared palette, region borders, every plot in view with its tier frame and glow), the plot itself
 * with its avatar, and a panel with its avatar in a tier-coloured frame, name, tier and place. Pure: same input,
 * same bytes. CPU-bound (about 30-60 ms): callers bound how many run at once.
 */
export async function renderShareCard(input: ShareCardInput): Promise<Buffer> {
  const canvas = new Canvas();
  const terrain = new TerrainMap(input.tiles);
  const tier = normalizeTier(input.plot.tier);
  const size = TIER_SIZE[tier];
  const { originX, originY } = viewOrigin(input.plot.x, input.plot.y, size);
  const toPx = (tx: number, ty: number) => ({ left: Math.round((tx - originX) * TILE_PX), top: Math.round((ty - originY) * TILE_PX) });

  for (let ty = Math.floor(originY); ty < originY + CARD_HEIGHT / TILE_PX; ty++) {
    for (let tx = Math.floor(originX); tx < originX + CARD_WIDTH / TILE_PX; tx++) {
      const { left, top } = toPx(tx, ty);
      paintTile(canvas, terrain, tx, ty, left, top);
    }
  }
  const inView = (x: number, y: number, side: number) =>
    x + side > originX - 1 && y + side > originY - 1 && x < originX + CARD_WIDTH / TILE_PX + 1 && y < originY + CARD_HEIGHT / TILE_PX + 1;
  for (const other of input.neighbours) {
    const otherTier = normalizeTier(other.tier);
    if (other.id === input.plot.id || !inView(other.x, other.y, TIER_SIZE[otherTier])) continue;
    const { left, top } = toPx(other.x, other.y);
    paintPlotFrame(canvas, otherTier, left, top, TIER_SIZE[otherTier] * TILE_PX);
  }
  const spot = toPx(input.plot.x, input.plot.y);
  const side = size * TILE_PX;
  // The plot itself stands out: a white outline around its glow.
  canvas.ring(spot.left - 12, spot.top - 12, side + 24, side + 24, 3, [255, 255, 255]);
  paintPlotFrame(canvas, tier, spot.left, spot.top, side);

  // The name panel: chunky border, hard shadow (the site's chrome), the avatar in its tier frame.
  canvas.fill(PANEL.x + 10, PANEL.y + 10, PANEL.width, PANEL.height, [0, 0, 0]);
  canvas.fill(PANEL.x, PANEL.y, PANEL.width, PANEL.height, [27, 21, 48]);
  canvas.ring(PANEL.x + 4, PANEL.y + 4, PANEL.width - 8, PANEL.height - 8, 4, [0, 0, 0]);
  const frame = AVATAR_FRAME;
  canvas.fill(frame.x, frame.y, frame.size, frame.size, tierRgb(tier));
  const inner = frame.size - 2 * frame.border;
  canvas.fill(frame.x + frame.border, frame.y + frame.border, inner, inner, shade(tierRgb(tier), -0.55));

  const layers: OverlayOptions[] = [];
  if (input.avatarPng) {
    const avatar = (size: number) =>
      sharp(input.avatarPng!, { limitInputPixels: 1024 * 1024 })
        .resize(size, size, { kernel: 'nearest', fit: 'cover' })
        .png()
        .toBuffer();
    layers.push({ input: await avatar(inner), left: frame.x + frame.border, top: frame.y + frame.border });
    const onMap = side - 16;
    if (spot.left + 8 >= 0 && spot.top + 8 >= 0 && spot.left + 8 + onMap <= CARD_WIDTH && spot.top + 8 + onMap <= CARD_HEIGHT) {
      layers.push({ input: await avatar(onMap), left: spot.left + 8, top: spot.top + 8 });
    }
  }
  const { input: name, left, top } = await nameLayer(input.plot.display_name);
  layers.push({ input: name, left, top });
  layers.push({ input: textOverlay(input, tier), left: 0, top: 0 });
  return sharp(canvas.pixels, { raw: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 3 } })
    .composite(layers)
    .png({ compressionLevel: 6, palette: false })
    .toBuffer();
}
