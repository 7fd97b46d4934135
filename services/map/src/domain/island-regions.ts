import { REGION_DEFINITIONS } from '@pixel-atlas/contracts/regions';
import { EIGHT_NEIGHBOURS, FOUR_NEIGHBOURS, labelComponents, shortestPathBetween } from './grid-graph.ts';
import { seededNoise } from './seeded-noise.ts';

/** Regions whose names promise islands: they are cut off from their neighbours by water. */
export const ISLAND_REGION_NAMES = ['Edu Archipelago', 'Influencer Isles'] as const;

const SMALLEST_ISLET = 6;
const PUDDLE_LIMIT = 8;

/**
 * Turns island-themed regions into archipelagos: a water strait along their border with other
 * regions, a few channels between islands, then causeways so the region's land stays one
 * 4-connected piece (a plot anywhere in it is reachable, and the region test holds).
 * Only tiles of the island region change, so no other region loses its contiguity.
 */
export function shapeIslandRegions(land: Uint8Array, owner: Int16Array, size: number, seed: string): void {
  for (const name of ISLAND_REGION_NAMES) {
    const value = REGION_DEFINITIONS.find((region) => region.name === name)!.value;
    const channels = seededNoise(seed, `channels-${value}`);
    const touchesOtherRegion = (index: number) => {
      const x = index % size;
      const y = (index - x) / size;
      return EIGHT_NEIGHBOURS.some(([dx, dy]) => {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= size || ny >= size) return false;
        const other = owner[ny * size + nx];
        return other !== 0 && other !== value;
      });
    };

    const channelTiles: number[] = [];
    for (let index = 0; index < owner.length; index++) {
      if (owner[index] !== value) continue;
      const x = index % size;
      const y = (index - x) / size;
      if (Math.abs(channels(x / 13, y / 13)) < 0.1) channelTiles.push(index);
    }
    for (const index of channelTiles) {
      owner[index] = 0;
      land[index] = 0;
    }
    refillPuddles(land, owner, size, value);

    const straitTiles: number[] = [];
    for (let index = 0; index < owner.length; index++) if (owner[index] === value && touchesOtherRegion(index)) straitTiles.push(index);
    for (const index of straitTiles) {
      owner[index] = 0;
      land[index] = 0;
    }

    const own = labelComponents(size, (index) => owner[index] === value);
    for (let index = 0; index < owner.length; index++) {
      if (owner[index] === value && own.sizes[own.labels[index]!]! < SMALLEST_ISLET) {
        owner[index] = 0;
        land[index] = 0;
      }
    }
    joinRegionFragments(land, owner, size, value, touchesOtherRegion);
  }
}

/**
 * A channel line thinner than a tile breaks into single-tile puddles that read as noise; small water
 * pockets enclosed by the region are given back to it so only real channels remain.
 */
function refillPuddles(land: Uint8Array, owner: Int16Array, size: number, value: number): void {
  const waters = labelComponents(size, (index) => land[index] === 0);
  const enclosedByRegion = waters.sizes.map(() => true);
  for (let index = 0; index < land.length; index++) {
    if (land[index] !== 0) continue;
    const x = index % size;
    const y = (index - x) / size;
    for (const [dx, dy] of FOUR_NEIGHBOURS) {
      const nx = x + dx;
      const ny = y + dy;
      const neighbourOwner = nx < 0 || ny < 0 || nx >= size || ny >= size ? -1 : owner[ny * size + nx];
      if (neighbourOwner !== 0 && neighbourOwner !== value) enclosedByRegion[waters.labels[index]!] = false;
    }
  }
  for (let index = 0; index < land.length; index++) {
    const label = waters.labels[index]!;
    if (label >= 0 && enclosedByRegion[label] && waters.sizes[label]! < PUDDLE_LIMIT) {
      land[index] = 1;
      owner[index] = value;
    }
  }
}

function joinRegionFragments(
  land: Uint8Array,
  owner: Int16Array,
  size: number,
  value: number,
  touchesOtherRegion: (index: number) => boolean,
): void {
  for (;;) {
    const { labels, sizes } = labelComponents(size, (index) => owner[index] === value);
    if (sizes.length <= 1) return;
    let smallest = 0;
    for (let label = 1; label < sizes.length; label++) if (sizes[label]! < sizes[smallest]!) smallest = label;
    const isStart = (index: number) => labels[index] === smallest;
    const isGoal = (index: number) => owner[index] === value && labels[index] !== smallest;
    // Prefer a causeway through open water; only squeeze past a neighbour region when there is no other way.
    const path =
      shortestPathBetween(size, isStart, isGoal, (index) => land[index] === 0 && !touchesOtherRegion(index)) ??
      shortestPathBetween(size, isStart, isGoal, (index) => land[index] === 0);
    if (!path) throw new Error(`region ${value} cannot be joined`);
    for (const index of path) {
      land[index] = 1;
      owner[index] = value;
    }
  }
}
