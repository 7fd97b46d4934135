import { describeRoutes, usedOnlyByHandlers } from '@pixel-atlas/service-kit/describe-routes';
import type { OpenApiDocument } from '@pixel-atlas/service-kit/openapi';
import { contactRoutes } from './routes/contact.ts';
import type { PrismaClient } from './db.ts';

/** The contact service's OpenAPI document, from its route schemas (nothing connects). */
export function describeApi(): Promise<OpenApiDocument> {
  return describeRoutes('contact', async (app) => {
    const db = usedOnlyByHandlers<PrismaClient>('db');
    await app.register(contactRoutes, { db, rateLimit: { max: 1, timeWindow: 1 } });
  });
}
