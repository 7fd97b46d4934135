import { distanceField, type Point } from './grid-graph.ts';

/**
 * Where a region's label sits: the region tile closest to its centroid, preferring tiles well inside
 * the region (so the label reads as belonging to it, not to a neighbour or the sea). A centroid can
 * fall outside a crescent-shaped region; picking a region tile keeps the label on the region's land.
 */
export function findRegionFocus(owner: ArrayLike<number>, size: number, value: number): Point {
  let sumX = 0;
  let sumY = 0;
  let count = 0;
  for (let index = 0; index < size * size; index++) {
    if (owner[index] !== value) continue;
    const x = index % size;
    sumX += x;
    sumY += (index - x) / size;
    count++;
  }
  if (count === 0) throw new Error(`region ${value} has no tiles`);
  const centroid = { x: sumX / count, y: sumY / count };
  const depth = distanceField(size, (index) => owner[index] !== value);
  let deepest = 0;
  for (let index = 0; index < size * size; index++) if (owner[index] === value) deepest = Math.max(deepest, depth[index]!);
  const wantedDepth = Math.min(3, deepest);

  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let index = 0; index < size * size; index++) {
    if (owner[index] !== value || depth[index]! < wantedDepth) continue;
    const x = index % size;
    const distance = (x - centroid.x) ** 2 + ((index - x) / size - centroid.y) ** 2;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = index;
    }
  }
  return { x: best % size, y: Math.floor(best / size) };
}
