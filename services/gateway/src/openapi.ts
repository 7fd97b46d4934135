import { describeRoutes, usedOnlyByHandlers } from '@pixel-atlas/service-kit/describe-routes';
import type { OpenApiDocument } from '@pixel-atlas/service-kit/openapi';
import { adminPasskeyRoutes } from './routes/admin-passkeys.ts';
import { adminSessionRoutes } from './routes/admin-session.ts';
// The routes read what the admin-auth plugin declares (app.adminCookie, request.adminSession).
import type {} from './plugins/admin-auth.ts';
import type { PrismaClient } from './db.ts';

/** The gateway's own operations (admin sign-in) as an OpenAPI document, from their route schemas (nothing connects). */
export function describeApi(): Promise<OpenApiDocument> {
  return describeRoutes('gateway', async (app) => {
    const db = usedOnlyByHandlers<PrismaClient>('db');
    await app.register(adminSessionRoutes, { db, absoluteHours: 0 });
    await app.register(adminPasskeyRoutes, { db, publicOrigin: 'http://localhost', siteName: '', absoluteHours: 0 });
  });
}
