import { assert, describe, expect, it } from 'vitest';
import { LANDMARK_SPRITES } from './landmark-sprites.ts';
import { classifyTerrain } from './terrain-classify.ts';
import { rasterizeTerrain, TERRAIN_TILE_PX } from './terrain-raster.ts';

const size = 8;
const tiles = Array.from({ length: size * size }, (_, index) => {
  const x = index % size;
  const y = Math.floor(index / size);
  const land = x >= 2 && x < 6 && y >= 2 && y < 6;
  return { x, y, zone_value: land ? (x < 4 ? 3 : 7) : 0, is_land: land };
});
const grid = classifyTerrain(tiles, size);

function pixel(pixels: Uint8ClampedArray, widthPx: number, x: number, y: number): [number, number, number, number] {
  const at = (y * widthPx + x) * 4;
  const [r, g, b, a] = pixels.subarray(at, at + 4);
  assert(r !== undefined && g !== undefined && b !== undefined && a !== undefined, `pixel ${x},${y} lies outside the raster`);
  return [r, g, b, a];
}

describe('terrain rasterizer', () => {
  const area = { x0: 0, y0: 0, x1: size, y1: size };
  const pixels = rasterizeTerrain(grid, area);
  const widthPx = size * TERRAIN_TILE_PX;

  it('paints every pixel of the area, opaque, 16 px per tile', () => {
    expect(pixels.length).toBe(widthPx * widthPx * 4);
    for (let at = 3; at < pixels.length; at += 4) expect(pixels[at]).toBe(255);
  });

  it('paints water blue and land not blue', () => {
    const [r, g, b] = pixel(pixels, widthPx, 4, 4);
    expect(b).toBeGreaterThan(r + 40);
    expect(b).toBeGreaterThan(g);
    // Centre pixel of a coastal land tile is sand or grass: red and green dominate.
    const [lr, lg, lb] = pixel(pixels, widthPx, 2 * 16 + 8, 2 * 16 + 8);
    expect(lr + lg).toBeGreaterThan(lb * 2);
  });

  it('renders a sub-area identically to the same tiles of the whole', () => {
    const part = rasterizeTerrain(grid, { x0: 2, y0: 2, x1: 4, y1: 4 });
    const partWidth = 2 * TERRAIN_TILE_PX;
    for (const [x, y] of [
      [0, 0],
      [5, 9],
      [31, 31],
    ] as const) {
      expect(pixel(part, partWidth, x, y)).toEqual(pixel(pixels, widthPx, 32 + x, 32 + y));
    }
  });

  it('has landmark sprites that fit a tile and use only known colour keys', () => {
    for (const rows of Object.values(LANDMARK_SPRITES)) {
      expect(rows.length).toBeLessThanOrEqual(TERRAIN_TILE_PX - 1);
      for (const row of rows) {
        expect(row.length).toBe(TERRAIN_TILE_PX);
        expect(row).toMatch(/^[.osSrRawdbBcCgxA]+$/);
      }
    }
  });
});
