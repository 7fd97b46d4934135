import type { ManagePage } from '@pixel-atlas/contracts/manage';
import type { PrismaClient } from '../db.ts';
import { toPlotDto } from '../plot-dto.ts';
import { getLinkHealth } from './get-link-health.ts';
import { getPlotStats } from './get-plot-stats.ts';
import { plotForManageToken } from './manage-token.ts';

/** GET /api/manage/:token: the owner's plot (hidden ones too), a held edit if any, 30 days of counts, the link's health. */
export async function getManagePage({ db, token }: { db: PrismaClient; token: string }): Promise<ManagePage> {
  const plot = await plotForManageToken({ db, token });
  const [pending, stats, linkHealth] = await Promise.all([
    db.plotEdit.findFirst({ where: { plotId: plot.id, status: 'pending' } }),
    getPlotStats({ db, plotId: plot.id }),
    getLinkHealth({ db, plotId: plot.id }),
  ]);
  return {
    plot: { ...toPlotDto(plot), visible: plot.visible },
    pendingEdit: pending ? { message: pending.message, link: pending.link, submittedAt: pending.createdAt.toISOString() } : null,
    stats,
    linkHealth,
  };
}
