import type { Footprint } from '@pixel-atlas/contracts/grid';
import type { LayoutCache } from './layout-cache.ts';
import { footprintIsLand, regionAt } from './land-mask.ts';

/**
 * Answers other services' 'is every tile of this square land?' from the cached mask, with the region of
 * the square's top-left tile (plots stores it as the plot's region; null on water or with no map).
 */
export async function checkFootprintLand({ cache, footprint }: { cache: LayoutCache; footprint: Footprint }) {
  const layout = await cache.get();
  if (!layout) return { mapExists: false, land: false, regionName: null };
  return {
    mapExists: true,
    land: footprintIsLand(layout.landMask, footprint),
    regionName: regionAt(layout.regions, footprint.x, footprint.y),
  };
}

/** The land mask and region index as `landMaskQuery` sends them, read fresh from the database (see `LayoutCache.fresh`). */
export async function landMaskAnswer({ cache }: { cache: LayoutCache }) {
  const layout = await cache.fresh();
  if (!layout) return { mapExists: false as const };
  return {
    mapExists: true as const,
    size: layout.landMask.size,
    land: Buffer.from(layout.landMask.cells).toString('base64'),
    regions: Buffer.from(layout.regions.codes).toString('base64'),
    regionNames: layout.regions.names,
  };
}
