import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/** Same lock id Prisma's engine takes, so our runner and `prisma migrate deploy` never overlap. */
const MIGRATION_LOCK_ID = 72707369;

export interface MigrateOptions {
  connectionString: string;
  /** The service's own PostgreSQL schema; its `_prisma_migrations` table lives inside it. */
  schema: string;
  /** Folder holding Prisma's `<timestamp>_<name>/migration.sql` folders. */
  migrationsDir: string;
  log?: (message: string) => void;
}

export interface MigrateResult {
  applied: string[];
}

/** Raised at start when a migration's file no longer matches the checksum recorded when it was applied. */
export class MigrationChecksumError extends Error {
  constructor(
    readonly migration: string,
    readonly schema: string,
    readonly applied: string,
    readonly current: string,
  ) {
    super(
      `migration ${migration} was modified after it was applied to schema ${schema} ` +
        `(checksum applied ${applied}, file now ${current}). Restore prisma/migrations/${migration}/migration.sql ` +
        `and put the change in a new migration.`,
    );
    this.name = 'MigrationChecksumError';
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Like Prisma's engine: a checkout that only changed line endings (git on Windows) still matches. */
function matchesChecksum(sql: string, checksum: string): boolean {
  const lf = sql.replaceAll('\r\n', '\n');
  return [sql, lf, lf.replaceAll('\n', '\r\n')].some((variant) => sha256(variant) === checksum);
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Applies pending Prisma migrations, writing the same `_prisma_migrations` rows as Prisma's engine
 * (the native engine cannot be downloaded on these machines). Replicas starting together serialise on
 * an advisory lock; each script runs as one simple query so it commits or rolls back whole.
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: options.connectionString });
  await client.connect();
  const schema = quoteIdent(options.schema);
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET search_path TO ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS _prisma_migrations (
      id varchar(36) PRIMARY KEY,
      checksum varchar(64) NOT NULL,
      finished_at timestamptz,
      migration_name varchar(255) NOT NULL,
      logs text,
      rolled_back_at timestamptz,
      started_at timestamptz NOT NULL DEFAULT now(),
      applied_steps_count integer NOT NULL DEFAULT 0)`);
    const failed = await client.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NULL AND rolled_back_at IS NULL');
    if (failed.rowCount) {
      throw new Error(
        `migration ${failed.rows[0].migration_name} in schema ${options.schema} failed earlier (P3009); resolve it before starting`,
      );
    }
    const appliedRows = (
      await client.query<{ migration_name: string; checksum: string }>(
        'SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      )
    ).rows;
    const done = new Map(appliedRows.map((row) => [row.migration_name, row.checksum]));
    const entries = await readdir(options.migrationsDir, { withFileTypes: true }).catch(() => []);
    const folders = entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const scripts = new Map<string, string>();
    for (const name of folders) scripts.set(name, await readFile(path.join(options.migrationsDir, name, 'migration.sql'), 'utf8'));
    // An applied migration edited afterwards means this code expects a database it may not have: stop (Prisma's P3006-like drift).
    for (const [name, stored] of done) {
      const sql = scripts.get(name);
      if (sql !== undefined && !matchesChecksum(sql, stored)) {
        throw new MigrationChecksumError(name, options.schema, stored, sha256(sql));
      }
    }
    for (const name of folders) {
      if (done.has(name)) continue;
      const sql = scripts.get(name) as string;
      const checksum = sha256(sql);
      const id = randomUUID();
      await client.query('INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ($1, $2, $3)', [id, checksum, name]);
      try {
        await client.query(sql);
      } catch (error) {
        await client.query('UPDATE _prisma_migrations SET logs = $2 WHERE id = $1', [id, String(error)]);
        throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      await client.query('UPDATE _prisma_migrations SET applied_steps_count = 1, finished_at = now() WHERE id = $1', [id]);
      applied.push(name);
      options.log?.(`applied migration ${name} to schema ${options.schema}`);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
  return { applied };
}
