/** Small helpers for walking a square grid stored row-major in typed arrays (index = y * size + x). */

export interface Point {
  x: number;
  y: number;
}

export const FOUR_NEIGHBOURS: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

export const EIGHT_NEIGHBOURS: ReadonlyArray<readonly [number, number]> = [...FOUR_NEIGHBOURS, [1, 1], [1, -1], [-1, 1], [-1, -1]];

export function distanceToEdge(x: number, y: number, size: number): number {
  return Math.min(x, y, size - 1 - x, size - 1 - y);
}

/** The cells beside cell `index` (4-connected, in FOUR_NEIGHBOURS order) that lie on the size×size grid. */
export function* fourNeighbourCells(size: number, index: number): Generator<number> {
  const x = index % size;
  const y = (index - x) / size;
  for (const [dx, dy] of FOUR_NEIGHBOURS) {
    const nx = x + dx;
    const ny = y + dy;
    if (nx >= 0 && ny >= 0 && nx < size && ny < size) yield ny * size + nx;
  }
}

/**
 * Labels the 4-connected components of the cells for which `member` is true.
 * Returns a label per cell (-1 for non-members) and the size of each component.
 */
export function labelComponents(size: number, member: (index: number) => boolean): { labels: Int32Array; sizes: number[] } {
  const labels = new Int32Array(size * size).fill(-1);
  const sizes: number[] = [];
  const queue = new Int32Array(size * size);
  for (let start = 0; start < size * size; start++) {
    if (labels[start] !== -1 || !member(start)) continue;
    const label = sizes.length;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    labels[start] = label;
    while (head < tail) {
      const current = queue[head++]!; // head < tail: a cell queued above
      for (const next of fourNeighbourCells(size, current)) {
        if (labels[next] !== -1 || !member(next)) continue;
        labels[next] = label;
        queue[tail++] = next;
      }
    }
    sizes.push(tail);
  }
  return { labels, sizes };
}

/**
 * Breadth-first distance (4-neighbour steps) from every cell to the nearest source cell.
 * Cells that cannot be reached keep Infinity.
 */
export function distanceField(size: number, isSource: (index: number) => boolean): Float64Array {
  const distance = new Float64Array(size * size).fill(Number.POSITIVE_INFINITY);
  const queue = new Int32Array(size * size);
  let head = 0;
  let tail = 0;
  for (let index = 0; index < size * size; index++) {
    if (isSource(index)) {
      distance[index] = 0;
      queue[tail++] = index;
    }
  }
  while (head < tail) {
    const current = queue[head++]!; // head < tail: a cell queued above
    for (const next of fourNeighbourCells(size, current)) {
      if (distance[next] !== Number.POSITIVE_INFINITY) continue;
      distance[next] = distance[current]! + 1;
      queue[tail++] = next;
    }
  }
  return distance;
}

/**
 * Shortest 4-connected path from any `start` cell to any `goal` cell, stepping only on cells that
 * `passable` allows (start and goal cells are always allowed). Returns the cells strictly between
 * start and goal, or null when no path exists.
 */
export function shortestPathBetween(
  size: number,
  isStart: (index: number) => boolean,
  isGoal: (index: number) => boolean,
  passable: (index: number) => boolean,
): number[] | null {
  const previous = new Int32Array(size * size).fill(-2);
  const queue = new Int32Array(size * size);
  let head = 0;
  let tail = 0;
  for (let index = 0; index < size * size; index++) {
    if (isStart(index)) {
      previous[index] = -1;
      queue[tail++] = index;
    }
  }
  while (head < tail) {
    const current = queue[head++]!; // head < tail: a cell queued above
    for (const next of fourNeighbourCells(size, current)) {
      if (previous[next] !== -2) continue;
      if (isGoal(next)) {
        const path: number[] = [];
        for (let step = current; previous[step] !== -1; step = previous[step]!) path.push(step);
        return path.reverse();
      }
      if (!passable(next)) continue;
      previous[next] = current;
      queue[tail++] = next;
    }
  }
  return null;
}
