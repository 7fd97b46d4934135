import path from 'node:path';
import { createBackendService } from '@pixel-atlas/service-kit/backend-service';
import type { AppWithDb } from '@pixel-atlas/service-kit/database';
import { PrismaClient, SCHEMA } from './db.ts';
import type { ContactEnv } from './env.ts';
import { contactRoutes } from './routes/contact.ts';

const migrationsDir = path.resolve(import.meta.dirname, '../prisma/migrations');

/** The contact service as an app, ready for `listen` (server.ts) or `inject` (tests). */
export async function buildApp(env: ContactEnv): Promise<AppWithDb<PrismaClient>> {
  const app = await createBackendService({
    name: 'contact',
    description: 'Contact form submissions',
    env,
    schema: SCHEMA,
    migrationsDir,
    createClient: (adapter) => new PrismaClient({ adapter }),
  });
  await app.register(contactRoutes, {
    db: app.db,
    rateLimit: { max: env.CONTACT_RATE_LIMIT_MAX, timeWindow: env.CONTACT_RATE_LIMIT_WINDOW_MS },
  });
  return app;
}
