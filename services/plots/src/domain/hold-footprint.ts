import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tiers';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import type { PrismaClient } from '../db.ts';
import {
  TILE_UNAVAILABLE_MESSAGE,
  assertPlaceable,
  isOverlapViolation,
  isUniqueViolation,
  makeRoomFor,
  type LandSource,
} from './footprints.ts';

export interface HoldFootprintOptions {
  db: PrismaClient;
  bus: EventBus;
  holdId: string;
  tier: Tier;
  x: number;
  y: number;
  expiresAt: string;
  maxHoldSeconds: number;
  /** This replica's copy of the land mask; without it the map is asked. */
  land?: LandSource;
}

/**
 * holdFootprintCommand: keeps a footprint free for the life of a checkout session. Refused (before any
 * money is asked for) when it leaves the grid, touches water, or overlaps a plot or a live hold. The same
 * holdId twice is the same hold (a retried command).
 */
export async function holdFootprint(options: HoldFootprintOptions): Promise<{ held: true }> {
  const { db, bus, holdId, tier, x, y } = options;
  const footprint = { x, y, size: TIER_SIZE[tier] };
  const expiresAt = new Date(options.expiresAt);
  const now = Date.now();
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now || expiresAt.getTime() > now + options.maxHoldSeconds * 1000) {
    throw new AppError('VALIDATION_FAILED', `expiresAt must be a time within the next ${options.maxHoldSeconds} seconds`);
  }
  if (await db.footprint.findUnique({ where: { holdId }, select: { id: true } })) return { held: true };
  await assertPlaceable(bus, footprint, options.land);
  try {
    await db.$transaction(
      async (tx) => {
        await makeRoomFor(tx, footprint);
        await tx.footprint.create({ data: { ...footprint, kind: 'hold', holdId, tier, expiresAt } });
      },
      { maxWait: 10_000, timeout: 10_000 },
    );
  } catch (error) {
    if (isOverlapViolation(error)) throw new AppError('TILE_UNAVAILABLE', TILE_UNAVAILABLE_MESSAGE);
    if (isUniqueViolation(error, 'footprints_hold_id_key')) return { held: true };
    throw error;
  }
  return { held: true };
}
