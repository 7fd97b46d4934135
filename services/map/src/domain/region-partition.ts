import { REGION_DEFINITIONS } from '@pixel-atlas/contracts/regions';
import { fourNeighbourCells, type Point } from './grid-graph.ts';
import { MinHeap } from './min-heap.ts';
import { fractalNoise, seededNoise, seededRandom } from './seeded-noise.ts';

/** The spec's focus points all lie inside this corner; scaling it to the grid keeps the relative geography. */
const SPEC_EXTENT = { width: 42, height: 34 };
const ANCHOR_MARGIN = 9;

/**
 * Where each region grows from: the spec's focus point scaled to the grid, nudged by a seeded jitter
 * (a new seed gives a new world) and kept away from the ocean frame. Same order as REGION_DEFINITIONS.
 */
export function placeRegionAnchors(seed: string, size: number): Point[] {
  const random = seededRandom(seed, 'anchors');
  return REGION_DEFINITIONS.map(({ specFocus }) => {
    const jitterX = (random() - 0.5) * 5;
    const jitterY = (random() - 0.5) * 5;
    const clamp = (value: number) => Math.round(Math.min(size - 1 - ANCHOR_MARGIN, Math.max(ANCHOR_MARGIN, value)));
    return {
      x: clamp((specFocus.x * size) / SPEC_EXTENT.width + jitterX),
      y: clamp((specFocus.y * size) / SPEC_EXTENT.height + jitterY),
    };
  });
}

/** Moves each anchor onto the nearest land tile that no other anchor holds. */
export function snapAnchorsToLand(land: Uint8Array, size: number, anchors: Point[]): number[] {
  const taken = new Set<number>();
  return anchors.map((anchor) => {
    let best = -1;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (let index = 0; index < land.length; index++) {
      if (land[index] !== 1 || taken.has(index)) continue;
      const x = index % size;
      const distance = (x - anchor.x) ** 2 + ((index - x) / size - anchor.y) ** 2;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = index;
      }
    }
    if (best < 0) throw new Error('no land left for a region anchor');
    taken.add(best);
    return best;
  });
}

/**
 * Splits the land between the regions by a competitive flood from their anchors: a priority queue
 * where each region pays its own noisy cost to enter a tile (organic, wiggly borders) scaled by its
 * `speed` (used to balance areas). A tile is claimed only from a neighbour the same region already
 * holds, so every region is 4-connected by construction.
 * Returns the region value per tile (0 for water and for land no region can reach).
 */
export function floodRegions(
  land: Uint8Array,
  size: number,
  anchorTiles: number[],
  costFields: Float64Array[],
  speeds: number[],
): Int16Array {
  const enterCost = (region: number, index: number) => speeds[region]! * costFields[region]![index]!;

  const owner = new Int16Array(size * size);
  const heap = new MinHeap<{ index: number; region: number }>();
  anchorTiles.forEach((index, region) => heap.push(0, index * 16 + region, { index, region }));
  for (let entry = heap.pop(); entry; entry = heap.pop()) {
    const { index, region } = entry.payload;
    if (owner[index] !== 0) continue;
    owner[index] = REGION_DEFINITIONS[region]!.value;
    for (const next of fourNeighbourCells(size, index)) {
      if (land[next] !== 1 || owner[next] !== 0) continue;
      heap.push(entry.priority + enterCost(region, next), next * 16 + region, { index: next, region });
    }
  }
  return owner;
}

/**
 * Each region's own noisy price for entering each tile. Independent noise per region bends every
 * border differently; the fields are computed once and shared by all balancing rounds.
 */
export function regionCostFields(size: number, regionCount: number, seed: string): Float64Array[] {
  return Array.from({ length: regionCount }, (_, region) => {
    const noise = seededNoise(seed, `border-${region}`);
    const field = new Float64Array(size * size);
    for (let index = 0; index < field.length; index++) {
      const x = index % size;
      const wiggle = (fractalNoise(noise, x / 9, (index - x) / size / 9, 2) + 1) / 2;
      field[index] = 0.5 + 1.3 * wiggle;
    }
    return field;
  });
}

/**
 * Runs the flood a few times, slowing regions that grew far beyond an even share and speeding up the
 * small ones, so crowded anchors (the spec packs several close together) still get room for plots.
 * A region that squeezes through a narrow neck takes all the land behind it, so areas can swing
 * between rounds: the steps shrink each round and the partition whose smallest region is largest wins.
 */
export function balancedRegions(land: Uint8Array, size: number, anchorTiles: number[], seed: string): Int16Array {
  const speeds = anchorTiles.map(() => 1);
  const landCount = land.reduce((sum, cell) => sum + cell, 0);
  const fairShare = landCount / anchorTiles.length;
  const costFields = regionCostFields(size, anchorTiles.length, seed);
  let best: { owner: Int16Array; smallestArea: number } | null = null;
  for (let round = 0; round < 10; round++) {
    const owner = floodRegions(land, size, anchorTiles, costFields, speeds);
    const areas = anchorTiles.map(() => 0);
    for (const value of owner) if (value > 0) areas[value - 1]!++;
    const smallestArea = Math.min(...areas);
    if (!best || smallestArea > best.smallestArea) best = { owner, smallestArea };
    const step = 0.5 / (1 + round * 0.4);
    speeds.forEach((speed, region) => {
      const ratio = Math.max(areas[region]!, 1) / fairShare;
      speeds[region] = speed * Math.min(1.35, Math.max(0.7, ratio ** step));
    });
  }
  return best!.owner;
}
