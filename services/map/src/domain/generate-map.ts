import { MAP_GENERATED_MESSAGE } from '@pixel-atlas/contracts/map';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { sqlState } from '@pixel-atlas/service-kit/failures';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, type PrismaClient } from '../db.ts';
import { generateLayout } from './generate-layout.ts';

export const MAP_EXISTS_MESSAGE = 'A map already exists. Clear the current map before generating a new one.';

export interface GenerateMapOptions {
  db: PrismaClient;
  seed: string;
  requestId?: string;
}

/**
 * Generates and stores the layout, only when none exists. The singleton row is inserted first, so two
 * admins (or two replicas auto-generating at start) racing here end with one map and one 409.
 */
export async function generateMap({ db, seed, requestId }: GenerateMapOptions) {
  const layout = generateLayout({ seed });
  try {
    await db.$transaction(
      async (tx) => {
        await tx.mapLayout.create({
          data: { id: 1, seed, regions: layout.regions, tileCount: layout.tiles.length, landCount: layout.landTileCount },
        });
        await tx.mapTile.createMany({
          data: layout.tiles.map((t) => ({ x: t.x, y: t.y, zoneValue: t.zone_value, zoneName: t.zone_name, isLand: t.is_land })),
        });
        await enqueueEvent({
          tx,
          schema: SCHEMA,
          type: 'map.layout.generated',
          requestId,
          data: { seed, tileCount: layout.tiles.length, landTileCount: layout.landTileCount },
        });
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    if (sqlState(error) === '23505') throw new AppError('MAP_EXISTS', MAP_EXISTS_MESSAGE);
    throw error;
  }
  return { message: MAP_GENERATED_MESSAGE, tileCount: layout.tiles.length, landTileCount: layout.landTileCount, seed };
}

export async function mapExists(db: PrismaClient): Promise<boolean> {
  return (await db.mapLayout.count()) > 0;
}
