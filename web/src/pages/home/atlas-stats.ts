import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import { TIER_SIZE, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';

/** What the strip needs of a plot: where it stands, how big it is, who owns it and when it was claimed. */
export interface StripPlot {
  id: string;
  x: number;
  y: number;
  tier: Tier | string;
  display_name: string;
  created_at?: string;
}

/** Land tiles nobody's plot covers: what a buyer can still choose from. */
export function countTilesLeft(tiles: ReadonlyArray<{ x: number; y: number; is_land: boolean }>, plots: readonly StripPlot[]): number {
  const land = new Uint8Array(GRID_SIZE * GRID_SIZE);
  let left = 0;
  for (const tile of tiles) {
    if (!tile.is_land || !insideGrid(tile.x, tile.y)) continue;
    const index = tile.y * GRID_SIZE + tile.x;
    if (land[index] === 0) left += 1;
    land[index] = 1;
  }
  for (const plot of plots) {
    const size = TIER_SIZE[normalizeTier(plot.tier)];
    for (let y = plot.y; y < plot.y + size; y += 1) {
      for (let x = plot.x; x < plot.x + size; x += 1) {
        if (!insideGrid(x, y)) continue;
        const index = y * GRID_SIZE + x;
        // 2 = land already counted as taken, so touching or bad data never counts a tile twice.
        if (land[index] === 1) {
          land[index] = 2;
          left -= 1;
        }
      }
    }
  }
  return left;
}

/** The newest claims first (by claim time; the list order of the API is not a promise). */
export function recentPlots<T extends StripPlot>(plots: readonly T[], count: number): T[] {
  return [...plots].sort((a, b) => claimTime(b) - claimTime(a)).slice(0, count);
}

/** The cheapest tier's price in cents, or null while prices are unknown. */
export function lowestPrice(prices: Record<Tier, number> | null): number | null {
  if (!prices) return null;
  const values = Object.values(prices).filter((cents) => Number.isFinite(cents));
  return values.length > 0 ? Math.min(...values) : null;
}

const numberFormat = new Intl.NumberFormat('en-US');
export const formatCount = (value: number): string => numberFormat.format(value);

function claimTime(plot: StripPlot): number {
  const time = plot.created_at ? Date.parse(plot.created_at) : Number.NaN;
  return Number.isNaN(time) ? 0 : time;
}

function insideGrid(x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < GRID_SIZE && y < GRID_SIZE;
}
