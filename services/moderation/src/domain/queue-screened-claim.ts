import type { EventData } from '@pixel-atlas/contracts/events';
import type { Tx } from '../db.ts';
import { lockPlot, mergeReasons, mergeSource, snapshotColumns } from './review-item.ts';

export interface QueueScreenedClaimOptions {
  tx: Tx;
  claim: EventData<'plots.plot.claimed'>;
}

export type QueueScreenedClaimOutcome = 'clean' | 'queued' | 'merged' | 'already-reviewed';

/** Reason given when plots hid a claim without naming words (it should not, but the plot still needs a review). */
export const HIDDEN_WITHOUT_WORDS_REASON = 'Held for review by the automatic content screen';

/**
 * Applies `plots.plot.claimed`: keeps the owner's notification address, and puts a claim the screen
 * caught (screened words, or created hidden) into the review queue with the words as its reasons.
 * A clean claim never enters the queue. A visitor flag that arrived first is joined (source 'both').
 */
export async function queueScreenedClaim({ tx, claim }: QueueScreenedClaimOptions): Promise<QueueScreenedClaimOutcome> {
  if (claim.notificationEmail) {
    await tx.plotContact.upsert({
      where: { plotId: claim.plotId },
      create: { plotId: claim.plotId, notificationEmail: claim.notificationEmail },
      update: { notificationEmail: claim.notificationEmail },
    });
  }
  if (claim.screenedWords.length === 0 && claim.visible) return 'clean';

  const reasons = mergeReasons(claim.screenedWords, claim.screenedWords.length ? [] : [HIDDEN_WITHOUT_WORDS_REASON]);
  await lockPlot(tx, claim.plotId);
  const pending = await tx.reviewItem.findFirst({ where: { plotId: claim.plotId, kind: 'plot', status: 'pending' } });
  if (pending) {
    await tx.reviewItem.update({
      where: { id: pending.id },
      data: { source: mergeSource(pending.source, 'screen'), reasons: mergeReasons(reasons, pending.reasons), updatedAt: new Date() },
    });
    return 'merged';
  }
  // Plot content never changes after submission: a decision already taken on it (a visitor flag reached
  // us before this claim event) covers what the screen found.
  const decided = await tx.reviewItem.findFirst({ where: { plotId: claim.plotId, kind: 'plot' } });
  if (decided) return 'already-reviewed';
  await tx.reviewItem.create({ data: { ...snapshotColumns(claim), source: 'screen', reasons, flagCount: 0 } });
  return 'queued';
}
