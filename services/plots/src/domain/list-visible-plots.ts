import type { Plot as PlotDto } from '@pixel-atlas/contracts/plots';
import type { PrismaClient } from '../db.ts';
import { PLOT_PUBLIC_SELECT, PUBLIC_PLOT_WHERE, toPlotDto } from '../plot-dto.ts';

/** Every visible, not removed plot, oldest first, without image bytes (the source of the in-memory list). */
export async function listVisiblePlots({ db }: { db: PrismaClient }): Promise<PlotDto[]> {
  const rows = await db.plot.findMany({
    where: PUBLIC_PLOT_WHERE,
    select: PLOT_PUBLIC_SELECT,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toPlotDto);
}
