import { NAVIGATE_TO_REGION_EVENT, PLOT_FOCUS_ZOOM, type NavigateToRegionDetail } from '@pixel-atlas/contracts/regions';
import { TIER_SIZE, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';

/**
 * Moves the map to a plot at zoom 1.5 (spec section 2, Find Plots) through the map's own
 * 'navigateToRegion' event, centred on the plot's whole footprint.
 */
export function flyToPlot(plot: { x: number; y: number; tier: Tier | string; display_name?: string; region_name?: string | null }): void {
  const offset = (TIER_SIZE[normalizeTier(plot.tier)] - 1) / 2;
  const detail: NavigateToRegionDetail = {
    x: plot.x + offset,
    y: plot.y + offset,
    zoom: PLOT_FOCUS_ZOOM,
    regionName: plot.region_name ?? plot.display_name ?? '',
  };
  window.dispatchEvent(new CustomEvent<NavigateToRegionDetail>(NAVIGATE_TO_REGION_EVENT, { detail }));
}
