import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import { TIER_SIZE, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';

/** What the map needs to know about a plot. */
export interface MapPlot {
  id: string;
  x: number;
  y: number;
  tier: Tier;
  display_name: string;
  avatar_url: string;
}

export function plotSize(plot: Pick<MapPlot, 'tier'>): number {
  return TIER_SIZE[normalizeTier(plot.tier)];
}

/**
 * Tile → plot lookup: every tile of a plot's NxN footprint (from its top-left corner) points at it,
 * so hit testing is one array read however many plots exist.
 */
export interface PlotIndex {
  plots: readonly MapPlot[];
  plotAt(tileX: number, tileY: number): MapPlot | null;
}

export function createPlotIndex(plots: readonly MapPlot[], gridSize = GRID_SIZE): PlotIndex {
  const owner = new Int32Array(gridSize * gridSize).fill(-1);
  plots.forEach((plot, plotNumber) => {
    const size = plotSize(plot);
    for (let y = plot.y; y < plot.y + size; y++) {
      for (let x = plot.x; x < plot.x + size; x++) {
        if (x >= 0 && y >= 0 && x < gridSize && y < gridSize) owner[y * gridSize + x] = plotNumber;
      }
    }
  });
  return {
    plots,
    plotAt(tileX, tileY) {
      if (!Number.isInteger(tileX) || !Number.isInteger(tileY)) return null;
      if (tileX < 0 || tileY < 0 || tileX >= gridSize || tileY >= gridSize) return null;
      const plotNumber = owner[tileY * gridSize + tileX]!; // inside the grid, checked above; -1 (no plot) finds no entry
      return plots[plotNumber] ?? null;
    },
  };
}

/** First two letters of the name, as the spec's hover card shows when there is no avatar. */
export function plotInitials(displayName: string): string {
  return displayName.trim().slice(0, 2).toUpperCase() || '?';
}
