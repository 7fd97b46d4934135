import { valueNoise, hash2 } from './pixel-hash.ts';
import { regionPalette } from '@pixel-atlas/contracts/terrain-palette';

export const TERRAIN = {
  deepWater: 0,
  water: 1,
  shallows: 2,
  sand: 3,
  grass: 4,
  forest: 5,
  hills: 6,
  landmark: 7,
} as const;

/** Side bits: which neighbours differ (region border on land, land next to a water tile). */
export const SIDE = { north: 1, east: 2, south: 4, west: 8 } as const;

export interface TerrainGrid {
  size: number;
  kind: Uint8Array;
  /** zone_value per tile (0 = water). */
  region: Uint8Array;
  /** Land: sides facing another region's land. Water: sides facing land (foam). */
  edges: Uint8Array;
}

export interface TerrainTileInput {
  x: number;
  y: number;
  zone_value: number;
  is_land: boolean;
}

/** North, east, south, west: the neighbour's offset and its SIDE bit. */
const SIDE_DX = [0, 1, 0, -1] as const;
const SIDE_DY = [-1, 0, 1, 0] as const;
const SIDE_BIT = [SIDE.north, SIDE.east, SIDE.south, SIDE.west] as const;

const LANDMARKS_PER_REGION = 3;
const LANDMARK_SPACING = 6;

/** Land and region per tile (row-major), the input classification needs: small, and cheap to send to a worker. */
export interface TerrainMasks {
  size: number;
  /** 1 = land. */
  land: Uint8Array;
  /** zone_value per tile (0 = water). */
  region: Uint8Array;
}

export function terrainMasks(tiles: readonly TerrainTileInput[], size: number): TerrainMasks {
  const region = new Uint8Array(size * size);
  const land = new Uint8Array(size * size);
  for (const tile of tiles) {
    if (tile.x < 0 || tile.y < 0 || tile.x >= size || tile.y >= size) continue;
    const index = tile.y * size + tile.x;
    land[index] = tile.is_land ? 1 : 0;
    region[index] = tile.is_land ? tile.zone_value : 0;
  }
  return { size, land, region };
}

/**
 * Decides what every tile looks like, purely from the layout: water depth by distance to land,
 * sand where land meets water, forests and hills from per-region noise, a few landmarks per region
 * away from its label.
 */
export function classifyTerrain(
  tiles: readonly TerrainTileInput[],
  size: number,
  labelPoints: ReadonlyArray<{ x: number; y: number }> = [],
): TerrainGrid {
  return classifyTerrainMasks(terrainMasks(tiles, size), labelPoints);
}

/** classifyTerrain from the masks: what the terrain worker runs (terrain-worker-core.ts). */
export function classifyTerrainMasks(masks: TerrainMasks, labelPoints: ReadonlyArray<{ x: number; y: number }> = []): TerrainGrid {
  const { size, land, region } = masks;
  const isLand = (x: number, y: number) => x >= 0 && y >= 0 && x < size && y < size && land[y * size + x] === 1;
  const distanceToLand = chebyshevDistanceToLand(land, size);

  // Runs once per layout (in the terrain worker, or on the main thread without one), mostly before the JIT has
  // warmed up: plain indexed loops, no per-tile arrays or iterators (they made this 3-4x slower on a phone).
  const kind = new Uint8Array(size * size);
  const edges = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const index = y * size + x;
      if (!land[index]) {
        const d = distanceToLand[index]!;
        kind[index] = d <= 1 ? TERRAIN.shallows : d <= 3 ? TERRAIN.water : TERRAIN.deepWater;
        let foam = 0;
        for (let side = 0; side < 4; side++) if (isLand(x + SIDE_DX[side]!, y + SIDE_DY[side]!)) foam |= SIDE_BIT[side]!;
        edges[index] = foam;
        continue;
      }
      let coast = false;
      for (let dy = -1; dy <= 1 && !coast; dy++) for (let dx = -1; dx <= 1; dx++) if (!isLand(x + dx, y + dy)) coast = true;
      const zone = region[index]!;
      let borders = 0;
      for (let side = 0; side < 4; side++) {
        const nx = x + SIDE_DX[side]!;
        const ny = y + SIDE_DY[side]!;
        if (isLand(nx, ny) && region[ny * size + nx] !== zone) borders |= SIDE_BIT[side]!;
      }
      edges[index] = borders;
      if (coast) {
        kind[index] = TERRAIN.sand;
        continue;
      }
      const palette = regionPalette(zone);
      const hills = valueNoise(x, y, 5, zone * 7 + 2);
      const forest = valueNoise(x, y, 6, zone * 7 + 1);
      if (hills > 0.5 + (0.5 - palette.hillShare) * 0.6) kind[index] = TERRAIN.hills;
      else if (forest > 0.5 + (0.5 - palette.forestShare) * 0.6) kind[index] = TERRAIN.forest;
      else kind[index] = TERRAIN.grass;
    }
  }
  placeLandmarks(kind, region, edges, size, labelPoints);
  return { size, kind, region, edges };
}

function chebyshevDistanceToLand(land: Uint8Array, size: number): Uint8Array {
  const distance = new Uint8Array(size * size).fill(255);
  const queue: number[] = [];
  for (let index = 0; index < land.length; index++) {
    if (land[index]) {
      distance[index] = 0;
      queue.push(index);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head]!;
    const cx = current % size;
    const cy = (current - cx) / size;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = cx + dx;
        const ny = cy + dy;
        if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
        const next = ny * size + nx;
        if (distance[next] !== 255) continue;
        distance[next] = Math.min(254, distance[current]! + 1);
        queue.push(next);
      }
    }
  }
  return distance;
}

function placeLandmarks(
  kind: Uint8Array,
  region: Uint8Array,
  edges: Uint8Array,
  size: number,
  labelPoints: ReadonlyArray<{ x: number; y: number }>,
): void {
  const candidatesByRegion = new Map<number, number[]>();
  for (let index = 0; index < kind.length; index++) {
    if (kind[index] !== TERRAIN.grass || edges[index] !== 0) continue;
    const x = index % size;
    const y = (index - x) / size;
    if (labelPoints.some((point) => Math.abs(point.x - x) <= 3 && Math.abs(point.y - y) <= 2)) continue;
    const zone = region[index]!;
    const list = candidatesByRegion.get(zone) ?? [];
    list.push(index);
    candidatesByRegion.set(zone, list);
  }
  const sortKey = new Float64Array(kind.length);
  for (const [value, candidates] of candidatesByRegion) {
    for (const index of candidates) sortKey[index] = hash2(index, value, 31);
    candidates.sort((a, b) => sortKey[a]! - sortKey[b]!);
    const chosen: Array<{ x: number; y: number }> = [];
    for (const index of candidates) {
      if (chosen.length >= LANDMARKS_PER_REGION) break;
      const x = index % size;
      const y = (index - x) / size;
      if (chosen.some((other) => Math.max(Math.abs(other.x - x), Math.abs(other.y - y)) < LANDMARK_SPACING)) continue;
      chosen.push({ x, y });
      kind[index] = TERRAIN.landmark;
    }
  }
}
