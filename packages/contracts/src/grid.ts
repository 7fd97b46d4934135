/** The map is a fixed square grid; every coordinate in the product is a tile index inside it. */
export const GRID_SIZE = 90;
/** Pixel size of one tile at zoom 1 on the main map (spec section 9). */
export const TILE_SIZE_PX = 48;

/** Auto-assign picks a random free position on this lattice (spec section 9). */
export const AUTO_ASSIGN_LATTICE = { from: 15, to: 70, step: 5 } as const;

export function autoAssignCandidates(): Array<{ x: number; y: number }> {
  const out: Array<{ x: number; y: number }> = [];
  for (let x = AUTO_ASSIGN_LATTICE.from; x <= AUTO_ASSIGN_LATTICE.to; x += AUTO_ASSIGN_LATTICE.step) {
    for (let y = AUTO_ASSIGN_LATTICE.from; y <= AUTO_ASSIGN_LATTICE.to; y += AUTO_ASSIGN_LATTICE.step) out.push({ x, y });
  }
  return out;
}

export interface Footprint {
  x: number;
  y: number;
  size: number;
}

/** Half-open squares: plots that only touch do not overlap. */
export function footprintsOverlap(a: Footprint, b: Footprint): boolean {
  return a.x < b.x + b.size && b.x < a.x + a.size && a.y < b.y + b.size && b.y < a.y + a.size;
}

export function footprintInsideGrid(f: Footprint): boolean {
  return f.x >= 0 && f.y >= 0 && f.x + f.size <= GRID_SIZE && f.y + f.size <= GRID_SIZE;
}
