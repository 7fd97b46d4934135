import { NEIGHBOUR_COUNT, type PlotNeighbours } from '@pixel-atlas/contracts/directory';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { TABLE, type PrismaClient } from '../db.ts';
import { PLOT_PUBLIC_SELECT, PUBLIC_PLOT_WHERE, isUuid, toPlotDto } from '../plot-dto.ts';
import { PLOT_NOT_FOUND_MESSAGE } from './get-plot.ts';

/**
 * Nearest-first candidates read from the GiST index: more than NEIGHBOUR_COUNT so that plots at the same distance are
 * ordered by position (y, x) rather than by the index's whim, the same answer on every replica and every rebuild.
 */
const CANDIDATES = NEIGHBOUR_COUNT * 4;

/**
 * A plot page's "Neighbours": the NEIGHBOUR_COUNT public plots whose centres are nearest to this plot's centre, nearest
 * first (ties by y, then x), never the plot itself. Not found unless the plot itself is public.
 */
export async function listPlotNeighbours({ db, id }: { db: PrismaClient; id: string }): Promise<PlotNeighbours> {
  const plot = isUuid(id)
    ? await db.plot.findFirst({ where: { id, ...PUBLIC_PLOT_WHERE }, select: { id: true, x: true, y: true, size: true } })
    : null;
  if (!plot) throw new AppError('PLOT_NOT_FOUND', PLOT_NOT_FOUND_MESSAGE);
  const cx = plot.x + plot.size / 2;
  const cy = plot.y + plot.size / 2;
  // The ORDER BY expression is the index's (plots_public_center_idx), and so is the WHERE: a nearest-first index scan.
  const ids = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT n."id"::text AS id FROM (
       SELECT "id", "x", "y", point("x" + "size" / 2.0, "y" + "size" / 2.0) <-> point($2, $3) AS distance
         FROM ${TABLE.plots}
        WHERE "visible" AND "removed_at" IS NULL AND "id" <> $1::uuid
        ORDER BY point("x" + "size" / 2.0, "y" + "size" / 2.0) <-> point($2, $3)
        LIMIT ${CANDIDATES}
     ) AS n ORDER BY n.distance, n."y", n."x" LIMIT ${NEIGHBOUR_COUNT}`,
    plot.id,
    cx,
    cy,
  );
  if (!ids.length) return { plots: [] };
  const rows = await db.plot.findMany({ where: { id: { in: ids.map((r) => r.id) } }, select: PLOT_PUBLIC_SELECT });
  const order = new Map(ids.map((r, i) => [r.id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { plots: rows.map(toPlotDto) };
}
