import { DIRECTORY_PAGE_SIZE, type RegionPage } from '@pixel-atlas/contracts/directory';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { TABLE, type PrismaClient } from '../db.ts';
import { PLOT_PUBLIC_SELECT, toPlotDto } from '../plot-dto.ts';
import { directoryRegionBySlug, publicPlotsOf, summariseRegion } from './directory-regions.ts';

/**
 * `/regions/:slug?page=N`: one page of a region's public plots, row by row across the map (y, then x). Page 1 of an
 * empty region is an empty page; an unknown region or a page past the last is not found (a crawler's dead link).
 */
export async function listRegionPlots({ db, slug, page }: { db: PrismaClient; slug: string; page: number }): Promise<RegionPage> {
  const region = directoryRegionBySlug(slug);
  if (!region) throw new AppError('NOT_FOUND', 'Unknown region');
  const summary = await summariseRegion(db, region);
  const pageCount = Math.max(1, Math.ceil(summary.plotCount / DIRECTORY_PAGE_SIZE));
  if (page > pageCount) throw new AppError('NOT_FOUND', `This region has ${pageCount} page${pageCount === 1 ? '' : 's'}`);
  if (!summary.plotCount) return { region: summary, page, pageCount, plots: [] };

  const { where, params } = publicPlotsOf(region);
  // The ids first, from the partial index in (region, y, x) order; then the rows through Prisma, as every public read.
  const ids = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT "id"::text AS id FROM ${TABLE.plots} WHERE ${where} ORDER BY "y", "x", "id" LIMIT ${DIRECTORY_PAGE_SIZE} OFFSET ${(page - 1) * DIRECTORY_PAGE_SIZE}`,
    ...params,
  );
  const rows = ids.length ? await db.plot.findMany({ where: { id: { in: ids.map((r) => r.id) } }, select: PLOT_PUBLIC_SELECT }) : [];
  const order = new Map(ids.map((r, i) => [r.id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { region: summary, page, pageCount, plots: rows.map(toPlotDto) };
}
