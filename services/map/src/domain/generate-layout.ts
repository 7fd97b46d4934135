import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import type { MapTile } from '@pixel-atlas/contracts/map';
import { REGION_DEFINITIONS, type Region } from '@pixel-atlas/contracts/regions';
import { shapeIslandRegions } from './island-regions.ts';
import { bridgeLandmasses, carveLakes, raiseLand, removeSpecks } from './land-shaping.ts';
import { REGION_CONTENT } from './region-content.ts';
import { countDisjointSquares, isRegionContiguous } from './region-checks.ts';
import { findRegionFocus } from './region-focus.ts';
import { balancedRegions, placeRegionAnchors, snapAnchorsToLand } from './region-partition.ts';
import { seededRandom } from './seeded-noise.ts';

export const WATER_ZONE = { value: 0, name: 'Water' } as const;

/** Every region must hold at least this many non-overlapping premium (4x4) plots. */
export const MIN_PREMIUM_SQUARES_PER_REGION = 4;
const LAND_RATIO_BOUNDS = { min: 0.6, max: 0.75 };
const MAX_ATTEMPTS = 12;

export interface GeneratedLayout {
  /** GRID_SIZE² tiles, row-major: tiles[y * GRID_SIZE + x]. */
  tiles: MapTile[];
  /** The 13 regions in REGION_DEFINITIONS order, focus = where the label sits on this map. */
  regions: Region[];
  landTileCount: number;
}

/**
 * Builds the whole world from a seed: same seed, byte-identical layout; another seed, another world.
 * A candidate that breaks an invariant (region size, land ratio) is discarded and the next attempt
 * uses a seed derived deterministically from the first, so the result is still a pure function of `seed`.
 */
export function generateLayout({ seed }: { seed: string }): GeneratedLayout {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const candidate = buildCandidate(attempt === 0 ? seed : `${seed}#${attempt}`);
    if (candidate) return candidate;
  }
  throw new Error(`no valid layout for seed "${seed}" after ${MAX_ATTEMPTS} attempts`);
}

function buildCandidate(seed: string): GeneratedLayout | null {
  const size = GRID_SIZE;
  const anchors = placeRegionAnchors(seed, size);
  const landRatio = 0.67 + seededRandom(seed, 'land-ratio')() * 0.05;

  const land = raiseLand(seed, size, anchors, landRatio);
  carveLakes(land, size, seed, anchors);
  removeSpecks(land, size, 12, 3);
  bridgeLandmasses(land, size);

  const anchorTiles = snapAnchorsToLand(land, size, anchors);
  const owner = balancedRegions(land, size, anchorTiles, seed);
  shapeIslandRegions(land, owner, size, seed);

  const landTileCount = land.reduce((sum, cell) => sum + cell, 0);
  const ratio = landTileCount / (size * size);
  if (ratio < LAND_RATIO_BOUNDS.min || ratio > LAND_RATIO_BOUNDS.max) return null;
  for (const { value } of REGION_DEFINITIONS) {
    if (!isRegionContiguous(owner, size, value)) return null;
    if (countDisjointSquares(owner, size, value, 4) < MIN_PREMIUM_SQUARES_PER_REGION) return null;
  }

  const tiles: MapTile[] = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const value = owner[y * size + x]!;
      const region = value > 0 ? REGION_DEFINITIONS[value - 1] : undefined;
      tiles.push(
        region
          ? { x, y, zone_value: value, zone_name: region.name, is_land: true }
          : { x, y, zone_value: WATER_ZONE.value, zone_name: WATER_ZONE.name, is_land: false },
      );
    }
  }
  const regions: Region[] = REGION_DEFINITIONS.map(({ value, name }) => ({
    value,
    name,
    focus: findRegionFocus(owner, size, value),
    ...REGION_CONTENT[name],
    notableLocations: [...REGION_CONTENT[name].notableLocations],
  }));
  return { tiles, regions, landTileCount };
}
