import { describe, expect, it } from 'vitest';
import { createLandMask, createRegionIndex, footprintIsLand, regionAt } from './land-mask.ts';

// 5x5 world: land everywhere except a water column at x = 3 and the tile (0, 4).
const tiles = Array.from({ length: 25 }, (_, index) => {
  const x = index % 5;
  const y = Math.floor(index / 5);
  return { x, y, is_land: x !== 3 && !(x === 0 && y === 4) };
});
const mask = createLandMask(tiles, 5);

describe('footprintIsLand', () => {
  it('accepts squares made only of land', () => {
    expect(footprintIsLand(mask, { x: 0, y: 0, size: 3 })).toBe(true);
    expect(footprintIsLand(mask, { x: 4, y: 2, size: 1 })).toBe(true);
  });

  it('refuses a square with any water tile in it', () => {
    expect(footprintIsLand(mask, { x: 2, y: 0, size: 2 })).toBe(false);
    expect(footprintIsLand(mask, { x: 0, y: 3, size: 2 })).toBe(false);
    expect(footprintIsLand(mask, { x: 3, y: 1, size: 1 })).toBe(false);
  });

  it('refuses squares reaching outside the grid, and malformed footprints', () => {
    expect(footprintIsLand(mask, { x: 4, y: 0, size: 2 })).toBe(false);
    expect(footprintIsLand(mask, { x: -1, y: 0, size: 1 })).toBe(false);
    expect(footprintIsLand(mask, { x: 0, y: 0, size: 0 })).toBe(false);
    expect(footprintIsLand(mask, { x: 0.5, y: 0, size: 1 })).toBe(false);
  });

  it('treats tiles missing from the list as water', () => {
    const sparse = createLandMask([{ x: 1, y: 1, is_land: true }], 5);
    expect(footprintIsLand(sparse, { x: 1, y: 1, size: 1 })).toBe(true);
    expect(footprintIsLand(sparse, { x: 0, y: 0, size: 2 })).toBe(false);
  });
});

describe('regionAt', () => {
  // Left two columns are Knowledge Knolls, the rest Pixel Plains, water as above.
  const named = tiles.map((t) => ({ ...t, zone_name: t.is_land ? (t.x < 2 ? 'Knowledge Knolls' : 'Pixel Plains') : 'Water' }));
  const regions = createRegionIndex(named, 5);

  it('names the region of a land tile', () => {
    expect(regionAt(regions, 0, 0)).toBe('Knowledge Knolls');
    expect(regionAt(regions, 1, 3)).toBe('Knowledge Knolls');
    expect(regionAt(regions, 2, 0)).toBe('Pixel Plains');
    expect(regionAt(regions, 4, 4)).toBe('Pixel Plains');
    expect(regions.names).toEqual(['Knowledge Knolls', 'Pixel Plains']);
  });

  it('has no region on water, outside the grid or for malformed positions', () => {
    expect(regionAt(regions, 3, 1)).toBeNull();
    expect(regionAt(regions, 0, 4)).toBeNull();
    expect(regionAt(regions, 5, 0)).toBeNull();
    expect(regionAt(regions, -1, 0)).toBeNull();
    expect(regionAt(regions, 0.5, 0)).toBeNull();
  });
});
