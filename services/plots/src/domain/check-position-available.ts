import type { PositionAvailable } from '@pixel-atlas/contracts/plots';
import { footprintInsideGrid } from '@pixel-atlas/contracts/grid';
import { footprintIsLandQuery } from '@pixel-atlas/contracts/queries';
import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tiers';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import { TABLE, type PrismaClient } from '../db.ts';
import { OVERLAPS_SQL, type LandSource } from './footprints.ts';

interface Blocker {
  kind: string;
  plot_id: string | null;
  display_name: string | null;
  visible: boolean | null;
}

/**
 * GET /api/position-available: whether a plot of the tier (basic when not given) could be bought at (x, y)
 * now, and if not, the true reason. Not a promise: the hold taken at checkout is.
 *
 * When several footprints are in the way, a visible plot is named first (the buyer can see it and choose
 * around it), then a plot under review, then a hold. A hidden plot is never named: its owner has not been
 * published, and neither has the plot.
 */
export async function checkPositionAvailable(options: {
  db: PrismaClient;
  bus: EventBus;
  x: number;
  y: number;
  tier?: Tier;
  /** This replica's copy of the land mask; without it the map is asked. */
  land?: LandSource;
}): Promise<PositionAvailable> {
  const footprint = { x: options.x, y: options.y, size: TIER_SIZE[options.tier ?? 'basic'] };
  if (!footprintInsideGrid(footprint)) return { available: false, reason: 'out_of_grid' };
  const [blocker] = await options.db.$queryRawUnsafe<Blocker[]>(
    `SELECT f."kind", p."id" AS plot_id, p."display_name", p."visible"
       FROM (SELECT * FROM ${TABLE.footprints}
              WHERE (("kind" = 'plot') OR ("kind" = 'hold' AND "expires_at" > now())) AND ${OVERLAPS_SQL}) f
       LEFT JOIN ${TABLE.plots} p ON p."id" = f."plot_id"
      ORDER BY CASE WHEN f."kind" = 'plot' AND p."visible" THEN 0 WHEN f."kind" = 'plot' THEN 1 ELSE 2 END, f."y", f."x"
      LIMIT 1`,
    footprint.x,
    footprint.y,
    footprint.size,
  );
  if (blocker?.kind === 'plot' && blocker.visible && blocker.plot_id) {
    return { available: false, reason: 'taken', overlaps: { id: blocker.plot_id, display_name: blocker.display_name ?? '' } };
  }
  if (blocker?.kind === 'plot') return { available: false, reason: 'review' };
  if (blocker?.kind === 'hold') return { available: false, reason: 'held' };
  const { mapExists, land } = options.land
    ? await options.land.check(footprint)
    : await query(options.bus, footprintIsLandQuery, footprint);
  if (!mapExists) return { available: false, reason: 'no_map' };
  if (!land) return { available: false, reason: 'water' };
  return { available: true };
}
