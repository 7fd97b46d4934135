import { randomUUID } from 'node:crypto';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import type { EventEnvelope } from '@pixel-atlas/contracts/events';
import pino from 'pino';
import pg from 'pg';
import { Counter, Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { PrismaLike, SqlClient } from './database.ts';
import { runEventsCli } from './dead-letters-cli.ts';
import { listDeadLetters, replayDeadLetters } from './dead-letters.ts';
import { isTransientFailure } from './failures.ts';
import { InboxConsumer } from './inbox.ts';
import { migrate } from './migrate.ts';
import { connectBus, ensureStream, type EventBus } from './nats.ts';
import { pgClient } from './test-pg-client.ts';
import { createTestDatabase, createTestStream, eventually, type TestDatabase, type TestStream } from './testing.ts';

let db: TestDatabase;
let stream: TestStream;
let bus: EventBus;
let pool: pg.Pool;

const DEAD_LETTER_DDL = `CREATE TABLE kit.dead_letter_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(), event_id uuid, consumer text NOT NULL, subject text NOT NULL, payload text NOT NULL,
  error text NOT NULL, attempts int NOT NULL, first_failed_at timestamptz NOT NULL, last_failed_at timestamptz NOT NULL, replayed_at timestamptz,
  UNIQUE (consumer, event_id))`;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.query(`CREATE SCHEMA kit`);
  await db.query(
    `CREATE TABLE kit.inbox_events (consumer text, event_id uuid, subject text, processed_at timestamptz DEFAULT now(), PRIMARY KEY (consumer, event_id))`,
  );
  await db.query(DEAD_LETTER_DDL);
  await db.query(`CREATE TABLE kit.effects (event_id uuid, note text)`);
  pool = new pg.Pool({ connectionString: db.url });
});

// A stream per test: every consumer of a subject sees every event on it, so tests must not share one.
beforeEach(async () => {
  stream = await createTestStream();
  bus = await connectBus(stream.busSettings('inbox-test'));
  await ensureStream(bus);
});

afterEach(async () => {
  await bus?.nc.drain();
  await stream?.remove();
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

let marker = 0;
/** An event whose `name` the test's handler acts on (other names it only records in the inbox). */
function envelope(name = 'A'): EventEnvelope {
  return {
    id: randomUUID(),
    type: 'contact.message.received',
    occurredAt: new Date().toISOString(),
    data: { id: `c${++marker}`, name, email: 'a@example.com', subject: 'general', message: 'hi', submittedAt: new Date().toISOString() },
  };
}

function metrics() {
  const registry = new Registry();
  return {
    registry,
    handled: new Counter({ name: 'h', help: 'h', labelNames: ['consumer', 'outcome'], registers: [registry] }),
    redelivered: new Counter({ name: 'r', help: 'r', labelNames: ['consumer'], registers: [registry] }),
    deadLettered: new Counter({ name: 'd', help: 'd', labelNames: ['consumer'], registers: [registry] }),
  };
}

type Handler = (event: EventEnvelope<{ name: string }>, tx: SqlClient) => Promise<void>;

/** A consumer of contact.message.received that records an effect, then runs `behave` for this test's events only. */
function consumerFor(durable: string, mine: string, behave: Handler, options: { db?: PrismaLike; maxFailures?: number } = {}) {
  const m = metrics();
  const consumer = new InboxConsumer(
    bus,
    options.db ?? pgClient(pool),
    pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    {
      durable,
      schema: 'kit',
      backoffMs: [50, 100],
      maxRetryDelayMs: 100,
      maxFailures: options.maxFailures,
      handlers: {
        'contact.message.received': async (event, tx) => {
          if (event.data.name !== mine) return;
          await tx.$executeRawUnsafe(`INSERT INTO kit.effects (event_id, note) VALUES ($1::uuid, 'done')`, event.id);
          await behave(event, tx);
        },
      },
    },
    m,
  );
  return { consumer, metrics: m };
}

async function publish(event: EventEnvelope, msgID = event.id): Promise<void> {
  await bus.js.publish(bus.subject(event.type), JSON.stringify(event), { msgID });
}

const effects = (id: string) => db.count('kit.effects WHERE event_id = $1', [id]);
const deadLetters = (consumer: string) =>
  db.query<{ event_id: string | null; attempts: number; error: string; payload: string; subject: string; replayed_at: Date | null }>(
    `SELECT event_id::text, attempts, error, payload, subject, replayed_at FROM kit.dead_letter_events WHERE consumer = $1 ORDER BY first_failed_at`,
    [consumer],
  );

it('applies an event once however often it is delivered, and retries a failing handler', async () => {
  let failuresLeft = 2;
  const { consumer, metrics: m } = consumerFor('kit-test', 'once', async (event) => {
    if ((event.data as unknown as { message: string }).message === 'flaky' && failuresLeft-- > 0) throw new Error('bad luck');
  });
  await consumer.start();
  const once = envelope('once');
  // The same event id published three times under different message ids: the stream's dedup can't help, the inbox must.
  for (let i = 0; i < 3; i++) await publish(once, `${once.id}-${i}`);
  const flaky = envelope('once');
  (flaky.data as { message: string }).message = 'flaky';
  await publish(flaky);

  await eventually(async () => (await effects(flaky.id)) === 1, 15_000);
  await eventually(async () => (await consumer.pending()) === 0);
  expect(await effects(once.id)).toBe(1);
  expect(await db.query(`SELECT count(*)::int AS n FROM kit.inbox_events WHERE consumer = 'kit-test'`)).toEqual([{ n: 2 }]);
  expect(failuresLeft).toBe(-1);
  // Two failed tries, each followed by a redelivery, or one of them inside a batch, retried alone at once.
  expect(await m.registry.getSingleMetricAsString('r')).toMatch(/r\{consumer="kit-test"\} [12]$/);
  expect(await deadLetters('kit-test')).toEqual([]);
  await consumer.stop();
});

it('applies a backlog in batches: one transaction for many events, a duplicate within a batch once, a failing event alone', async () => {
  const base = pgClient(pool);
  let transactions = 0;
  const counting: PrismaLike = {
    ...base,
    $transaction: (fn, options) => {
      transactions += 1;
      return base.$transaction(fn, options);
    },
  };
  let poisonTries = 0;
  const { consumer } = consumerFor(
    'kit-batch',
    'batch',
    async (event) => {
      if ((event.data as unknown as { message: string }).message === 'poison') {
        poisonTries += 1;
        throw new Error('this event is broken');
      }
    },
    { db: counting, maxFailures: 2 },
  );
  await consumer.ensure();
  // The backlog is in the stream before the consumer pulls: it arrives as batches.
  const events = Array.from({ length: 120 }, () => envelope('batch'));
  const poison = envelope('batch');
  (poison.data as { message: string }).message = 'poison';
  for (const [i, event] of events.entries()) {
    await publish(event);
    if (i === 10) await publish(event, `${event.id}-again`);
    if (i === 60) await publish(poison);
  }
  await consumer.start();
  await eventually(async () => (await consumer.pending()) === 0, 15_000);
  for (const event of events) expect(await effects(event.id)).toBe(1);
  expect(await effects(poison.id)).toBe(0);
  expect((await deadLetters('kit-batch')).map((d) => d.event_id)).toEqual([poison.id]);
  expect(poisonTries).toBe(3); // once inside its batch (rolled back), then alone until maxFailures
  // 122 deliveries: batched, far fewer transactions than events (the poisoned batch is retried one event at a time).
  expect(transactions).toBeLessThan(90);
  await consumer.stop();
});

it('applies a batch of one event type through its batch handler, with the same effect as one by one', async () => {
  const consumer = new InboxConsumer(
    bus,
    pgClient(pool),
    pino({ level: 'silent' }),
    {
      durable: 'kit-batch-handler',
      schema: 'kit',
      handlers: {
        'contact.message.received': async (event, tx) => {
          await tx.$executeRawUnsafe(`INSERT INTO kit.effects (event_id, note) VALUES ($1::uuid, 'alone')`, event.id);
        },
      },
      batchHandlers: {
        'contact.message.received': async (events, tx) => {
          await tx.$executeRawUnsafe(
            `INSERT INTO kit.effects (event_id, note) SELECT unnest($1::uuid[]), 'batch'`,
            events.map((event) => event.id),
          );
        },
      },
    },
    metrics(),
  );
  await consumer.ensure();
  const events = Array.from({ length: 40 }, () => envelope('batch-handler'));
  for (const event of events) await publish(event);
  await consumer.start();
  await eventually(async () => (await consumer.pending()) === 0, 15_000);
  const notes = await db.query<{ note: string; n: number }>(
    `SELECT note, count(*)::int AS n FROM kit.effects WHERE event_id = ANY($1::uuid[]) GROUP BY note`,
    [events.map((e) => e.id)],
  );
  const total = notes.reduce((sum, row) => sum + row.n, 0);
  expect(total).toBe(40);
  for (const event of events) expect(await effects(event.id)).toBe(1);
  expect(notes.find((row) => row.note === 'batch')?.n ?? 0).toBeGreaterThan(20);
  await consumer.stop();
});

it('retries a database outage far past the old delivery budget, never dead-letters it, and applies the event once', async () => {
  // 15 failures with connection codes (Prisma's P1001, a pg socket error), more than max_deliver 10 used to allow.
  let failuresLeft = 15;
  const refused = () =>
    failuresLeft % 2
      ? Object.assign(new Error("Can't reach database server"), { code: 'P1001' })
      : Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 });
  const lagSeen: number[] = [];
  const { consumer, metrics: m } = consumerFor('kit-outage', 'outage', async () => {
    if (failuresLeft-- > 0) {
      lagSeen.push(await consumer.pending());
      throw refused();
    }
  });
  await consumer.start();
  const event = envelope('outage');
  await publish(event);
  await eventually(async () => (await effects(event.id)) === 1, 20_000);
  await eventually(async () => (await consumer.pending()) === 0);
  expect(failuresLeft).toBe(-1);
  expect(await effects(event.id)).toBe(1);
  expect(await deadLetters('kit-outage')).toEqual([]);
  // The waiting event shows as consumer lag throughout.
  expect(lagSeen.length).toBe(15);
  expect(Math.min(...lagSeen)).toBeGreaterThanOrEqual(1);
  expect(await m.registry.getSingleMetricAsString('h')).not.toMatch(/dead_lettered/);
  expect(await m.registry.getSingleMetricAsString('d')).not.toMatch(/kit-outage/);
  await consumer.stop();
});

it('treats any error as transient while the database does not answer at all', async () => {
  // A connection dropped mid-query can fail without any code: the consumer asks the database, which is down.
  let downFor = 12;
  const real = pgClient(pool);
  const terminated = () => new Error('Connection terminated unexpectedly');
  const flaky: PrismaLike = {
    ...real,
    $queryRawUnsafe: async (sql, ...values) => {
      if (downFor > 0) throw terminated();
      return real.$queryRawUnsafe(sql, ...values);
    },
    $transaction: async (fn, options) => {
      if (downFor-- > 0) throw terminated();
      return real.$transaction(fn, options);
    },
  };
  const { consumer } = consumerFor('kit-down', 'down', async () => undefined, { db: flaky, maxFailures: 3 });
  await consumer.start();
  const event = envelope('down');
  await publish(event);
  await eventually(async () => (await effects(event.id)) === 1, 20_000);
  expect(downFor).toBeLessThan(0);
  expect(await deadLetters('kit-down')).toEqual([]);
  await consumer.stop();
});

it('dead-letters a payload that fails its schema at once, and a body that is not an event', async () => {
  let calls = 0;
  const { consumer, metrics: m } = consumerFor('kit-schema', 'schema', async () => {
    calls++;
  });
  await consumer.start();
  const bad = envelope('schema');
  delete (bad.data as { email?: string }).email;
  await publish(bad);
  await bus.js.publish(bus.subject('contact.message.received'), 'not json at all', { msgID: randomUUID() });
  await eventually(async () => (await deadLetters('kit-schema')).length === 2, 10_000);
  const [first, second] = await deadLetters('kit-schema');
  expect(first).toMatchObject({ event_id: bad.id, attempts: 1, subject: 'contact.message.received', replayed_at: null });
  expect(first?.error).toMatch(/email/);
  expect(JSON.parse(first?.payload ?? '')).toEqual(bad);
  expect(second).toMatchObject({ event_id: null, attempts: 1, payload: 'not json at all' });
  expect(calls).toBe(0);
  expect(await effects(bad.id)).toBe(0);
  await eventually(async () => (await consumer.pending()) === 0);
  expect(await m.registry.getSingleMetricAsString('d')).toMatch(/d\{consumer="kit-schema"\} 2/);
  await consumer.stop();
});

it('dead-letters an event whose handler keeps throwing, then replays it exactly once', async () => {
  let broken = true;
  let attempts = 0;
  const { consumer, metrics: m } = consumerFor(
    'kit-broken',
    'broken',
    async () => {
      attempts++;
      if (broken) throw new Error('plot 42 has no owner');
    },
    { maxFailures: 4 },
  );
  await consumer.start();
  const event = envelope('broken');
  await publish(event);
  await eventually(async () => (await deadLetters('kit-broken')).length === 1, 10_000);
  const [letter] = await deadLetters('kit-broken');
  expect(letter).toMatchObject({ event_id: event.id, attempts: 4, replayed_at: null });
  expect(letter?.error).toBe('Error: plot 42 has no owner');
  expect(attempts).toBe(4);
  expect(await effects(event.id)).toBe(0);
  await eventually(async () => (await consumer.pending()) === 0);
  expect(await m.registry.getSingleMetricAsString('d')).toMatch(/d\{consumer="kit-broken"\} 1/);
  expect((await listDeadLetters(pool, { target: 'kit-broken' })).map((l) => l.eventId)).toEqual([event.id]);

  // The CLI lists it (npm run events:dead-letters).
  const settings = stream.busSettings('cli');
  const cliEnv = {
    DATABASE_URL: db.url,
    NATS_URL: settings.servers,
    NATS_STREAM: settings.stream,
    NATS_SUBJECT_PREFIX: settings.subjectPrefix,
    NATS_USER: settings.user,
    NATS_PASSWORD: settings.password,
  };
  const lines: string[] = [];
  expect(await runEventsCli(['list', 'kit-broken'], cliEnv, (line) => lines.push(line))).toBe(0);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain(`kit/kit-broken`);
  expect(lines[0]).toContain(`event ${event.id}`);
  expect(lines[0]).toContain('attempts 4');
  expect(lines[0]).toContain('error: Error: plot 42 has no owner');
  expect(lines[1]).toBe('1 dead letter not yet replayed');

  // Fixed: replay by consumer through the CLI (npm run events:replay), then once more by id; the inbox applies it once.
  broken = false;
  lines.length = 0;
  expect(await runEventsCli(['replay', 'kit-broken'], cliEnv, (line) => lines.push(line))).toBe(0);
  expect(lines.at(-1)).toBe('1 replayed');
  await eventually(async () => (await effects(event.id)) === 1, 10_000);
  const replayed = await listDeadLetters(pool, { target: event.id, includeReplayed: true });
  const duplicates = async () =>
    (await m.registry.getMetricsAsJSON()).find((x) => x.name === 'h')?.values.find((v) => v.labels.outcome === 'duplicate')?.value ?? 0;
  const before = await duplicates();
  expect(replayed).toHaveLength(1);
  const again = await replayDeadLetters(pool, bus, replayed[0]!.id);
  expect(again.map((r) => r.replayed)).toEqual([true]);
  await eventually(async () => (await duplicates()) === before + 1, 10_000);
  expect(await effects(event.id)).toBe(1);
  expect((await deadLetters('kit-broken'))[0]).toMatchObject({ replayed_at: expect.anything() });
  expect(await listDeadLetters(pool, { target: 'kit-broken' })).toEqual([]);
  // Nothing unreplayed left: a replay by consumer finds nothing.
  expect(await replayDeadLetters(pool, bus, 'kit-broken')).toEqual([]);
  await consumer.stop();
});

it('lifts the delivery limit of a durable declared by an older version (max_deliver 10)', async () => {
  const { consumer } = consumerFor('kit-upgrade', 'upgrade', async () => undefined);
  const durable = 'kit-upgrade-contact-message-received';
  await bus.jsm.consumers.add(stream.stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: bus.subject('contact.message.received'),
    max_deliver: 10,
  });
  await consumer.ensure();
  expect((await bus.jsm.consumers.info(stream.stream, durable)).config.max_deliver).toBe(-1);
});

it('classifies failures by code: connection, contention and timeouts are transient, the rest is not', () => {
  expect(isTransientFailure({ code: 'P1001' })).toBe(true);
  expect(isTransientFailure({ code: '40P01' })).toBe(true);
  expect(isTransientFailure({ code: '08006' })).toBe(true);
  expect(isTransientFailure({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '40001' } } } })).toBe(
    true,
  );
  expect(isTransientFailure({ meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } })).toBe(true);
  expect(isTransientFailure(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }))).toBe(true);
  expect(isTransientFailure(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]))).toBe(true);
  expect(isTransientFailure({ name: 'AppError', code: 'UPSTREAM_UNAVAILABLE' })).toBe(true);
  expect(isTransientFailure({ code: 'P2002' })).toBe(false);
  expect(isTransientFailure({ code: '23505' })).toBe(false);
  expect(isTransientFailure(new Error('Connection terminated unexpectedly'))).toBe(false);
  expect(isTransientFailure({ name: 'AppError', code: 'PLOT_NOT_FOUND' })).toBe(false);
});

it('applies migrations once, even when replicas start together', async () => {
  const fs = await import('node:fs/promises');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pa-migrations-'));
  await fs.mkdir(path.join(dir, '20260101000000_init'));
  await fs.writeFile(
    path.join(dir, '20260101000000_init', 'migration.sql'),
    `CREATE TABLE "things" ("id" int PRIMARY KEY); INSERT INTO "things" VALUES (1);`,
  );
  const results = await Promise.all([1, 2, 3].map(() => migrate({ connectionString: db.url, schema: 'replicas', migrationsDir: dir })));
  expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 1]);
  expect(await db.query(`SELECT id FROM replicas.things`)).toEqual([{ id: 1 }]);
  const [row] = await db.query<{ finished: boolean; checksum: string }>(
    `SELECT finished_at IS NOT NULL AS finished, checksum FROM replicas._prisma_migrations`,
  );
  expect(row?.finished).toBe(true);
  expect(row?.checksum).toMatch(/^[0-9a-f]{64}$/);
  await fs.rm(dir, { recursive: true });
});
