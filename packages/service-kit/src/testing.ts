import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';

/** Where tests find PostgreSQL and NATS: `npm test` exports these after making sure both run. */
export function testInfra(): { databaseUrl: string; natsUrl: string } {
  return {
    databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  };
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface TestDatabase {
  name: string;
  url: string;
  /** Runs SQL against the test database (any service's schema): tests check what really got written. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh, uniquely named database per test file; `drop()` removes it (and kicks its sessions). */
export async function createTestDatabase(serverUrl = testInfra().databaseUrl): Promise<TestDatabase> {
  const name = uniqueName('pa_test');
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  return {
    name,
    url,
    async query<T>(sql: string, params: unknown[] = []) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
    async drop() {
      const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestStream {
  stream: string;
  subjectPrefix: string;
  remove(): Promise<void>;
}

/** A uniquely named stream and subject prefix per test file, removed afterwards. */
export async function createTestStream(natsUrl = testInfra().natsUrl): Promise<TestStream> {
  const token = uniqueName('t');
  return {
    stream: token.toUpperCase(),
    subjectPrefix: `${token}.`,
    async remove() {
      const nc = await connect({ servers: natsUrl });
      try {
        const jsm = await jetstreamManager(nc);
        await jsm.streams.delete(token.toUpperCase()).catch(() => undefined);
      } finally {
        await nc.close();
      }
    },
  };
}

export const TEST_INTERNAL_TOKEN = 'test-internal-token-0123456789';

/** Base environment for a service under test, pointing at its own database and stream. */
export function testServiceEnv(db: TestDatabase, stream: TestStream, natsUrl = testInfra().natsUrl): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    NATS_URL: natsUrl,
    NATS_STREAM: stream.stream,
    NATS_SUBJECT_PREFIX: stream.subjectPrefix,
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
  };
}

/** Polls until `check` returns a truthy value (or throws after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}
