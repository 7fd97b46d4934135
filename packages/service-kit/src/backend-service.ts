import type { PrismaPg } from '@prisma/adapter-pg';
import type { FastifyInstance } from 'fastify';
import { databasePlugin, type PrismaLike } from './database.ts';
import type { BaseEnv } from './env.ts';
import { natsPlugin, natsSettingsFromEnv } from './nats.ts';
import { outboxPlugin } from './outbox.ts';
import { createServiceApp } from './service.ts';

export interface BackendServiceOptions {
  name: string;
  description: string;
  env: BaseEnv;
  /** The service's own PostgreSQL schema. */
  schema: string;
  /** Its `prisma/migrations` folder, applied at start. */
  migrationsDir: string;
  /** Builds the service's generated Prisma client over the schema-bound adapter; exposed as `app.db`. */
  createClient: (adapter: PrismaPg) => PrismaLike;
}

/**
 * A service behind the gateway with its own schema and events: the kit's app (logs, errors, metrics,
 * health, OpenAPI), migrations and the Prisma client, the NATS connection and stream, and the outbox
 * relay. The service then registers its routes, consumers and queries on the returned app.
 */
export async function createBackendService(options: BackendServiceOptions): Promise<FastifyInstance> {
  const { env } = options;
  const app = await createServiceApp({
    name: options.name,
    description: options.description,
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    trustRequestIdFrom: 'gateway',
    databaseSchema: options.schema,
  });
  await app.register(databasePlugin, {
    connectionString: env.DATABASE_URL,
    schema: options.schema,
    migrationsDir: options.migrationsDir,
    createClient: options.createClient,
  });
  await app.register(natsPlugin, natsSettingsFromEnv(env, options.name));
  await app.register(outboxPlugin, { schema: options.schema, db: () => (app as unknown as { db: PrismaLike }).db });
  return app;
}
