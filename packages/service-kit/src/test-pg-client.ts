import type pg from 'pg';
import type { PrismaLike, SqlClient } from './database.ts';

/** A PrismaLike over plain pg, for the kit's own tests: the kit must not depend on any one service's generated client. */
export function pgClient(pool: pg.Pool): PrismaLike {
  const raw = (client: pg.Pool | pg.PoolClient): SqlClient => ({
    $executeRawUnsafe: async (sql, ...values) => (await client.query(sql, values)).rowCount ?? 0,
    $queryRawUnsafe: async <T>(sql: string, ...values: unknown[]) => (await client.query(sql, values)).rows as T,
  });
  return {
    ...raw(pool),
    async $transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(raw(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    $disconnect: () => pool.end(),
  };
}
