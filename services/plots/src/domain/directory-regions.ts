import { regionSlug, UNCHARTED_REGION, type RegionSummary } from '@pixel-atlas/contracts/directory';
import { REGION_DEFINITIONS } from '@pixel-atlas/contracts/regions';
import { TABLE, type PrismaClient } from '../db.ts';

/** A region of the directory: one of the map's thirteen, or Uncharted (every public plot standing in none of them). */
export interface DirectoryRegion {
  slug: string;
  name: string;
  uncharted: boolean;
}

const NAMED_REGIONS: DirectoryRegion[] = REGION_DEFINITIONS.map(({ name }) => ({ slug: regionSlug(name), name, uncharted: false }));
const REGION_NAMES = NAMED_REGIONS.map((region) => region.name);

/** The thirteen regions in REGION_DEFINITIONS order, then Uncharted. */
export const DIRECTORY_REGIONS: readonly DirectoryRegion[] = [...NAMED_REGIONS, { ...UNCHARTED_REGION, uncharted: true }];

export function directoryRegionBySlug(slug: string): DirectoryRegion | undefined {
  return DIRECTORY_REGIONS.find((region) => region.slug === slug);
}

/** Which of the thirteen a plot's region_name is, by name; anything else (null, a name no longer used) is Uncharted. */
export function directoryRegionOf(regionName: string | null): DirectoryRegion {
  return NAMED_REGIONS.find((region) => region.name === regionName) ?? DIRECTORY_REGIONS.at(-1)!;
}

/**
 * The SQL condition of "a public plot of this region", written out (not Prisma's `visible = $n`) so PostgreSQL can use
 * the partial index plots_public_region_position_idx. Uncharted also takes names that are not one of the thirteen, so
 * no public plot is missing from the directory whatever its stored region.
 */
export function publicPlotsOf(region: DirectoryRegion): { where: string; params: unknown[] } {
  const visible = `"visible" AND "removed_at" IS NULL`;
  return region.uncharted
    ? { where: `${visible} AND ("region_name" IS NULL OR NOT ("region_name" = ANY($1::text[])))`, params: [REGION_NAMES] }
    : { where: `${visible} AND "region_name" = $1`, params: [region.name] };
}

/** How many public plots a region holds, and when the latest of them was claimed or changed. */
export async function summariseRegion(db: PrismaClient, region: DirectoryRegion): Promise<RegionSummary> {
  const { where, params } = publicPlotsOf(region);
  const [row] = await db.$queryRawUnsafe<Array<{ count: number; last: Date | null }>>(
    `SELECT count(*)::int AS count, max(greatest("created_at", "content_updated_at")) AS last FROM ${TABLE.plots} WHERE ${where}`,
    ...params,
  );
  return { slug: region.slug, name: region.name, plotCount: row?.count ?? 0, lastModified: row?.last?.toISOString() ?? null };
}
