import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, TABLE, type Tx } from '../db.ts';

export type ApproveOutcome = 'published' | 'unknown' | 'ignored-removed';
export type RemoveOutcome = 'removed' | 'unknown' | 'ignored-removed';

/**
 * `moderation.plot.approved`: the plot becomes public (visible), reviewed, and no longer pending review,
 * unless a visitor flagged it after the decision (that flag is a new review moderation has already opened).
 * Emits `plots.plot.published` so every replica drops its list and live maps refresh. Runs inside the inbox
 * transaction: a redelivered event changes nothing twice. A removed (rejected) plot stays removed.
 */
export async function approvePlot({
  tx,
  plotId,
  decidedAt,
  requestId,
}: {
  tx: Tx;
  plotId: string;
  decidedAt: string;
  requestId?: string;
}): Promise<ApproveOutcome> {
  const [plot] = await tx.$queryRawUnsafe<Array<{ removed: boolean }>>(
    `SELECT ("removed_at" IS NOT NULL) AS removed FROM ${TABLE.plots} WHERE "id" = $1::uuid FOR UPDATE`,
    plotId,
  );
  if (!plot) return 'unknown';
  if (plot.removed) return 'ignored-removed';
  const decided = new Date(decidedAt);
  const flaggedSince = await tx.plotFlag.count({
    where: { plotId, createdAt: { gt: Number.isNaN(decided.getTime()) ? new Date(0) : decided } },
  });
  await tx.plot.update({ where: { id: plotId }, data: { visible: true, reviewed: true, flagged: flaggedSince > 0 } });
  await enqueueEvent({ tx, schema: SCHEMA, type: 'plots.plot.published', requestId, data: { plotId } });
  return 'published';
}

/**
 * `moderation.plot.rejected`: the plot is removed (policy: removal without refund). Its footprint goes (the
 * land is free again) and so does its avatar; the row stays for the record with `removed_at` set (and hidden),
 * so every public read leaves it out. Emits `plots.plot.removed` (payments unlinks the payment and keeps it;
 * live maps drop the plot). Idempotent: a plot already removed, or unknown, changes nothing.
 */
export async function removePlot({
  tx,
  plotId,
  reason,
  requestId,
}: {
  tx: Tx;
  plotId: string;
  reason: string;
  requestId?: string;
}): Promise<RemoveOutcome> {
  const [plot] = await tx.$queryRawUnsafe<Array<{ session_id: string; removed: boolean }>>(
    `SELECT "stripe_session_id" AS session_id, ("removed_at" IS NOT NULL) AS removed FROM ${TABLE.plots} WHERE "id" = $1::uuid FOR UPDATE`,
    plotId,
  );
  if (!plot) return 'unknown';
  if (plot.removed) return 'ignored-removed';
  await tx.footprint.deleteMany({ where: { plotId } });
  await tx.plotAvatar.deleteMany({ where: { plotId } });
  await tx.plot.update({ where: { id: plotId }, data: { removedAt: new Date(), visible: false } });
  await enqueueEvent({
    tx,
    schema: SCHEMA,
    type: 'plots.plot.removed',
    requestId,
    data: { plotId, sessionId: plot.session_id, reason },
  });
  return 'removed';
}
