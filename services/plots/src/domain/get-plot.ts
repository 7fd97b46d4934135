import type { Plot as PlotDto } from '@pixel-atlas/contracts/plots';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { PrismaClient } from '../db.ts';
import { PLOT_PUBLIC_SELECT, PUBLIC_PLOT_WHERE, isUuid, toPlotDto } from '../plot-dto.ts';

export const PLOT_NOT_FOUND_MESSAGE = 'Plot not found';

/** One visible plot; unknown, removed and hidden (under review) plots are all simply not found. */
export async function getPlot({ db, id }: { db: PrismaClient; id: string }): Promise<PlotDto> {
  const row = isUuid(id) ? await db.plot.findFirst({ where: { id, ...PUBLIC_PLOT_WHERE }, select: PLOT_PUBLIC_SELECT }) : null;
  if (!row) throw new AppError('PLOT_NOT_FOUND', PLOT_NOT_FOUND_MESSAGE);
  return toPlotDto(row);
}

/**
 * The stored square avatar of a visible plot (a removed plot's avatar is deleted anyway): a WebP of at most 1152 px, or
 * a PNG of at most 512 stored before WebP (the column kept its name, `png`). And its version (0 as claimed, +1 per
 * replacement: the `?v=` of the plot's `avatar_url`).
 */
export async function getPlotAvatar({ db, id }: { db: PrismaClient; id: string }): Promise<{ image: Buffer; version: number }> {
  const row = isUuid(id)
    ? await db.plotAvatar.findFirst({
        where: { plotId: id, plot: PUBLIC_PLOT_WHERE },
        select: { png: true, plot: { select: { avatarVersion: true } } },
      })
    : null;
  if (!row) throw new AppError('PLOT_NOT_FOUND', PLOT_NOT_FOUND_MESSAGE);
  return { image: Buffer.from(row.png), version: row.plot.avatarVersion };
}
