import { SCHEMA, type Tx } from '../db.ts';
import { updatePlotContent, type PlotChange } from './plot-updated.ts';

export type EditDecisionOutcome = 'applied' | 'dropped' | 'stale' | 'unknown';

/**
 * `moderation.edit.approved` / `moderation.edit.rejected`, inside the inbox transaction. Approved: the held
 * message and link replace the plot's (`plots.plot.updated`). Rejected: the edit is dropped, the plot unchanged.
 * An edit that is no longer pending (superseded by a newer edit, decided already, its plot removed) changes nothing.
 */
export async function decidePlotEdit(options: {
  tx: Tx;
  editId: string;
  approved: boolean;
  decidedAt: string;
  requestId?: string;
}): Promise<EditDecisionOutcome> {
  const { tx } = options;
  const edit = await tx.plotEdit.findUnique({
    where: { id: options.editId },
    include: { plot: { select: { message: true, link: true, removedAt: true } } },
  });
  if (!edit) return 'unknown';
  await tx.$executeRawUnsafe(`SELECT 1 FROM "${SCHEMA}"."plots" WHERE "id" = $1::uuid FOR UPDATE`, edit.plotId);
  const decidedAt = new Date(options.decidedAt);
  const claimed = await tx.plotEdit.updateMany({
    where: { id: edit.id, status: 'pending' },
    data: { status: options.approved ? 'approved' : 'rejected', decidedAt: Number.isNaN(decidedAt.getTime()) ? new Date() : decidedAt },
  });
  if (claimed.count !== 1 || edit.plot.removedAt) return 'stale';
  if (!options.approved) return 'dropped';
  const changed: PlotChange[] = [];
  if (edit.message !== edit.plot.message) changed.push('message');
  if (edit.link !== edit.plot.link) changed.push('link');
  if (!changed.length) return 'applied';
  await updatePlotContent({
    tx,
    plotId: edit.plotId,
    data: { message: edit.message, link: edit.link },
    changed,
    requestId: options.requestId,
  });
  return 'applied';
}
