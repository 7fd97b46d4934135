/*
 * The directory's regions for the app's first chunk (the footer links each one on every page, the prerendered home
 * screen included). The contracts' REGION_DEFINITIONS and regionSlug live beside zod schemas, and importing them here
 * would put all of zod into the first paint; region-directory.test.ts keeps this list equal to them.
 */

/** REGION_DEFINITIONS' names, in the map's order. */
export const REGION_NAMES = [
  'Knowledge Knolls',
  'Wellness Wilds',
  'Creator Coast',
  'Tech Creator Core',
  'Startup Steppes',
  'Maker Moorlands',
  'Vibe Coding Vale',
  'Pixel Plains',
  'Edu Archipelago',
  'Aesthetic Alley',
  'Forum Fields',
  'Influencer Isles',
  'Explorer Expanse',
] as const;

/** UNCHARTED_REGION: where plots outside every region are listed. */
export const UNCHARTED = { slug: 'uncharted', name: 'Uncharted Lands' } as const;

/** regionSlug of the contracts: 'Tech Creator Core' -> 'tech-creator-core'. */
export function slugOfRegion(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The address of a region's page; page 1 has no `?page`. */
export function regionPagePath(slug: string, page = 1): string {
  const base = `/regions/${encodeURIComponent(slug)}`;
  return page > 1 ? `${base}?page=${page}` : base;
}

/** Every region's page, in the map's order. */
export const REGION_PAGE_LINKS: ReadonlyArray<{ name: string; to: string }> = REGION_NAMES.map((name) => ({
  name,
  to: regionPagePath(slugOfRegion(name)),
}));

/** The region page a plot stands on: its region's, or the Uncharted Lands' for a plot outside every region. */
export function plotRegion(regionName: string | null | undefined): { name: string; to: string } {
  if (!regionName) return { name: UNCHARTED.name, to: regionPagePath(UNCHARTED.slug) };
  return { name: regionName, to: regionPagePath(slugOfRegion(regionName)) };
}

/** '1 plot', '48 plots'. */
export function plotCountText(count: number): string {
  return `${count} ${count === 1 ? 'plot' : 'plots'}`;
}
