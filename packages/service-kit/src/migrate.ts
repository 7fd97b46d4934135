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
    const failed = await client.query(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NULL AND rolled_back_at IS NULL',
    );
    if (failed.rowCount) {
      throw new Error(
        `migration ${failed.rows[0].migration_name} in schema ${options.schema} failed earlier (P3009); resolve it before starting`,
      );
    }
    const done = new Set(
      (await client.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL')).rows.map(
        (row) => row.migration_name as string,
      ),
    );
    const entries = await readdir(options.migrationsDir, { withFileTypes: true }).catch(() => []);
    const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
    for (const name of folders) {
      if (done.has(name)) continue;
      const sql = await readFile(path.join(options.migrationsDir, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const id = randomUUID();
      await client.query('INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ($1, $2, $3)', [id, checksum, name]);
      try {
        await client.query(sql);
      } catch (error) {
        await client.query('UPDATE _prisma_migrations SET logs = $2 WHERE id = $1', [id, String(error)]);
        throw new Error(`migration ${name} failed: ${(error as Error).message}`);
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
