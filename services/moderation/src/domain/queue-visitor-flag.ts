import type { EventData, EventEnvelope } from '@pixel-atlas/contracts/events';
import type { Tx } from '../db.ts';
import { lockPlot, mergeReasons, mergeSource, snapshotColumns } from './review-item.ts';

export interface QueueVisitorFlagOptions {
  tx: Tx;
  flag: EventEnvelope<EventData<'plots.plot.flagged'>>;
}

export type QueueVisitorFlagOutcome = 'queued' | 'merged' | 'requeued' | 'ignored-rejected' | 'ignored-before-decision';

export const DEFAULT_FLAG_REASON = 'Flagged by a visitor';

/**
 * Applies `plots.plot.flagged`. Flags never hide anything here: they only put the plot in front of an
 * admin. One pending review per plot (more flags raise its count and add their reasons); a plot
 * approved earlier and flagged again gets a new review; a rejected plot is gone and stays gone.
 */
export async function queueVisitorFlag({ tx, flag }: QueueVisitorFlagOptions): Promise<QueueVisitorFlagOutcome> {
  const data = flag.data;
  const reason = data.reason?.trim() || DEFAULT_FLAG_REASON;
  await lockPlot(tx, data.plotId);
  const pending = await tx.reviewItem.findFirst({ where: { plotId: data.plotId, kind: 'plot', status: 'pending' } });
  if (pending) {
    await tx.reviewItem.update({
      where: { id: pending.id },
      data: {
        source: mergeSource(pending.source, 'visitor'),
        reasons: mergeReasons(pending.reasons, [reason]),
        // Events may arrive out of order: the count only grows.
        flagCount: Math.max(pending.flagCount, data.flagCount),
        updatedAt: new Date(),
      },
    });
    return 'merged';
  }
  const last = await tx.reviewItem.findFirst({ where: { plotId: data.plotId, kind: 'plot' }, orderBy: { decidedAt: 'desc' } });
  if (last?.status === 'rejected') return 'ignored-rejected';
  // A flag raised before the approval was part of what the admin judged (it was only delivered late).
  if (last?.decidedAt && new Date(flag.occurredAt) <= last.decidedAt) return 'ignored-before-decision';
  await tx.reviewItem.create({ data: { ...snapshotColumns(data), source: 'visitor', reasons: [reason], flagCount: data.flagCount } });
  return last ? 'requeued' : 'queued';
}
