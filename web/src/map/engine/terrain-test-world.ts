import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import { valueNoise } from './pixel-hash.ts';
import type { TerrainTileInput } from './terrain-classify.ts';

/**
 * A whole 90x90 world for terrain tests, the same on every run: a few islands from value noise (coasts, lagoons,
 * one-tile islets), many regions side by side (borders), and label points for the landmarks to keep clear of.
 */
export function terrainTestWorld(): { tiles: TerrainTileInput[]; size: number; labelPoints: Array<{ x: number; y: number }> } {
  const size = GRID_SIZE;
  const tiles: TerrainTileInput[] = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = (x - size / 2) / (size / 2);
      const dy = (y - size / 2) / (size / 2);
      const height = valueNoise(x, y, 11, 101) * 0.7 + valueNoise(x, y, 4, 103) * 0.3 - Math.hypot(dx, dy) * 0.45;
      const isLand = height > 0.22;
      const zone = 1 + Math.min(11, Math.floor(valueNoise(x, y, 17, 107) * 12));
      tiles.push({ x, y, zone_value: isLand ? zone : 0, is_land: isLand });
    }
  }
  const labelPoints = [
    { x: 30, y: 30 },
    { x: 60, y: 35 },
    { x: 45, y: 60 },
  ];
  return { tiles, size, labelPoints };
}

/** FNV-1a over the bytes: one number per chunk, so a test can say which chunk changed. */
export function hashPixels(pixels: Uint8ClampedArray): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < pixels.length; i++) hash = Math.imul(hash ^ pixels[i]!, 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
