import type { ReservedFootprint } from '@pixel-atlas/contracts/plots';
import { TABLE, type PrismaClient } from '../db.ts';

/**
 * Land that looks free on the public map but cannot be bought now: live checkout holds ('held') and
 * plots waiting for moderation ('review'). Only position, size and reason leave this function: a hidden
 * plot's name, id or owner and a hold's session stay private. Ordered so equal lists serialise equally
 * (the ETag stays the same between polls).
 */
export async function listReservedFootprints(options: { db: PrismaClient }): Promise<ReservedFootprint[]> {
  const rows = await options.db.$queryRawUnsafe<Array<{ x: number; y: number; size: number; reason: 'held' | 'review' }>>(
    `SELECT f."x", f."y", f."size", CASE WHEN f."kind" = 'hold' THEN 'held' ELSE 'review' END AS reason
       FROM ${TABLE.footprints} f
       LEFT JOIN ${TABLE.plots} p ON p."id" = f."plot_id"
      WHERE (f."kind" = 'hold' AND f."expires_at" > now())
         OR (f."kind" = 'plot' AND p."visible" = false AND p."removed_at" IS NULL)
      ORDER BY f."y", f."x"`,
  );
  return rows.map((row) => ({ x: row.x, y: row.y, size: row.size, reason: row.reason }));
}
