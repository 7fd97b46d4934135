import { GRID_SIZE, type Footprint } from '@pixel-atlas/contracts/grid';
import type { MapTile } from '@pixel-atlas/contracts/map';

/** One byte per tile (1 = land), row-major: answers footprint questions without walking tile objects. */
export interface LandMask {
  size: number;
  cells: Uint8Array;
}

export function createLandMask(tiles: ReadonlyArray<Pick<MapTile, 'x' | 'y' | 'is_land'>>, size = GRID_SIZE): LandMask {
  const cells = new Uint8Array(size * size);
  for (const tile of tiles) {
    if (tile.is_land && tile.x >= 0 && tile.y >= 0 && tile.x < size && tile.y < size) cells[tile.y * size + tile.x] = 1;
  }
  return { size, cells };
}

/** True only when every tile of the square footprint lies inside the grid and is land. */
export function footprintIsLand(mask: LandMask, footprint: Footprint): boolean {
  if (!Number.isInteger(footprint.x) || !Number.isInteger(footprint.y) || !Number.isInteger(footprint.size)) return false;
  if (footprint.size < 1) return false;
  if (!insideMask(mask, footprint)) return false;
  for (let y = footprint.y; y < footprint.y + footprint.size; y++) {
    for (let x = footprint.x; x < footprint.x + footprint.size; x++) {
      if (mask.cells[y * mask.size + x] !== 1) return false;
    }
  }
  return true;
}

function insideMask(mask: LandMask, footprint: Footprint): boolean {
  return footprint.x >= 0 && footprint.y >= 0 && footprint.x + footprint.size <= mask.size && footprint.y + footprint.size <= mask.size;
}

/**
 * The region name of every land tile, row-major beside the land mask: one byte per tile indexing `names`
 * (0 = water or unknown), so "which region is this plot in" is a lookup, not a walk over tile objects.
 */
export interface RegionIndex {
  size: number;
  codes: Uint8Array;
  /** names[code - 1] */
  names: string[];
}

export function createRegionIndex(tiles: ReadonlyArray<Pick<MapTile, 'x' | 'y' | 'is_land' | 'zone_name'>>, size = GRID_SIZE): RegionIndex {
  const codes = new Uint8Array(size * size);
  const names: string[] = [];
  const codeOf = new Map<string, number>();
  for (const tile of tiles) {
    if (!tile.is_land || !tile.zone_name || tile.x < 0 || tile.y < 0 || tile.x >= size || tile.y >= size) continue;
    let code = codeOf.get(tile.zone_name);
    if (code === undefined) {
      if (names.length >= 255) continue; // a byte per tile: more regions than that is not a map we make
      names.push(tile.zone_name);
      code = names.length;
      codeOf.set(tile.zone_name, code);
    }
    codes[tile.y * size + tile.x] = code;
  }
  return { size, codes, names };
}

/** The region of the tile at (x, y), or null for water, unknown tiles and positions outside the grid. */
export function regionAt(index: RegionIndex, x: number, y: number): string | null {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= index.size || y >= index.size) return null;
  const code = index.codes[y * index.size + x];
  return code ? (index.names[code - 1] ?? null) : null;
}
