import { NAVIGATE_TO_REGION_EVENT, PLOT_FOCUS_ZOOM, type NavigateToRegionDetail } from '@pixel-atlas/contracts/region-catalog';
import { TIER_SIZE, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';

/**
 * Moves the map to a plot at zoom 1.5 (spec section 2, Find Plots) through the map's own
 * 'navigateToRegion' event, aimed at the plot's whole footprint; the footprint's size rides along so
 * the map lands all of it clear of its panels.
 */
export function flyToPlot(plot: { x: number; y: number; tier: Tier | string; display_name?: string; region_name?: string | null }): void {
  const size = TIER_SIZE[normalizeTier(plot.tier)];
  const offset = (size - 1) / 2;
  const detail: NavigateToRegionDetail & { size: number } = {
    x: plot.x + offset,
    y: plot.y + offset,
    zoom: PLOT_FOCUS_ZOOM,
    regionName: plot.region_name ?? plot.display_name ?? '',
    size,
  };
  window.dispatchEvent(new CustomEvent<NavigateToRegionDetail>(NAVIGATE_TO_REGION_EVENT, { detail }));
}
