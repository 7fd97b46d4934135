/**
 * The regions as plain data and functions, without zod: the footer links every region's page on every screen, the
 * prerendered first one included, and ./regions.ts's schema would pull all of zod into that first chunk. ./regions.ts
 * and ./directory.ts re-export what is here, so the list of regions has one source.
 */

/**
 * The thirteen themed regions of the map. `value` is the tile's zone_value; `specFocus` is the focus
 * point the spec lists (all inside a 40x32 corner); the map service scales that geography to the
 * whole grid and serves the real focus point of each generated region.
 */
export const REGION_DEFINITIONS = [
  { value: 1, name: 'Knowledge Knolls', specFocus: { x: 8, y: 7 } },
  { value: 2, name: 'Wellness Wilds', specFocus: { x: 18, y: 10 } },
  { value: 3, name: 'Creator Coast', specFocus: { x: 28, y: 9 } },
  { value: 4, name: 'Tech Creator Core', specFocus: { x: 11, y: 16 } },
  { value: 5, name: 'Startup Steppes', specFocus: { x: 37, y: 17 } },
  { value: 6, name: 'Maker Moorlands', specFocus: { x: 25, y: 18 } },
  { value: 7, name: 'Vibe Coding Vale', specFocus: { x: 33, y: 15 } },
  { value: 8, name: 'Pixel Plains', specFocus: { x: 39, y: 3 } },
  { value: 9, name: 'Edu Archipelago', specFocus: { x: 15, y: 14 } },
  { value: 10, name: 'Aesthetic Alley', specFocus: { x: 26, y: 25 } },
  { value: 11, name: 'Forum Fields', specFocus: { x: 30, y: 25 } },
  { value: 12, name: 'Influencer Isles', specFocus: { x: 13, y: 31 } },
  { value: 13, name: 'Explorer Expanse', specFocus: { x: 24, y: 30 } },
] as const;

export type RegionName = (typeof REGION_DEFINITIONS)[number]['name'];

/** 'Tech Creator Core' -> 'tech-creator-core': lower case, runs of anything but a-z/0-9 become one '-'. */
export function regionSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Where the plots without a region (region_name null: claimed with no map, or on a tile outside every region) stand. */
export const UNCHARTED_REGION = { slug: 'uncharted', name: 'Uncharted Lands' } as const;

/**
 * The map's zooms and event for a region or plot: here rather than in ./regions.ts, because the map's first chunk
 * needs them and that module's schema would bring zod with them.
 */
export const REGION_FOCUS_ZOOM = 1.2;
export const PLOT_FOCUS_ZOOM = 1.5;

/** Payload of the browser event that moves the map to a region (spec section 2). */
export interface NavigateToRegionDetail {
  x: number;
  y: number;
  zoom: number;
  regionName: string;
}
export const NAVIGATE_TO_REGION_EVENT = 'navigateToRegion';
