import {
  NAVIGATE_TO_REGION_EVENT,
  REGION_DEFINITIONS,
  REGION_FOCUS_ZOOM,
  type NavigateToRegionDetail,
} from '@pixel-atlas/contracts/region-catalog';
import type { Region } from '@pixel-atlas/contracts/regions';

/** Spec section 2: choosing a region raises this browser event; the map listens and flies there. */
export function dispatchNavigateToRegion(region: Pick<Region, 'name' | 'focus'>): void {
  const detail: NavigateToRegionDetail = {
    x: region.focus.x,
    y: region.focus.y,
    zoom: REGION_FOCUS_ZOOM,
    regionName: region.name,
  };
  window.dispatchEvent(new CustomEvent<NavigateToRegionDetail>(NAVIGATE_TO_REGION_EVENT, { detail }));
}

export function isNavigateToRegionDetail(value: unknown): value is NavigateToRegionDetail {
  const detail = value as Partial<NavigateToRegionDetail> | null;
  return typeof detail?.x === 'number' && typeof detail.y === 'number' && Number.isFinite(detail.x) && Number.isFinite(detail.y);
}

/**
 * Before a layout is loaded the menu still lists the thirteen regions, placed at the spec's focus
 * points scaled to the grid (ARCHITECTURE.md section 7); the loaded layout's real label points replace them.
 */
export function fallbackRegionPoints(gridSize: number): Array<Pick<Region, 'name' | 'value' | 'focus'>> {
  return REGION_DEFINITIONS.map(({ name, value, specFocus }) => ({
    name,
    value,
    focus: { x: Math.round((specFocus.x * gridSize) / 42), y: Math.round((specFocus.y * gridSize) / 34) },
  }));
}

/**
 * The footprint edge (tiles) a flight carries beside the spec's fields: Find Plots sends its plot's size so
 * the whole plot lands clear of the panels; a region is a point (1).
 */
export function flightFootprintSize(detail: NavigateToRegionDetail): number {
  const size = (detail as NavigateToRegionDetail & { size?: unknown }).size;
  return typeof size === 'number' && Number.isFinite(size) && size >= 1 ? size : 1;
}
