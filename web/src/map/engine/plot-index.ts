import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import { TIER_SIZE, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { createFootprintLookup } from './footprints.ts';

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
  return { plots, plotAt: createFootprintLookup(plots, (plot) => ({ x: plot.x, y: plot.y, size: plotSize(plot) }), gridSize) };
}

/** First two letters of the name, as the spec's hover card shows when there is no avatar. */
export function plotInitials(displayName: string): string {
  return displayName.trim().slice(0, 2).toUpperCase() || '?';
}
