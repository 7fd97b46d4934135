import { LANDMARK_SPRITES } from './landmark-sprites.ts';
import { random2 } from './pixel-hash.ts';
import { SIDE, TERRAIN, type TerrainGrid } from './terrain-classify.ts';
import { BORDER_INK, SEA, regionPalette, shade, type RegionPalette, type Rgb } from '@pixel-atlas/contracts/terrain-palette';

/** Fixed base resolution of the pre-rendered terrain: every tile is a 16x16 pixel-art sprite. */
export const TERRAIN_TILE_PX = 16;

export interface TileArea {
  x0: number;
  y0: number;
  /** Exclusive. */
  x1: number;
  y1: number;
}

/**
 * 9x9 tiles = 144x144 px per chunk at the base resolution: 100 chunks for the 90x90 world. Rasterising one is
 * per-pixel JS, and the first ones run before the JIT has warmed up; at this size even a cold chunk is a short task
 * on a slow phone, where the main thread rasterises (no worker): first paint and idle time build them one task slice
 * at a time (30x30 chunks were 55-60 ms each with 4x CPU throttling; a cold 15x15 chunk still made a 50 ms task).
 */
export const CHUNK_TILES = 9;

export function terrainChunksPerSide(gridSize: number): number {
  return Math.ceil(gridSize / CHUNK_TILES);
}

/** The tiles of chunk `slot` (row-major, terrainChunksPerSide per row), clamped to the grid, and its size in pixels. */
export function terrainChunkArea(gridSize: number, slot: number): TileArea & { widthPx: number; heightPx: number } {
  const perSide = terrainChunksPerSide(gridSize);
  const cx = slot % perSide;
  const cy = Math.floor(slot / perSide);
  const x0 = cx * CHUNK_TILES;
  const y0 = cy * CHUNK_TILES;
  const x1 = Math.min(gridSize, x0 + CHUNK_TILES);
  const y1 = Math.min(gridSize, y0 + CHUNK_TILES);
  return { x0, y0, x1, y1, widthPx: (x1 - x0) * TERRAIN_TILE_PX, heightPx: (y1 - y0) * TERRAIN_TILE_PX };
}

const FIXED_COLOURS: Record<string, Rgb> = {
  o: [44, 34, 44],
  s: [206, 200, 188],
  S: [150, 144, 140],
  r: [190, 62, 52],
  R: [140, 42, 42],
  w: [255, 226, 120],
  d: [74, 48, 32],
  b: [156, 104, 58],
  B: [112, 72, 40],
  c: [238, 228, 204],
  C: [192, 178, 150],
  g: [255, 166, 46],
  x: [248, 248, 244],
};

/**
 * Paints the tiles of `area` as RGBA pixels (row-major, TERRAIN_TILE_PX per tile). Pure: no canvas,
 * so it runs in tests and in the terrain worker (terrain-worker-core.ts); the main-thread path uploads it with putImageData.
 */
export function rasterizeTerrain(grid: TerrainGrid, area: TileArea): Uint8ClampedArray<ArrayBuffer> {
  const widthPx = (area.x1 - area.x0) * TERRAIN_TILE_PX;
  const heightPx = (area.y1 - area.y0) * TERRAIN_TILE_PX;
  const pixels = new Uint8ClampedArray(widthPx * heightPx * 4);
  const painter = new TilePainter(pixels, widthPx);
  for (let ty = area.y0; ty < area.y1; ty++) {
    for (let tx = area.x0; tx < area.x1; tx++) {
      painter.moveTo((tx - area.x0) * TERRAIN_TILE_PX, (ty - area.y0) * TERRAIN_TILE_PX, tx, ty);
      paintTile(grid, tx, ty, painter);
    }
  }
  return pixels;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Paints one 16x16 tile at a time into the chunk's pixels. One painter per chunk, moved from tile to tile, and
 * whole-tile fills as 32-bit words: this runs while the page loads (on the main thread without a worker), before the
 * JIT has warmed up, so a closure object per tile and per-pixel destructuring cost more than the painting.
 */
class TilePainter {
  /** World tile coordinates, used to seed per-pixel variation. */
  tx = 0;
  ty = 0;
  /** Pixel index (not byte) of the tile's top-left corner. */
  private origin = 0;
  private readonly words: Uint32Array | null;

  constructor(
    private readonly pixels: Uint8ClampedArray,
    private readonly stridePx: number,
  ) {
    this.words = LITTLE_ENDIAN ? new Uint32Array(pixels.buffer, pixels.byteOffset, pixels.length / 4) : null;
  }

  moveTo(originX: number, originY: number, tx: number, ty: number): void {
    this.origin = originY * this.stridePx + originX;
    this.tx = tx;
    this.ty = ty;
  }

  set(x: number, y: number, colour: Rgb): void {
    if (x < 0 || y < 0 || x >= TERRAIN_TILE_PX || y >= TERRAIN_TILE_PX) return;
    const at = (this.origin + y * this.stridePx + x) * 4;
    this.pixels[at] = colour[0];
    this.pixels[at + 1] = colour[1];
    this.pixels[at + 2] = colour[2];
    this.pixels[at + 3] = 255;
  }

  blend(x: number, y: number, colour: Rgb, amount: number): void {
    if (x < 0 || y < 0 || x >= TERRAIN_TILE_PX || y >= TERRAIN_TILE_PX) return;
    const at = (this.origin + y * this.stridePx + x) * 4;
    const pixels = this.pixels;
    // `at` is inside the tile (checked above), and the tile inside the chunk's pixels.
    pixels[at]! += (colour[0] - pixels[at]!) * amount;
    pixels[at + 1]! += (colour[1] - pixels[at + 1]!) * amount;
    pixels[at + 2]! += (colour[2] - pixels[at + 2]!) * amount;
  }

  fill(colour: Rgb): void {
    if (!this.words) {
      for (let y = 0; y < TERRAIN_TILE_PX; y++) for (let x = 0; x < TERRAIN_TILE_PX; x++) this.set(x, y, colour);
      return;
    }
    // RGBA bytes in memory order are one little-endian word A<<24 | B<<16 | G<<8 | R.
    const word = ((255 << 24) | (colour[2] << 16) | (colour[1] << 8) | colour[0]) >>> 0;
    for (let y = 0; y < TERRAIN_TILE_PX; y++) {
      const start = this.origin + y * this.stridePx;
      this.words.fill(word, start, start + TERRAIN_TILE_PX);
    }
  }
}

function paintTile(grid: TerrainGrid, tx: number, ty: number, painter: TilePainter): void {
  const index = ty * grid.size + tx;
  // The painted area lies inside the grid (the renderer clamps every chunk to it).
  const kind = grid.kind[index]!;
  const edges = grid.edges[index]!;
  if (kind === TERRAIN.deepWater || kind === TERRAIN.water || kind === TERRAIN.shallows) {
    paintWater(painter, kind, edges);
    return;
  }
  const palette = regionPalette(grid.region[index]!);
  if (kind === TERRAIN.sand) paintSand(painter, palette);
  else paintGrass(painter, palette, kind === TERRAIN.forest ? 0.04 : 0);
  if (kind === TERRAIN.forest) paintForest(painter, palette);
  if (kind === TERRAIN.hills) paintHills(painter, palette);
  if (kind === TERRAIN.landmark) paintSprite(painter, LANDMARK_SPRITES[palette.landmark], palette);
  paintRegionBorder(painter, edges);
}

const SPECK: Rgb = [0, 0, 0];

function paintWater(painter: TilePainter, kind: number, shoreSides: number): void {
  const base = kind === TERRAIN.deepWater ? SEA.deep : kind === TERRAIN.water ? SEA.water : SEA.shallows;
  const wave = kind === TERRAIN.deepWater ? shade(SEA.deep, 0.18) : SEA.wave;
  painter.fill(base);
  // Sparse darker specks break up flat colour; world-space pixel coordinates keep tiles seamless.
  for (let y = 0; y < TERRAIN_TILE_PX; y++) {
    for (let x = 0; x < TERRAIN_TILE_PX; x++) {
      if (random2(painter.tx * 16 + x, painter.ty * 16 + y, 3) < 0.06) painter.blend(x, y, SPECK, 0.12);
    }
  }
  // Little "~" wave marks, fewer out in the deep.
  const waves = kind === TERRAIN.deepWater ? 1 : 2;
  for (let n = 0; n < waves; n++) {
    const wx = Math.floor(random2(painter.tx, painter.ty, 11 + n) * 11);
    const wy = 2 + n * 7 + Math.floor(random2(painter.tx, painter.ty, 13 + n) * 4);
    painter.set(wx, wy + 1, wave);
    painter.set(wx + 1, wy, wave);
    painter.set(wx + 2, wy, wave);
    painter.set(wx + 3, wy + 1, wave);
    painter.set(wx + 4, wy + 1, wave);
    painter.set(wx + 5, wy, wave);
  }
  if (shoreSides) paintFoam(painter, shoreSides);
}

function paintFoam(painter: TilePainter, sides: number): void {
  for (let i = 0; i < TERRAIN_TILE_PX; i++) {
    const broken = random2(painter.tx * 16 + i, painter.ty, 17) < 0.3;
    const second = random2(painter.tx, painter.ty * 16 + i, 19) < 0.35;
    if (sides & SIDE.north) {
      if (!broken) painter.set(i, 0, SEA.foam);
      if (second) painter.blend(i, 1, SEA.foam, 0.6);
    }
    if (sides & SIDE.south) {
      if (!broken) painter.set(i, 15, SEA.foam);
      if (second) painter.blend(i, 14, SEA.foam, 0.6);
    }
    if (sides & SIDE.west) {
      if (!broken) painter.set(0, i, SEA.foam);
      if (second) painter.blend(1, i, SEA.foam, 0.6);
    }
    if (sides & SIDE.east) {
      if (!broken) painter.set(15, i, SEA.foam);
      if (second) painter.blend(14, i, SEA.foam, 0.6);
    }
  }
}

function paintSand(painter: TilePainter, palette: RegionPalette): void {
  // Sand picks up a hint of the region's colour so coasts still say whose shore they are.
  const sand = mix(SEA.sand, palette.grass, 0.12);
  const sandLight = shade(sand, 0.3);
  painter.fill(sand);
  for (let y = 0; y < TERRAIN_TILE_PX; y++) {
    for (let x = 0; x < TERRAIN_TILE_PX; x++) {
      const r = random2(painter.tx * 16 + x, painter.ty * 16 + y, 5);
      if (r < 0.08) painter.set(x, y, SEA.sandDark);
      else if (r > 0.96) painter.set(x, y, sandLight);
    }
  }
}

function paintGrass(painter: TilePainter, palette: RegionPalette, darken: number): void {
  const base = darken ? shade(palette.grass, -darken) : palette.grass;
  const baseLight = shade(base, 0.12);
  painter.fill(base);
  for (let y = 0; y < TERRAIN_TILE_PX; y++) {
    for (let x = 0; x < TERRAIN_TILE_PX; x++) {
      const r = random2(painter.tx * 16 + x, painter.ty * 16 + y, 7);
      if (r < 0.1) painter.set(x, y, palette.grassDark);
      else if (r > 0.95) painter.set(x, y, baseLight);
    }
  }
  // Grass tufts and the odd flower in the region's accent colour.
  for (let n = 0; n < 3; n++) {
    const x = 1 + Math.floor(random2(painter.tx, painter.ty, 23 + n) * 13);
    const y = 2 + Math.floor(random2(painter.tx, painter.ty, 29 + n) * 12);
    painter.set(x, y, palette.grassDark);
    painter.set(x + 1, y - 1, palette.grassDark);
    painter.set(x + 2, y, palette.grassDark);
  }
  if (random2(painter.tx, painter.ty, 37) < 0.35) {
    const x = 2 + Math.floor(random2(painter.tx, painter.ty, 41) * 12);
    const y = 2 + Math.floor(random2(painter.tx, painter.ty, 43) * 12);
    painter.set(x, y, palette.accent);
  }
}

function paintForest(painter: TilePainter, palette: RegionPalette): void {
  const trunk: Rgb = [92, 60, 36];
  const outline = shade(palette.forest, -0.45);
  const spots: ReadonlyArray<readonly [x: number, y: number]> = [
    [4, 5],
    [11, 4],
    [7, 11],
    [13, 12],
  ];
  for (const [index, [cx0, cy0]] of spots.entries()) {
    if (index === 3 && random2(painter.tx, painter.ty, 47) < 0.5) continue;
    const cx = cx0 + Math.floor(random2(painter.tx, painter.ty, 53 + index) * 3) - 1;
    const cy = cy0 + Math.floor(random2(painter.tx, painter.ty, 59 + index) * 3) - 1;
    painter.set(cx, cy + 3, trunk);
    painter.set(cx, cy + 4, trunk);
    for (let dy = -3; dy <= 2; dy++) {
      for (let dx = -3; dx <= 3; dx++) {
        const d = dx * dx + dy * dy;
        if (d > 10) continue;
        const colour = d > 7 ? outline : dx + dy < -2 ? palette.forestLight : palette.forest;
        painter.set(cx + dx, cy + dy, colour);
      }
    }
  }
}

function paintHills(painter: TilePainter, palette: RegionPalette): void {
  const outline = shade(palette.hillShade, -0.3);
  const jitter = (salt: number, span: number) => Math.floor(random2(painter.tx, painter.ty, salt) * span);
  // One big mound or two small ones, nudged and sized per tile so a range of hills never looks stamped.
  const mounds: ReadonlyArray<readonly [cx: number, baseY: number, rx: number, ry: number]> =
    random2(painter.tx, painter.ty, 61) < 0.5
      ? [[6 + jitter(62, 4), 13 + jitter(63, 2), 5 + jitter(64, 3), 5 + jitter(65, 3)]]
      : [
          [4 + jitter(66, 3), 12 + jitter(67, 3), 3 + jitter(68, 2), 3 + jitter(69, 3)],
          [10 + jitter(70, 3), 13 + jitter(71, 2), 4 + jitter(72, 2), 5 + jitter(73, 3)],
        ];
  for (const [cx, baseY, rx, ry] of mounds) {
    for (let y = baseY - ry; y <= baseY; y++) {
      for (let x = cx - rx; x <= cx + rx; x++) {
        const nx = (x - cx) / rx;
        const ny = (y - baseY) / ry;
        const d = nx * nx + ny * ny;
        if (d > 1) continue;
        const colour =
          d > 0.78 ? outline : nx > 0.25 ? palette.hillShade : nx < -0.3 && ny < -0.4 ? shade(palette.hill, 0.25) : palette.hill;
        painter.set(x, y, colour);
      }
    }
  }
}

function paintSprite(painter: TilePainter, rows: readonly string[], palette: RegionPalette): void {
  const accentShade = shade(palette.accent, -0.3);
  const top = TERRAIN_TILE_PX - 1 - rows.length;
  rows.forEach((row, y) => {
    for (let x = 0; x < Math.min(row.length, TERRAIN_TILE_PX); x++) {
      const key = row.charAt(x);
      if (key === '.') continue;
      const colour = key === 'a' ? palette.accent : key === 'A' ? accentShade : FIXED_COLOURS[key];
      if (colour) painter.set(x, top + y, colour);
    }
  });
}

/** A dashed dark line on each side that faces another region: borders read without hiding the art. */
function paintRegionBorder(painter: TilePainter, sides: number): void {
  if (!sides) return;
  for (let i = 0; i < TERRAIN_TILE_PX; i++) {
    if (i % 4 === 3) continue;
    if (sides & SIDE.north) painter.blend(i, 0, BORDER_INK, 0.55);
    if (sides & SIDE.south) painter.blend(i, 15, BORDER_INK, 0.55);
    if (sides & SIDE.west) painter.blend(0, i, BORDER_INK, 0.55);
    if (sides & SIDE.east) painter.blend(15, i, BORDER_INK, 0.55);
  }
}

function mix(a: Rgb, b: Rgb, amount: number): Rgb {
  return [Math.round(a[0] + (b[0] - a[0]) * amount), Math.round(a[1] + (b[1] - a[1]) * amount), Math.round(a[2] + (b[2] - a[2]) * amount)];
}
