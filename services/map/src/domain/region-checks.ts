import { labelComponents } from './grid-graph.ts';

/** True when the region's tiles form exactly one 4-connected piece. */
export function isRegionContiguous(owner: ArrayLike<number>, size: number, value: number): boolean {
  const { sizes } = labelComponents(size, (index) => owner[index] === value);
  return sizes.length === 1;
}

/**
 * How many non-overlapping `squareSize`² squares lying wholly inside the region a greedy row-major
 * scan finds: a lower bound on how many largest plots the region can hold at once.
 */
export function countDisjointSquares(owner: ArrayLike<number>, size: number, value: number, squareSize: number): number {
  const used = new Uint8Array(size * size);
  let count = 0;
  for (let y = 0; y + squareSize <= size; y++) {
    for (let x = 0; x + squareSize <= size; x++) {
      if (!squareFits(x, y)) continue;
      count++;
      for (let dy = 0; dy < squareSize; dy++) for (let dx = 0; dx < squareSize; dx++) used[(y + dy) * size + x + dx] = 1;
    }
  }
  return count;

  function squareFits(x: number, y: number): boolean {
    for (let dy = 0; dy < squareSize; dy++) {
      for (let dx = 0; dx < squareSize; dx++) {
        const index = (y + dy) * size + x + dx;
        if (owner[index] !== value || used[index] === 1) return false;
      }
    }
    return true;
  }
}
