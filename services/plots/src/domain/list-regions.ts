import type { RegionList, RegionSummary } from '@pixel-atlas/contracts/directory';
import { TABLE, type PrismaClient } from '../db.ts';
import { DIRECTORY_REGIONS, directoryRegionOf } from './directory-regions.ts';

/**
 * `/regions`: the thirteen regions in their order with their public plots counted (empty ones too), then Uncharted
 * only when some public plot stands outside every region. One grouped scan of the public plots' index entries.
 */
export async function listRegions({ db }: { db: PrismaClient }): Promise<RegionList> {
  const rows = await db.$queryRawUnsafe<Array<{ region_name: string | null; count: number; last: Date | null }>>(
    `SELECT "region_name", count(*)::int AS count, max(greatest("created_at", "content_updated_at")) AS last
       FROM ${TABLE.plots} WHERE "visible" AND "removed_at" IS NULL GROUP BY "region_name"`,
  );
  const totals = new Map<string, { count: number; last: Date | null }>();
  for (const row of rows) {
    const { slug } = directoryRegionOf(row.region_name);
    const total = totals.get(slug) ?? { count: 0, last: null };
    total.count += row.count;
    if (row.last && (!total.last || row.last > total.last)) total.last = row.last;
    totals.set(slug, total);
  }
  const regions: RegionSummary[] = [];
  for (const region of DIRECTORY_REGIONS) {
    const total = totals.get(region.slug);
    if (region.uncharted && !total?.count) continue;
    regions.push({
      slug: region.slug,
      name: region.name,
      plotCount: total?.count ?? 0,
      lastModified: total?.last?.toISOString() ?? null,
    });
  }
  return { regions };
}
