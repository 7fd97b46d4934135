import { AppError } from '@pixel-atlas/service-kit/errors';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, type PrismaClient } from '../db.ts';

export const MAP_CLEARED_MESSAGE = 'Map layout cleared.';

/** Removes all tile data; the web then shows 'map not available' until a map is generated again. */
export async function clearMap({ db, requestId }: { db: PrismaClient; requestId?: string }) {
  await db.$transaction(async (tx) => {
    const removed = await tx.mapLayout.deleteMany();
    if (removed.count === 0) throw new AppError('MAP_NOT_AVAILABLE', 'There is no map to clear.');
    await tx.mapTile.deleteMany();
    await enqueueEvent({ tx, schema: SCHEMA, type: 'map.layout.cleared', requestId, data: {} });
  });
  return { message: MAP_CLEARED_MESSAGE };
}
