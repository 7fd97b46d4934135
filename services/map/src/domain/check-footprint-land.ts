import type { Footprint } from '@pixel-atlas/contracts/grid';
import type { LayoutCache } from './layout-cache.ts';
import { footprintIsLand } from './land-mask.ts';

/** Answers other services' 'is every tile of this square land?' from the cached mask. */
export async function checkFootprintLand({ cache, footprint }: { cache: LayoutCache; footprint: Footprint }) {
  const layout = await cache.get();
  if (!layout) return { mapExists: false, land: false };
  return { mapExists: true, land: footprintIsLand(layout.landMask, footprint) };
}
