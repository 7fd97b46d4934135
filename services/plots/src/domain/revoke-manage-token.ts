import { AppError } from '@pixel-atlas/service-kit/errors';
import type { PrismaClient } from '../db.ts';
import { isUuid } from '../plot-dto.ts';
import { PLOT_NOT_FOUND_MESSAGE } from './get-plot.ts';

/**
 * POST /api/admin/plots/:id/revoke-manage-link: an admin cuts off the plot's owner link (a leaked link, an owner
 * dispute). The hash is cleared, so no token opens the plot until a new one is issued. `revoked` is false when
 * there was no live link. Unknown plot: 404.
 */
export async function revokeManageToken({
  db,
  plotId,
  admin,
}: {
  db: PrismaClient;
  plotId: string;
  admin: string;
}): Promise<{ plotId: string; revoked: boolean }> {
  const plot = isUuid(plotId) ? await db.plot.findUnique({ where: { id: plotId }, select: { id: true } }) : null;
  if (!plot) throw new AppError('PLOT_NOT_FOUND', PLOT_NOT_FOUND_MESSAGE);
  const revoked = await db.plotManageToken.updateMany({
    where: { plotId, tokenHash: { not: null } },
    data: { tokenHash: null, revokedAt: new Date(), revokedBy: admin },
  });
  return { plotId, revoked: revoked.count === 1 };
}
