import type { PrismaPg } from '@prisma/adapter-pg';
import { createDatabasePool, databasePlugin, withDb, type AppWithDb, type PrismaLike } from './database.ts';
import type { BaseEnv } from './env.ts';
import { defineMetrics, type MetricFactory } from './metrics.ts';
import { natsPlugin, natsSettingsFromEnv } from './nats.ts';
import { NATS_SERVICE_NAMES, type NatsServiceName } from './nats-auth.ts';
import { outboxPlugin } from './outbox.ts';
// Declares app.reconcileSettings, decorated below.
import type {} from './reconcile.ts';
import { createServiceApp } from './service.ts';

const isNatsServiceName = (name: string): name is NatsServiceName => (NATS_SERVICE_NAMES as string[]).includes(name);

export interface BackendServiceOptions<C extends PrismaLike> {
  name: string;
  description: string;
  env: BaseEnv;
  /** The service's own PostgreSQL schema. */
  schema: string;
  /** Its `prisma/migrations` folder, applied at start. */
  migrationsDir: string;
  /** Builds the service's generated Prisma client over the schema-bound adapter; exposed, typed, as `app.db`. */
  createClient: (adapter: PrismaPg) => C;
}

/**
 * The service's own metrics, beside the kit's on the app's registry; `db` is its client, for gauges counted when
 * Prometheus scrapes.
 */
export type ServiceMetricsDefinition<C, M> = (m: MetricFactory, db: C) => M;

/** A backend service that counts things of its own: they are `app.serviceMetrics`, typed as its definition returns them. */
export type BackendService<C, M> = AppWithDb<C> & { serviceMetrics: M };

/**
 * A service behind the gateway with its own schema and events: the kit's app (logs, errors, metrics,
 * health, OpenAPI), migrations and the Prisma client, the NATS connection and stream, and the outbox
 * relay. The service then registers its routes, consumers and queries on the returned app.
 */
export async function createBackendService<C extends PrismaLike, M extends object>(
  options: BackendServiceOptions<C> & { metrics: ServiceMetricsDefinition<C, M> },
): Promise<BackendService<C, M>>;
export async function createBackendService<C extends PrismaLike>(options: BackendServiceOptions<C>): Promise<AppWithDb<C>>;
export async function createBackendService<C extends PrismaLike>(
  options: BackendServiceOptions<C> & { metrics?: ServiceMetricsDefinition<C, object> },
): Promise<AppWithDb<C>> {
  const { env } = options;
  const app = await createServiceApp({
    name: options.name,
    description: options.description,
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    trustRequestIdFrom: 'gateway',
    databaseSchema: options.schema,
    listener: env,
  });
  const { pool, adapter } = createDatabasePool(env.DATABASE_URL, options.schema);
  const client = options.createClient(adapter);
  await app.register(databasePlugin, {
    connectionString: env.DATABASE_URL,
    schema: options.schema,
    migrationsDir: options.migrationsDir,
    client,
    pool,
  });
  await app.register(natsPlugin, natsSettingsFromEnv(env, options.name));
  await app.register(outboxPlugin, {
    schema: options.schema,
    db: () => client,
    service: isNatsServiceName(options.name) ? options.name : undefined,
    retentionDays: env.OUTBOX_RETENTION_DAYS,
  });
  // The consumers' reconcilers (inboxPlugin) read these: a service's inbox is registered after this.
  app.decorate('reconcileSettings', { graceMs: env.RECONCILE_GRACE_MS, intervalMs: env.RECONCILE_INTERVAL_MS });
  const { metrics } = options;
  if (metrics)
    app.decorate(
      'serviceMetrics',
      defineMetrics(app.metrics, (m) => metrics(m, client)),
    );
  return withDb(app, client);
}
