import { GRID_SIZE, footprintInsideGrid, type Footprint } from '@pixel-atlas/contracts/grid';
import { footprintIsLandQuery } from '@pixel-atlas/contracts/queries';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { sqlState, violatedConstraint } from '@pixel-atlas/service-kit/failures';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import { TABLE, type Tx } from '../db.ts';

/** Spec section 5 texts. */
export const TILE_UNAVAILABLE_MESSAGE = 'This tile is already claimed. Please choose another.';
export const WATER_MESSAGE = 'You can only claim plots on land, not in water. Please choose another location.';
export const OUTSIDE_GRID_MESSAGE = 'This plot would not fit inside the map there. Please choose another location.';
export const NO_MAP_MESSAGE = 'The map is not available right now, so plots cannot be placed. Please try again later.';

/** SQL: the footprint row's half-open ranges overlap the square at ($1, $2) with side $3. */
export const OVERLAPS_SQL = `int4range("x", "x" + "size") && int4range($1::int, $1::int + $3::int) AND int4range("y", "y" + "size") && int4range($2::int, $2::int + $3::int)`;

/**
 * Refuses a footprint that leaves the grid or touches water; returns the region of its top-left tile. Checked
 * before any transaction, since it asks the map service.
 */
export async function assertPlaceable(bus: EventBus, footprint: Footprint, land?: LandSource): Promise<{ regionName: string | null }> {
  assertInsideGrid(footprint);
  return assertLand(bus, footprint, land);
}

/** This replica's copy of the land mask (`LandMaskCopy`): answers without asking the map each time. */
export interface LandSource {
  check(footprint: Footprint): Promise<{ mapExists: boolean; land: boolean; regionName?: string | null }>;
}

function assertInsideGrid(footprint: Footprint): void {
  if (!footprintInsideGrid(footprint)) throw new AppError('INVALID_LOCATION', OUTSIDE_GRID_MESSAGE);
}

/**
 * Whether every tile of the footprint is land, from this replica's copy of the map's mask when there is one, else
 * by asking the map service; returns the region of its top-left tile (null when the map does not say: an older map replica).
 */
async function assertLand(bus: EventBus, footprint: Footprint, source?: LandSource): Promise<{ regionName: string | null }> {
  const { mapExists, land, regionName } = source ? await source.check(footprint) : await query(bus, footprintIsLandQuery, footprint);
  if (!mapExists) throw new AppError('MAP_NOT_AVAILABLE', NO_MAP_MESSAGE);
  if (!land) throw new AppError('INVALID_LOCATION', WATER_MESSAGE);
  return { regionName: regionName ?? null };
}

/** Plot footprints are at most 4x4, so two overlapping footprints always share at least one 4x4 block. */
const LOCK_BLOCK = 4;
const BLOCKS_PER_ROW = Math.ceil(GRID_SIZE / LOCK_BLOCK);
/** The first key of every footprint advisory lock (the second is the block). */
export const FOOTPRINT_LOCK_NAMESPACE = 72707370;

/**
 * The advisory lock blocks a footprint touches, ascending: taken before a footprint is inserted, so a transaction
 * waits behind any other that is placing an overlapping footprint. Without them, two overlapping inserts can each
 * add their entry to the exclusion constraint's GiST index and then wait for each other (a deadlock PostgreSQL
 * breaks by aborting one, again and again under contention). One lock per 4x4 block, in ascending order, released
 * at commit; the exclusion constraint stays the final arbiter. The claim's `write_claim` SQL function takes the same.
 */
export function footprintLockBlocks(footprint: Footprint): number[] {
  const blocks = new Set<number>();
  for (let by = Math.floor(footprint.y / LOCK_BLOCK); by <= Math.floor((footprint.y + footprint.size - 1) / LOCK_BLOCK); by++) {
    for (let bx = Math.floor(footprint.x / LOCK_BLOCK); bx <= Math.floor((footprint.x + footprint.size - 1) / LOCK_BLOCK); bx++) {
      blocks.add(by * BLOCKS_PER_ROW + bx);
    }
  }
  return [...blocks].sort((a, b) => a - b);
}

async function lockFootprintArea(tx: Tx, footprint: Footprint): Promise<void> {
  const ordered = footprintLockBlocks(footprint);
  if (ordered.length === 1) {
    await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1::int, $2::int)', FOOTPRINT_LOCK_NAMESPACE, ordered[0]);
    return;
  }
  // One round trip for every block, still taken one by one in ascending order.
  await tx.$executeRawUnsafe(
    'SELECT pg_advisory_xact_lock($1::int, b) FROM unnest($2::int[]) WITH ORDINALITY AS t(b, n) ORDER BY n',
    FOOTPRINT_LOCK_NAMESPACE,
    ordered,
  );
}

/**
 * Readies the footprint's area for an insert in the caller's transaction: waits its turn behind overlapping
 * placements, then removes the expired holds under it. (A claim does the same, and drops its session's own hold, in
 * the `write_claim` SQL function.)
 */
export async function makeRoomFor(tx: Tx, footprint: Footprint): Promise<void> {
  await lockFootprintArea(tx, footprint);
  await tx.$executeRawUnsafe(
    `DELETE FROM ${TABLE.footprints} WHERE "kind" = 'hold' AND "expires_at" <= now() AND ${OVERLAPS_SQL}`,
    footprint.x,
    footprint.y,
    footprint.size,
  );
}

/** The exclusion constraint refused an overlapping footprint: it is the schema's only one. */
export function isOverlapViolation(error: unknown): boolean {
  return sqlState(error) === '23P01';
}

/** A unique constraint refused a row; `constraint` narrows it to one index (e.g. `footprints_hold_id_key`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== '23505') return false;
  return constraint ? violatedConstraint(error) === constraint : true;
}

/** PostgreSQL gave up on the transaction (deadlock or serialization): worth one more try. */
export function isRetryableTransactionError(error: unknown): boolean {
  const state = sqlState(error);
  return (error as { code?: unknown } | null)?.code === 'P2034' || state === '40P01' || state === '40001';
}
