import { distanceField, distanceToEdge, labelComponents, shortestPathBetween, type Point } from './grid-graph.ts';
import { fractalNoise, seededNoise, seededRandom, smoothstep } from './seeded-noise.ts';

/** Tiles this close to the grid edge are always ocean, so the world reads as a continent in a sea. */
export const OCEAN_BORDER = 2;

/**
 * Raw land mask: fractal noise, pulled down towards the grid edge (coasts and an ocean frame) and
 * lifted around the region anchors (every region gets a land core, empty corners become sea), thresholded at the quantile that
 * yields `landRatio` of the grid as land.
 */
export function raiseLand(seed: string, size: number, anchors: Point[], landRatio: number): Uint8Array {
  const continent = seededNoise(seed, 'continent');
  const detail = seededNoise(seed, 'coast-detail');
  const elevation = new Float64Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const edge = distanceToEdge(x, y, size);
      if (edge < OCEAN_BORDER) {
        elevation[y * size + x] = Number.NEGATIVE_INFINITY;
        continue;
      }
      // Land gathers around the region anchors; stretches far from every anchor tend to become bays.
      let anchorLift = 0;
      for (const anchor of anchors) {
        const d2 = (x - anchor.x) ** 2 + (y - anchor.y) ** 2;
        anchorLift = Math.max(anchorLift, Math.exp(-d2 / (2 * 10 * 10)));
      }
      elevation[y * size + x] =
        0.8 * fractalNoise(continent, x / 24, y / 24, 3) +
        0.22 * fractalNoise(detail, x / 7, y / 7, 2) +
        0.75 * smoothstep(OCEAN_BORDER, 18, edge) +
        0.7 * anchorLift;
    }
  }
  const sorted = Float64Array.from(elevation).sort().reverse();
  const threshold = sorted[Math.min(sorted.length - 1, Math.floor(landRatio * size * size))]!;
  const land = new Uint8Array(size * size);
  for (let index = 0; index < land.length; index++) land[index] = elevation[index]! > threshold ? 1 : 0;
  return land;
}

/** A few round-ish inland lakes, kept clear of the region anchors and of each other. */
export function carveLakes(land: Uint8Array, size: number, seed: string, anchors: Point[]): void {
  const random = seededRandom(seed, 'lakes');
  const wobble = seededNoise(seed, 'lake-shape');
  const toWater = distanceField(size, (index) => land[index] === 0);
  const candidates: number[] = [];
  for (let index = 0; index < land.length; index++) {
    const x = index % size;
    const y = (index - x) / size;
    if (toWater[index]! < 5) continue;
    if (anchors.some((anchor) => Math.hypot(anchor.x - x, anchor.y - y) < 7)) continue;
    candidates.push(index);
  }
  const lakeCount = 2 + Math.floor(random() * 3);
  const centres: Point[] = [];
  for (let attempt = 0; attempt < 40 && centres.length < lakeCount && candidates.length > 0; attempt++) {
    const pick = candidates[Math.floor(random() * candidates.length)]!;
    const centre = { x: pick % size, y: Math.floor(pick / size) };
    if (centres.some((other) => Math.hypot(other.x - centre.x, other.y - centre.y) < 14)) continue;
    centres.push(centre);
    const radius = 1.6 + random() * 1.8;
    const reach = Math.ceil(radius * 1.5);
    for (let y = centre.y - reach; y <= centre.y + reach; y++) {
      for (let x = centre.x - reach; x <= centre.x + reach; x++) {
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        const shaped = radius * (1 + 0.35 * wobble(x / 3, y / 3));
        if (Math.hypot(x - centre.x, y - centre.y) <= shaped) land[y * size + x] = 0;
      }
    }
  }
}

/** Drops land specks too small to hold anything and fills pinhole lakes that read as noise. */
export function removeSpecks(land: Uint8Array, size: number, minIsland: number, minLake: number): void {
  const islands = labelComponents(size, (index) => land[index] === 1);
  for (let index = 0; index < land.length; index++) {
    if (land[index] === 1 && islands.sizes[islands.labels[index]!]! < minIsland) land[index] = 0;
  }
  const waters = labelComponents(size, (index) => land[index] === 0);
  for (let index = 0; index < land.length; index++) {
    if (land[index] === 0 && waters.sizes[waters.labels[index]!]! < minLake) land[index] = 1;
  }
}

/**
 * Joins every landmass to the others with the shortest causeway across water, so that a region may
 * span an island and still be one 4-connected piece of land.
 */
export function bridgeLandmasses(land: Uint8Array, size: number): void {
  for (;;) {
    const { labels, sizes } = labelComponents(size, (index) => land[index] === 1);
    if (sizes.length <= 1) return;
    // Bridge the smallest landmass first: its causeway is usually the shortest.
    let smallest = 0;
    for (let label = 1; label < sizes.length; label++) if (sizes[label]! < sizes[smallest]!) smallest = label;
    const path = shortestPathBetween(
      size,
      (index) => labels[index] === smallest,
      (index) => land[index] === 1 && labels[index] !== smallest,
      (index) => distanceToEdge(index % size, Math.floor(index / size), size) >= OCEAN_BORDER,
    );
    if (!path) throw new Error('landmasses cannot be bridged');
    for (const index of path) land[index] = 1;
  }
}
