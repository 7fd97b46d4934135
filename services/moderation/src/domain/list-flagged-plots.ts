import type { FlaggedPlot } from '@pixel-atlas/contracts/admin';
import type { PrismaClient } from '../db.ts';
import { toFlaggedPlot } from './review-item.ts';

/** The review queue an admin works through: pending reviews only, oldest first. */
export async function listFlaggedPlots({ db }: { db: PrismaClient }): Promise<FlaggedPlot[]> {
  const items = await db.reviewItem.findMany({ where: { status: 'pending' }, orderBy: [{ queuedAt: 'asc' }, { id: 'asc' }] });
  return items.map(toFlaggedPlot);
}

/** How many reviews wait for an admin (the moderation_queue_pending gauge). */
export async function countPendingReviews({ db }: { db: PrismaClient }): Promise<number> {
  return db.reviewItem.count({ where: { status: 'pending' } });
}
