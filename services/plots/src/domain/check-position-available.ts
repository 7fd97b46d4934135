import type { PositionAvailable } from '@pixel-atlas/contracts/plots';
import { footprintInsideGrid } from '@pixel-atlas/contracts/grid';
import { footprintIsLandQuery } from '@pixel-atlas/contracts/queries';
import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tiers';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import { TABLE, type PrismaClient } from '../db.ts';
import { OVERLAPS_SQL } from './footprints.ts';

/**
 * GET /api/position-available: whether a plot of the tier (basic when not given) could be bought at (x, y)
 * now. Not a promise: the hold taken at checkout is.
 */
export async function checkPositionAvailable(options: { db: PrismaClient; bus: EventBus; x: number; y: number; tier?: Tier }): Promise<PositionAvailable> {
  const footprint = { x: options.x, y: options.y, size: TIER_SIZE[options.tier ?? 'basic'] };
  if (!footprintInsideGrid(footprint)) return { available: false, reason: 'out_of_grid' };
  const blockers = await options.db.$queryRawUnsafe<Array<{ kind: string }>>(
    `SELECT "kind" FROM ${TABLE.footprints} WHERE (("kind" = 'plot') OR ("kind" = 'hold' AND "expires_at" > now())) AND ${OVERLAPS_SQL} ORDER BY "kind" DESC LIMIT 1`,
    footprint.x,
    footprint.y,
    footprint.size,
  );
  if (blockers[0]?.kind === 'plot') return { available: false, reason: 'taken' };
  if (blockers[0]?.kind === 'hold') return { available: false, reason: 'held' };
  const { mapExists, land } = await query(options.bus, footprintIsLandQuery, footprint);
  if (!mapExists) return { available: false, reason: 'no_map' };
  if (!land) return { available: false, reason: 'water' };
  return { available: true };
}
