import type { Tx } from '../db.ts';

/**
 * plots.plot.removed: the payment record stays (privacy page: kept for the life of the site or 7 years),
 * only its link to the plot goes. The used session stays used: a removed plot is not a refund.
 */
export async function unlinkRemovedPlot({ tx, plotId }: { tx: Tx; plotId: string }): Promise<void> {
  await tx.payment.updateMany({ where: { plotId }, data: { plotId: null } });
}
