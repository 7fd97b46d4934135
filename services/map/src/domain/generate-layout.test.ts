import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import { REGION_DEFINITIONS, regionSchema } from '@pixel-atlas/contracts/regions';
import { mapTileSchema } from '@pixel-atlas/contracts/map';
import { describe, expect, it } from 'vitest';
import { generateLayout, type GeneratedLayout } from './generate-layout.ts';
import { ISLAND_REGION_NAMES } from './island-regions.ts';
import { countDisjointSquares, isRegionContiguous } from './region-checks.ts';

const SEEDS = ['pixel-atlas', 'another-world', 'seed-42', 'zebra'];
const layouts = new Map<string, GeneratedLayout>();
function layoutFor(seed: string): GeneratedLayout {
  if (!layouts.has(seed)) layouts.set(seed, generateLayout({ seed }));
  return layouts.get(seed)!;
}
const zoneValues = (layout: GeneratedLayout) => layout.tiles.map((tile) => tile.zone_value);

describe('generateLayout', () => {
  it('is a pure function of the seed: same seed, byte-identical layout', () => {
    const first = JSON.stringify(generateLayout({ seed: 'determinism' }));
    const second = JSON.stringify(generateLayout({ seed: 'determinism' }));
    expect(second).toBe(first);
  });

  it('gives a different world for a different seed', () => {
    const a = layoutFor('pixel-atlas');
    const b = layoutFor('another-world');
    const differing = a.tiles.filter((tile, index) => tile.zone_value !== b.tiles[index]?.zone_value).length;
    expect(differing).toBeGreaterThan(GRID_SIZE * GRID_SIZE * 0.1);
  });

  it('returns GRID_SIZE² valid tiles in row-major order', () => {
    const { tiles } = layoutFor('pixel-atlas');
    expect(tiles).toHaveLength(GRID_SIZE * GRID_SIZE);
    tiles.forEach((tile, index) => {
      expect(tile.x).toBe(index % GRID_SIZE);
      expect(tile.y).toBe(Math.floor(index / GRID_SIZE));
    });
    expect(() => tiles.forEach((tile) => mapTileSchema.parse(tile))).not.toThrow();
  });

  it.each(SEEDS)('labels land with its region and water as Water (%s)', (seed) => {
    const { tiles, landTileCount } = layoutFor(seed);
    for (const tile of tiles) {
      if (tile.is_land) {
        const region = REGION_DEFINITIONS[tile.zone_value - 1];
        expect(region?.name).toBe(tile.zone_name);
      } else {
        expect(tile).toMatchObject({ zone_value: 0, zone_name: 'Water' });
      }
    }
    expect(tiles.filter((tile) => tile.is_land)).toHaveLength(landTileCount);
  });

  it.each(SEEDS)('has well over half the grid as land inside an ocean frame (%s)', (seed) => {
    const { tiles, landTileCount } = layoutFor(seed);
    const ratio = landTileCount / tiles.length;
    expect(ratio).toBeGreaterThanOrEqual(0.6);
    expect(ratio).toBeLessThanOrEqual(0.75);
    const onFrame = tiles.filter((tile) => Math.min(tile.x, tile.y, GRID_SIZE - 1 - tile.x, GRID_SIZE - 1 - tile.y) < 2);
    expect(onFrame.every((tile) => !tile.is_land)).toBe(true);
  });

  it.each(SEEDS)('has some inland water (lakes, straits or channels) besides the ocean (%s)', (seed) => {
    const { tiles } = layoutFor(seed);
    const inlandWater = tiles.filter(
      (tile) => !tile.is_land && Math.min(tile.x, tile.y, GRID_SIZE - 1 - tile.x, GRID_SIZE - 1 - tile.y) > 15,
    );
    expect(inlandWater.length).toBeGreaterThan(20);
  });

  it.each(SEEDS)('makes every region one 4-connected piece with room for at least three 4x4 plots (%s)', (seed) => {
    const owner = zoneValues(layoutFor(seed));
    for (const { value, name } of REGION_DEFINITIONS) {
      expect(isRegionContiguous(owner, GRID_SIZE, value), `${name} contiguous`).toBe(true);
      expect(countDisjointSquares(owner, GRID_SIZE, value, 4), `${name} 4x4 squares`).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(SEEDS)('cuts the island-themed regions off from their neighbours by water (%s)', (seed) => {
    const owner = zoneValues(layoutFor(seed));
    for (const name of ISLAND_REGION_NAMES) {
      const value = REGION_DEFINITIONS.find((region) => region.name === name)!.value;
      for (let index = 0; index < owner.length; index++) {
        if (owner[index] !== value) continue;
        const x = index % GRID_SIZE;
        const y = Math.floor(index / GRID_SIZE);
        for (const [dx, dy] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          const neighbour = owner[(y + dy) * GRID_SIZE + x + dx];
          expect(neighbour === 0 || neighbour === value, `${name} touches region ${neighbour} at ${x},${y}`).toBe(true);
        }
      }
    }
  });

  it.each(SEEDS)('returns the 13 regions with content and a label point on their own land (%s)', (seed) => {
    const { regions, tiles } = layoutFor(seed);
    expect(regions.map((region) => region.name)).toEqual(REGION_DEFINITIONS.map((region) => region.name));
    for (const region of regions) {
      expect(() => regionSchema.parse(region)).not.toThrow();
      const tile = tiles[region.focus.y * GRID_SIZE + region.focus.x];
      expect(tile?.is_land).toBe(true);
      expect(tile?.zone_value).toBe(region.value);
    }
  });

  it('keeps the spec geography: regions sit where the spec puts them, relative to each other', () => {
    const { regions } = layoutFor('pixel-atlas');
    const focusOf = (name: string) => regions.find((region) => region.name === name)!.focus;
    // Pixel Plains is the spec's north-east corner, Influencer Isles its south-west, Knowledge Knolls its north-west.
    expect(focusOf('Pixel Plains').x).toBeGreaterThan(focusOf('Knowledge Knolls').x + 40);
    expect(focusOf('Influencer Isles').y).toBeGreaterThan(focusOf('Knowledge Knolls').y + 40);
    expect(focusOf('Startup Steppes').x).toBeGreaterThan(focusOf('Tech Creator Core').x + 30);
    expect(focusOf('Explorer Expanse').y).toBeGreaterThan(focusOf('Wellness Wilds').y + 30);
  });

  it('generates a layout quickly (timing printed)', () => {
    generateLayout({ seed: 'warm-up' });
    const runs = 5;
    const started = performance.now();
    for (let run = 0; run < runs; run++) generateLayout({ seed: `timing-${run}` });
    const perLayout = (performance.now() - started) / runs;
    console.info(`generateLayout: ${perLayout.toFixed(1)} ms per 90x90 layout`);
    expect(perLayout).toBeLessThan(2000);
  });
});
