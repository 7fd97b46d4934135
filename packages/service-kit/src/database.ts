import { PrismaPg } from '@prisma/adapter-pg';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { migrate } from './migrate.ts';

/** The slice of a generated Prisma client the kit relies on (raw SQL, transactions, disconnect). */
export interface SqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}
export interface PrismaLike extends SqlClient {
  $transaction<R>(fn: (tx: SqlClient) => Promise<R>, options?: { isolationLevel?: string; timeout?: number; maxWait?: number }): Promise<R>;
  $disconnect(): Promise<void>;
}

export interface DatabaseOptions<C extends PrismaLike> {
  connectionString: string;
  schema: string;
  migrationsDir: string;
  /** Builds the service's own generated client over the adapter (bound to its schema). */
  createClient: (adapter: PrismaPg) => C;
  /** Name of the decoration, typed by the service through module augmentation. */
  decorate?: string;
  runMigrations?: boolean;
}

export function createPrismaAdapter(connectionString: string, schema: string): PrismaPg {
  return new PrismaPg({ connectionString, max: 10 }, { schema });
}

/** Runs the service's migrations, then exposes its Prisma client; closes it after everything else. */
export const databasePlugin = fp(
  async (app: FastifyInstance, opts: DatabaseOptions<PrismaLike>) => {
    if (opts.runMigrations !== false) {
      await migrate({
        connectionString: opts.connectionString,
        schema: opts.schema,
        migrationsDir: opts.migrationsDir,
        log: (message) => app.log.info(message),
      });
    }
    const client = opts.createClient(createPrismaAdapter(opts.connectionString, opts.schema));
    app.decorate(opts.decorate ?? 'db', client);
    app.addReadinessCheck('database', async () => {
      await client.$queryRawUnsafe('SELECT 1');
    });
    app.addHook('onClose', async () => {
      await client.$disconnect();
    });
  },
  { name: 'pixel-atlas-database', dependencies: ['pixel-atlas-health'] },
);

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
