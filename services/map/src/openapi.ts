import { describeRoutes, usedOnlyByHandlers } from '@pixel-atlas/service-kit/describe-routes';
import type { OpenApiDocument } from '@pixel-atlas/service-kit/openapi';
import type { LayoutCache } from './domain/layout-cache.ts';
import { mapLayoutRoutes } from './routes/map-layout.ts';
import type { PrismaClient } from './db.ts';

/** The map service's OpenAPI document, from its route schemas (nothing connects). */
export function describeApi(): Promise<OpenApiDocument> {
  return describeRoutes('map', async (app) => {
    const db = usedOnlyByHandlers<PrismaClient>('db');
    await app.register(mapLayoutRoutes, { db, cache: usedOnlyByHandlers<LayoutCache>('cache'), seed: 'unused' });
  });
}
