import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
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

declare module 'fastify' {
  interface FastifyInstance {
    /** The pool under the service's Prisma client, for `PreparedStatement`s on hot paths. */
    pg: pg.Pool;
  }
}

export interface DatabaseOptions {
  connectionString: string;
  schema: string;
  migrationsDir: string;
  /** The service's own generated client over `createPrismaAdapter` (bound to its schema); decorated as `app.db`. */
  client: PrismaLike;
  /** The pool under the client (`createDatabasePool`), decorated as `app.pg` for prepared statements. */
  pool: pg.Pool;
  runMigrations?: boolean;
}

export function createPrismaAdapter(connectionString: string, schema: string): PrismaPg {
  return new PrismaPg({ connectionString, max: 10 }, { schema });
}

/** A service's connections: one pg pool, used by its Prisma client and, through `PreparedStatement`, by its hot paths. */
export function createDatabasePool(connectionString: string, schema: string): { pool: pg.Pool; adapter: PrismaPg } {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // The Prisma client's $disconnect ends the pool: it is closed last, after every user of either.
  return { pool, adapter: new PrismaPg(pool, { schema, disposeExternalPool: true }) };
}

/** What runs a statement: the pool, or one of its clients inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

/**
 * A statement for a hot path, sent by name: PostgreSQL parses it once per connection and, after five runs, keeps a
 * generic plan, where a statement through Prisma is planned on every call (0.5 ms of the database's CPU for the
 * claim's first read, measured with pg_stat_statements) and costs four times the client CPU. For the few statements
 * a request always makes; everything else stays with the Prisma client. PgBouncer in transaction mode needs
 * `max_prepared_statements` (1.21 and later) for named statements.
 */
export class PreparedStatement<Row extends object> {
  constructor(
    readonly name: string,
    readonly text: string,
  ) {}

  async rows(db: Queryable, values: unknown[]): Promise<Row[]> {
    return (await db.query<Row>({ name: this.name, text: this.text, values })).rows;
  }
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
    app.decorate('pg', opts.pool);
    const { pool } = opts;
    // An idle connection the database ends (a restart, a failover) is reported by the pool as an 'error' event: without
    // a listener that would end the process. The pool has dropped the connection already; the next query opens another.
    pool.on('error', (error) => app.log.warn({ err: error }, 'an idle database connection was closed by the server'));
    app.addReadinessCheck(
      'database',
      async () => {
        await client.$queryRawUnsafe('SELECT 1');
      },
      () => `pool: ${pool.totalCount} open, ${pool.idleCount} idle, ${pool.waitingCount} waiting`,
    );
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
