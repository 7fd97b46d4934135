import type { EventData } from '@pixel-atlas/contracts/events';
import type { Tx } from '../db.ts';
import { lockPlot, mergeReasons, snapshotColumns } from './review-item.ts';

export type QueueOwnerEditOutcome = 'queued' | 'replaced';

/**
 * Applies `plots.edit.submitted`: an owner's edit the screen held waits for an admin, beside (not inside) any
 * review of the plot itself. The review shows the proposed message and link, what the plot shows now, and the
 * words found. A newer edit of the same plot replaces the pending one (plots has superseded the older edit).
 */
export async function queueOwnerEdit({ tx, edit }: { tx: Tx; edit: EventData<'plots.edit.submitted'> }): Promise<QueueOwnerEditOutcome> {
  await lockPlot(tx, edit.plotId);
  const columns = {
    ...snapshotColumns({ ...edit, message: edit.proposed.message, link: edit.proposed.link }),
    kind: 'edit',
    editId: edit.editId,
    currentMessage: edit.message,
    currentLink: edit.link,
    source: 'screen',
    reasons: mergeReasons(edit.screenedWords, []),
    flagCount: 0,
  };
  const pending = await tx.reviewItem.findFirst({ where: { plotId: edit.plotId, kind: 'edit', status: 'pending' } });
  if (pending) {
    await tx.reviewItem.update({ where: { id: pending.id }, data: { ...columns, updatedAt: new Date() } });
    return 'replaced';
  }
  await tx.reviewItem.create({ data: columns });
  return 'queued';
}
