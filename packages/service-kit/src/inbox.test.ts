import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@pixel-atlas/contracts/events';
import pino from 'pino';
import pg from 'pg';
import { Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PrismaLike, SqlClient } from './database.ts';
import { InboxConsumer } from './inbox.ts';
import { migrate } from './migrate.ts';
import { connectBus, ensureStream, type EventBus } from './nats.ts';
import { createTestDatabase, createTestStream, eventually, testInfra, type TestDatabase, type TestStream } from './testing.ts';

// A PrismaLike over plain pg: the kit must not depend on any one service's generated client.
function pgClient(pool: pg.Pool): PrismaLike {
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

let db: TestDatabase;
let stream: TestStream;
let bus: EventBus;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  stream = await createTestStream();
  await db.query(`CREATE SCHEMA kit`);
  await db.query(`CREATE TABLE kit.inbox_events (consumer text, event_id uuid, subject text, processed_at timestamptz DEFAULT now(), PRIMARY KEY (consumer, event_id))`);
  await db.query(`CREATE TABLE kit.effects (event_id uuid, note text)`);
  pool = new pg.Pool({ connectionString: db.url });
  bus = await connectBus({ servers: testInfra().natsUrl, stream: stream.stream, subjectPrefix: stream.subjectPrefix, name: 'inbox-test' });
  await ensureStream(bus);
});

afterAll(async () => {
  await bus?.nc.drain();
  await pool?.end();
  await stream?.remove();
  await db?.drop();
});

function envelope(): EventEnvelope {
  return {
    id: randomUUID(),
    type: 'contact.message.received',
    occurredAt: new Date().toISOString(),
    data: { id: 'c1', name: 'A', email: 'a@example.com', subject: 'general', message: 'hi', submittedAt: new Date().toISOString() },
  };
}

it('applies an event once however often it is delivered, and retries a failing handler', async () => {
  let failuresLeft = 2;
  const registry = new Registry();
  const consumer = new InboxConsumer(
    bus,
    pgClient(pool),
    pino({ level: 'silent' }),
    {
      durable: 'kit-test',
      schema: 'kit',
      backoffMs: [100],
      handlers: {
        'contact.message.received': async (event, tx) => {
          await tx.$executeRawUnsafe(`INSERT INTO kit.effects (event_id, note) VALUES ($1::uuid, 'done')`, event.id);
          if (event.data.name === 'flaky' && failuresLeft-- > 0) throw new Error('transient');
        },
      },
    },
    {
      handled: new Counter({ name: 'h', help: 'h', labelNames: ['consumer', 'outcome'], registers: [registry] }),
      redelivered: new Counter({ name: 'r', help: 'r', labelNames: ['consumer'], registers: [registry] }),
    },
  );
  await consumer.start();
  const once = envelope();
  // The same event id published three times under different message ids: the stream's dedup can't help, the inbox must.
  for (let i = 0; i < 3; i++) await bus.js.publish(bus.subject(once.type), JSON.stringify(once), { msgID: `${once.id}-${i}` });
  const flaky = envelope();
  (flaky.data as { name: string }).name = 'flaky';
  await bus.js.publish(bus.subject(flaky.type), JSON.stringify(flaky), { msgID: flaky.id });

  await eventually(async () => (await db.query(`SELECT * FROM kit.effects WHERE event_id = $1`, [flaky.id])).length === 1, 15_000);
  await eventually(async () => (await consumer.pending()) === 0);
  expect(await db.query(`SELECT note FROM kit.effects WHERE event_id = $1`, [once.id])).toEqual([{ note: 'done' }]);
  expect(await db.query(`SELECT count(*)::int AS n FROM kit.inbox_events`)).toEqual([{ n: 2 }]);
  expect(failuresLeft).toBe(-1);
  expect(await registry.getSingleMetricAsString('r')).toMatch(/r\{consumer="kit-test"\} 2/);
  await consumer.stop();
});

it('applies migrations once, even when replicas start together', async () => {
  const fs = await import('node:fs/promises');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pa-migrations-'));
  await fs.mkdir(path.join(dir, '20260101000000_init'));
  await fs.writeFile(path.join(dir, '20260101000000_init', 'migration.sql'), `CREATE TABLE "things" ("id" int PRIMARY KEY); INSERT INTO "things" VALUES (1);`);
  const results = await Promise.all([1, 2, 3].map(() => migrate({ connectionString: db.url, schema: 'replicas', migrationsDir: dir })));
  expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 1]);
  expect(await db.query(`SELECT id FROM replicas.things`)).toEqual([{ id: 1 }]);
  const [row] = await db.query<{ finished: boolean; checksum: string }>(`SELECT finished_at IS NOT NULL AS finished, checksum FROM replicas._prisma_migrations`);
  expect(row.finished).toBe(true);
  expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
  await fs.rm(dir, { recursive: true });
});
