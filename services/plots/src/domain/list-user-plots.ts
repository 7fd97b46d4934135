import type { Plot as PlotDto } from '@pixel-atlas/contracts/plots';
import { TABLE, type PrismaClient } from '../db.ts';
import { PLOT_PUBLIC_SELECT, toPlotDto, type PublicPlotRow } from '../plot-dto.ts';

/** The user page: visible, not removed plots whose display name equals the username, ignoring case (spec section 2). */
export async function listUserPlots({
  db,
  username,
}: {
  db: PrismaClient;
  username: string;
}): Promise<{ username: string; plots: PlotDto[] }> {
  const name = username.trim();
  // lower() = lower(): exact match ignoring case, served by the plots_display_name_lower_idx index (no LIKE wildcards).
  const ids = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT "id"::text AS id FROM ${TABLE.plots} WHERE "visible" AND "removed_at" IS NULL AND lower("display_name") = lower($1) ORDER BY "created_at", "id"`,
    name,
  );
  const rows: PublicPlotRow[] = ids.length
    ? await db.plot.findMany({
        where: { id: { in: ids.map((r) => r.id) } },
        select: PLOT_PUBLIC_SELECT,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      })
    : [];
  return { username: name, plots: rows.map(toPlotDto) };
}
