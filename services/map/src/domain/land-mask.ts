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
