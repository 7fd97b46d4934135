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
