import path from 'node:path';
import { footprintIsLandQuery, landMaskQuery } from '@pixel-atlas/contracts/queries';
import { answer, queriesPlugin } from '@pixel-atlas/service-kit/rpc';
import { createBackendService } from '@pixel-atlas/service-kit/backend-service';
import type { AppWithDb } from '@pixel-atlas/service-kit/database';
import { PrismaClient, SCHEMA } from './db.ts';
import { checkFootprintLand, landMaskAnswer } from './domain/check-footprint-land.ts';
import { generateMap, mapExists } from './domain/generate-map.ts';
import { LayoutCache } from './domain/layout-cache.ts';
import type { MapEnv } from './env.ts';
import { mapLayoutRoutes } from './routes/map-layout.ts';

const migrationsDir = path.resolve(import.meta.dirname, '../prisma/migrations');

/** The map service as an app: layout generation and clearing, the layout API, the land query. */
export async function buildApp(env: MapEnv): Promise<AppWithDb<PrismaClient>> {
  const app = await createBackendService({
    name: 'map',
    description: 'The 90x90 layout: procedural generation, regions, land queries',
    env,
    schema: SCHEMA,
    migrationsDir,
    createClient: (adapter) => new PrismaClient({ adapter }),
  });
  const cache = new LayoutCache(app.db);

  // Every replica hears every layout change (a plain subscription, not a shared consumer) and drops its copy.
  const changes = app.bus.nc.subscribe(app.bus.subject('map.layout.>'));
  (async () => {
    for await (const _change of changes) cache.invalidate();
  })().catch((error) => app.log.error({ err: error }, 'layout change subscription ended'));
  app.addHook('preClose', async () => changes.unsubscribe());

  await app.register(queriesPlugin, {
    queue: 'map',
    handlers: [
      answer(footprintIsLandQuery, async (footprint) => checkFootprintLand({ cache, footprint })),
      answer(landMaskQuery, async () => landMaskAnswer({ cache })),
    ],
  });
  await app.register(mapLayoutRoutes, { db: app.db, cache, seed: env.MAP_SEED });

  if (env.MAP_AUTOGENERATE && !(await mapExists(app.db))) {
    try {
      const result = await generateMap({ db: app.db, seed: env.MAP_SEED });
      app.log.info({ seed: env.MAP_SEED, tiles: result.tileCount, land: result.landTileCount }, 'no map yet: generated one');
    } catch (error) {
      // Another replica starting at the same moment generated it first.
      if ((error as { code?: string }).code !== 'MAP_EXISTS') throw error;
    }
  }
  return app;
}
