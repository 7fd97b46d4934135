import path from 'node:path';
import { databasePlugin } from '@pixel-atlas/service-kit/database';
import { natsPlugin } from '@pixel-atlas/service-kit/nats';
import { outboxPlugin } from '@pixel-atlas/service-kit/outbox';
import { createServiceApp } from '@pixel-atlas/service-kit/service';
import type { FastifyInstance } from 'fastify';
import { PrismaClient, SCHEMA } from './db.ts';
import type { ContactEnv } from './env.ts';
import { contactRoutes } from './routes/contact.ts';

const migrationsDir = path.resolve(import.meta.dirname, '../prisma/migrations');

/** The contact service as an app, ready for `listen` (server.ts) or `inject` (tests). */
export async function buildApp(env: ContactEnv): Promise<FastifyInstance> {
  const app = await createServiceApp({
    name: 'contact',
    description: 'Contact form submissions',
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    trustRequestIdFrom: 'gateway',
  });
  await app.register(databasePlugin, {
    connectionString: env.DATABASE_URL,
    schema: SCHEMA,
    migrationsDir,
    createClient: (adapter) => new PrismaClient({ adapter }),
  });
  await app.register(natsPlugin, { servers: env.NATS_URL, stream: env.NATS_STREAM, subjectPrefix: env.NATS_SUBJECT_PREFIX, name: 'contact' });
  await app.register(outboxPlugin, { schema: SCHEMA, db: () => app.db });
  await app.register(contactRoutes, { rateLimit: { max: env.CONTACT_RATE_LIMIT_MAX, timeWindow: env.CONTACT_RATE_LIMIT_WINDOW_MS } });
  return app;
}
