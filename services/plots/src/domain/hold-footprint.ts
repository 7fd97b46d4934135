import type { HoldMode } from '@pixel-atlas/contracts/queries';
import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tiers';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { TABLE, type PrismaClient, type Tx } from '../db.ts';
import {
  OVERLAPS_SQL,
  TILE_UNAVAILABLE_MESSAGE,
  assertPlaceable,
  isOverlapViolation,
  isUniqueViolation,
  makeRoomFor,
  type LandSource,
} from './footprints.ts';
import { UNPAID_HOLD_SQL } from './release-hold.ts';

export const HOLD_CEILING_MESSAGE =
  'Too much land is reserved for checkouts right now, so this spot cannot be held for you. Please try again in a few minutes.';

/**
 * The first key of the transaction-scoped advisory lock every new hold takes to count the held land (its own row
 * included) before it commits: the decisive counts are taken one at a time, so two racing checkouts cannot both fit
 * under the ceiling's last tiles. Claims and releases never take it (they only ever lower the count). The second key
 * is fixed.
 */
const HOLD_CEILING_LOCK = [72707371, 0] as const;

export interface HoldFootprintOptions {
  db: PrismaClient;
  bus: EventBus;
  holdId: string;
  tier: Tier;
  x: number;
  y: number;
  expiresAt: string;
  /** `required` (default): hold or refuse; `if-room`: hold under the ceiling, else only check; `none`: only check. */
  mode?: HoldMode;
  maxHoldSeconds: number;
  /** The most of the free land (land not under a plot) that unpaid holds may cover at once, in percent. */
  maxHeldPercent: number;
  /** Land tiles on the map (this replica's copy of the mask). */
  landTiles: () => Promise<number>;
  /** This replica's copy of the land mask; without it the map is asked. */
  land?: LandSource;
}

/** Tiles under plots, and tiles under live holds whose checkout is not paid (a paid hold is a plot-to-be). */
async function landInUse(tx: Tx): Promise<{ plotTiles: number; heldTiles: number }> {
  const [row] = await tx.$queryRawUnsafe<Array<{ plot_tiles: number; held_tiles: number }>>(
    `SELECT coalesce(sum(f."size" * f."size") FILTER (WHERE f."kind" = 'plot'), 0)::int AS plot_tiles,
            coalesce(sum(f."size" * f."size") FILTER (WHERE f."kind" = 'hold' AND f."expires_at" > now() AND ${UNPAID_HOLD_SQL}), 0)::int AS held_tiles
       FROM ${TABLE.footprints} f`,
  );
  return { plotTiles: row?.plot_tiles ?? 0, heldTiles: row?.held_tiles ?? 0 };
}

/** The ceiling on held land: `maxHeldPercent` of the land no plot stands on. */
export function heldTilesCeiling(landTiles: number, plotTiles: number, maxHeldPercent: number): number {
  return Math.floor((Math.max(0, landTiles - plotTiles) * maxHeldPercent) / 100);
}

/** Refuses a footprint a plot or another live hold overlaps, without holding it. */
async function assertFree(tx: Tx, footprint: { x: number; y: number; size: number }): Promise<void> {
  const taken = await tx.$queryRawUnsafe<unknown[]>(
    `SELECT 1 FROM ${TABLE.footprints} WHERE ("kind" = 'plot' OR "expires_at" > now()) AND ${OVERLAPS_SQL} LIMIT 1`,
    footprint.x,
    footprint.y,
    footprint.size,
  );
  if (taken.length > 0) throw new AppError('TILE_UNAVAILABLE', TILE_UNAVAILABLE_MESSAGE);
}

/**
 * holdFootprintCommand: keeps a footprint free for the life of a checkout session. Refused (before any money is
 * asked for) when it leaves the grid, touches water, or overlaps a plot or a live hold. The same holdId twice is the
 * same hold (a retried command). Unpaid holds of every client together cover at most `maxHeldPercent` of the free
 * land: past that, `if-room` answers `held: false` once the footprint is found free (the buyer may still buy it,
 * unheld), and `required` refuses.
 */
export async function holdFootprint(options: HoldFootprintOptions): Promise<{ held: boolean }> {
  const { db, bus, holdId, tier, x, y } = options;
  const mode = options.mode ?? 'required';
  const footprint = { x, y, size: TIER_SIZE[tier] };
  const expiresAt = new Date(options.expiresAt);
  const now = Date.now();
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now || expiresAt.getTime() > now + options.maxHoldSeconds * 1000) {
    throw new AppError('VALIDATION_FAILED', `expiresAt must be a time within the next ${options.maxHoldSeconds} seconds`);
  }
  if (await db.footprint.findUnique({ where: { holdId }, select: { id: true } })) return { held: true };
  await assertPlaceable(bus, footprint, options.land);
  const landTiles = mode === 'none' ? 0 : await options.landTiles();
  try {
    return await db.$transaction(
      async (tx) => {
        if (mode === 'none') {
          await assertFree(tx, footprint);
          return { held: false };
        }
        const full = async (own: number) => {
          const { plotTiles, heldTiles } = await landInUse(tx);
          return heldTiles + own > heldTilesCeiling(landTiles, plotTiles, options.maxHeldPercent);
        };
        const unheld = async () => {
          if (mode === 'required') throw new AppError('CONFLICT', HOLD_CEILING_MESSAGE);
          await assertFree(tx, footprint);
          return { held: false };
        };
        // A first look without the lock: past the ceiling (what a flood of checkouts meets) nothing waits in line.
        if (await full(footprint.size ** 2)) return unheld();
        await makeRoomFor(tx, footprint);
        await tx.footprint.create({ data: { ...footprint, kind: 'hold', holdId, tier, expiresAt } });
        // Then the count that decides, under the lock and with this hold already in (each statement sees what the
        // holds before it committed): the lock is held only for this count and the commit, not the whole hold.
        await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1::int, $2::int)', ...HOLD_CEILING_LOCK);
        if (await full(0)) {
          await tx.footprint.delete({ where: { holdId } });
          return unheld();
        }
        return { held: true };
      },
      { maxWait: 10_000, timeout: 10_000 },
    );
  } catch (error) {
    if (isOverlapViolation(error)) throw new AppError('TILE_UNAVAILABLE', TILE_UNAVAILABLE_MESSAGE);
    if (isUniqueViolation(error, 'footprints_hold_id_key')) return { held: true };
    throw error;
  }
}
