import { REGION_DEFINITIONS, regionSlug, UNCHARTED_REGION } from '@pixel-atlas/contracts/region-catalog';

/*
 * The directory's addresses for the app's first chunk (the footer links each region on every page, the prerendered
 * home screen included): from the contracts' zod-free region catalog, so the first paint does not carry zod.
 */

/** The address of a region's page; page 1 has no `?page`. */
export function regionPagePath(slug: string, page = 1): string {
  const base = `/regions/${encodeURIComponent(slug)}`;
  return page > 1 ? `${base}?page=${page}` : base;
}

/** Every region's page, in the map's order. */
export const REGION_PAGE_LINKS: ReadonlyArray<{ name: string; to: string }> = REGION_DEFINITIONS.map(({ name }) => ({
  name,
  to: regionPagePath(regionSlug(name)),
}));

/** The region page a plot stands on: its region's, or the Uncharted Lands' for a plot outside every region. */
export function plotRegion(regionName: string | null | undefined): { name: string; to: string } {
  if (!regionName) return { name: UNCHARTED_REGION.name, to: regionPagePath(UNCHARTED_REGION.slug) };
  return { name: regionName, to: regionPagePath(regionSlug(regionName)) };
}

/** '1 plot', '48 plots'. */
export function plotCountText(count: number): string {
  return `${count} ${count === 1 ? 'plot' : 'plots'}`;
}
