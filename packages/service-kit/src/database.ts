import { PrismaPg } from '@prisma/adapter-pg';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { migrate } from './migrate.ts';

/** The slice of a generated Prisma client the kit relies on (raw SQL, transactions, disconnect). */
export interface SqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}
/** `Tx`: what its interactive transactions hand their callback (a generated client's `Prisma.TransactionClient`). */
export interface PrismaLike<Tx extends SqlClient = SqlClient> extends SqlClient {
  $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: { isolationLevel?: string; timeout?: number; maxWait?: number }): Promise<R>;
  $disconnect(): Promise<void>;
}

/** An app whose `db` is the service's own generated client, typed: no module augmentation, so services never clash. */
export type AppWithDb<C> = FastifyInstance & { db: C };

export interface DatabaseOptions {
  connectionString: string;
  schema: string;
  migrationsDir: string;
  /** The service's own generated client over `createPrismaAdapter` (bound to its schema); decorated as `app.db`. */
  client: PrismaLike;
  runMigrations?: boolean;
}

export function createPrismaAdapter(connectionString: string, schema: string): PrismaPg {
  return new PrismaPg({ connectionString, max: 10 }, { schema });
}

/** Runs the service's migrations, then exposes its Prisma client; closes it after everything else. */
export const databasePlugin = fp(
  async (app: FastifyInstance, opts: DatabaseOptions) => {
    if (opts.runMigrations !== false) {
      await migrate({
        connectionString: opts.connectionString,
        schema: opts.schema,
        migrationsDir: opts.migrationsDir,
        log: (message) => app.log.info(message),
      });
    }
    const { client } = opts;
    app.decorate('db', client);
    app.addReadinessCheck('database', async () => {
      await client.$queryRawUnsafe('SELECT 1');
    });
    app.addHook('onClose', async () => {
      await client.$disconnect();
    });
  },
  { name: 'pixel-atlas-database', dependencies: ['pixel-atlas-health'] },
);

/** The app typed with the client the database plugin decorated it with (the same object, now visible to the checker). */
export function withDb<C extends PrismaLike>(app: FastifyInstance, client: C): AppWithDb<C> {
  return Object.assign(app, { db: client });
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
