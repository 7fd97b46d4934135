import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Subscription } from '@nats-io/nats-core';
import type { EventEnvelope } from '@pixel-atlas/contracts/events';
import pino from 'pino';
import pg from 'pg';
import { Counter, Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { InboxConsumer } from './inbox.ts';
import { connectBus, ensureStream, type EventBus } from './nats.ts';
import { pruneOutbox } from './outbox.ts';
import { answerPublishedEvents, Reconciler, type ReconcileSettings } from './reconcile.ts';
import { serveQuery } from './rpc.ts';
import { pgClient } from './test-pg-client.ts';
import { createTestDatabase, createTestStream, eventually, type TestDatabase, type TestStream } from './testing.ts';

// Plots publishes plots.plot.flagged, moderation consumes it: each connects as its own NATS user, with the
// production grants (the producer answers query.plots.published-events, the consumer may ask it).
let db: TestDatabase;
let stream: TestStream;
let producerBus: EventBus;
let consumerBus: EventBus;
let pool: pg.Pool;
let answering: Subscription;
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

beforeAll(async () => {
  db = await createTestDatabase();
  await db.query(`CREATE SCHEMA kit`);
  await db.query(`CREATE TABLE kit.outbox_events (
    id uuid PRIMARY KEY, subject text NOT NULL, payload jsonb NOT NULL, request_id text, created_at timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz, attempts int NOT NULL DEFAULT 0, last_error text)`);
  await db.query(
    `CREATE TABLE kit.inbox_events (consumer text, event_id uuid, subject text, processed_at timestamptz DEFAULT now(), PRIMARY KEY (consumer, event_id))`,
  );
  await db.query(`CREATE TABLE kit.dead_letter_events (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), event_id uuid, consumer text NOT NULL, subject text NOT NULL, payload text NOT NULL,
    error text NOT NULL, attempts int NOT NULL, first_failed_at timestamptz NOT NULL, last_failed_at timestamptz NOT NULL,
    replayed_at timestamptz, UNIQUE (consumer, event_id))`);
  await db.query(`CREATE TABLE kit.effects (event_id uuid, plot_id uuid)`);
  pool = new pg.Pool({ connectionString: db.url });
});

beforeEach(async () => {
  await db.query(`TRUNCATE kit.outbox_events, kit.inbox_events, kit.dead_letter_events, kit.effects`);
  stream = await createTestStream();
  producerBus = await connectBus(stream.busSettings('plots', 'plots'));
  consumerBus = await connectBus(stream.busSettings('moderation', 'moderation'));
  await ensureStream(producerBus);
  answering = serveQuery(producerBus, 'plots', answerPublishedEvents({ pool, schema: 'kit', service: 'plots' }), (error) => {
    throw error;
  });
});

afterEach(async () => {
  answering?.unsubscribe();
  await consumerBus?.nc.drain();
  await producerBus?.nc.drain();
  await stream?.remove();
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

function flagged(): EventEnvelope {
  return {
    id: randomUUID(),
    type: 'plots.plot.flagged',
    occurredAt: new Date().toISOString(),
    data: {
      plotId: randomUUID(),
      displayName: 'A plot',
      zone: 'north',
      tier: 'basic',
      x: 1,
      y: 2,
      message: 'hello',
      link: null,
      createdAt: new Date().toISOString(),
      flagCount: 1,
      reason: null,
    },
  };
}

/** An outbox row the relay marked published `agoMs` ago (the bus acknowledged it; whether it kept it is the question). */
async function published(event: EventEnvelope, agoMs: number): Promise<void> {
  await db.query(
    `INSERT INTO kit.outbox_events (id, subject, payload, created_at, published_at)
     VALUES ($1::uuid, $2, $3::jsonb, now() - make_interval(secs => $4::float8 / 1000), now() - make_interval(secs => $4::float8 / 1000))`,
    [event.id, event.type, JSON.stringify(event), agoMs],
  );
}

function consumer(behave: (event: EventEnvelope) => Promise<void> = async () => undefined) {
  const registry = new Registry();
  const counter = (name: string, labelNames: string[]) => new Counter({ name, help: name, labelNames, registers: [registry] });
  const inbox = new InboxConsumer(
    consumerBus,
    pgClient(pool),
    log,
    {
      durable: 'moderation',
      schema: 'kit',
      handlers: {
        'plots.plot.flagged': async (event, tx) => {
          await tx.$executeRawUnsafe(
            `INSERT INTO kit.effects (event_id, plot_id) VALUES ($1::uuid, $2::uuid)`,
            event.id,
            event.data.plotId,
          );
          await behave(event);
        },
      },
    },
    {
      handled: counter('handled', ['consumer', 'outcome']),
      redelivered: counter('redelivered', ['consumer']),
      deadLettered: counter('dead', ['consumer']),
    },
  );
  const reconciled = counter('reconciled', ['consumer', 'type', 'producer']);
  const reconcilerFor = (settings: Partial<ReconcileSettings> = {}) =>
    new Reconciler({
      bus: consumerBus,
      pool,
      db: pgClient(pool),
      consumer: inbox,
      settings: { graceMs: 5_000, intervalMs: 60_000, ...settings },
      log,
      reconciled,
    });
  return { inbox, reconcilerFor, reconciled };
}

const effects = async () =>
  (await db.query<{ event_id: string }>(`SELECT event_id::text FROM kit.effects ORDER BY event_id`)).map((r) => r.event_id);

it('applies, once, what was published past the grace period and never applied; leaves recent and applied ones alone', async () => {
  const lost = [flagged(), flagged()];
  const recent = flagged();
  const applied = flagged();
  for (const event of lost) await published(event, 30_000);
  await published(recent, 0);
  await published(applied, 30_000);
  await db.query(`INSERT INTO kit.inbox_events (consumer, event_id, subject) VALUES ('moderation', $1::uuid, $2)`, [
    applied.id,
    applied.type,
  ]);
  const { reconcilerFor, reconciled } = consumer();
  const reconciler = reconcilerFor();

  expect(await reconciler.pass()).toBe(2);
  expect(await effects()).toEqual(lost.map((e) => e.id).sort());
  expect((await reconciled.get()).values.map((v) => [v.labels, v.value])).toEqual([
    [{ consumer: 'moderation', type: 'plots.plot.flagged', producer: 'plots' }, 2],
  ]);
  // The next pass (its cursor rewound by the overlap) finds them applied.
  expect(await reconciler.pass()).toBe(0);
  expect(await effects()).toHaveLength(2);
});

it('pages through a backlog with a cursor, a bounded number of pages per pass, until every event is applied', async () => {
  const events = Array.from({ length: 7 }, () => flagged());
  for (const [i, event] of events.entries()) await published(event, 60_000 - i * 1000);
  const reconciler = consumer().reconcilerFor({ pageSize: 2, maxPagesPerPass: 2 });
  // Two pages of two, and more to read: the worker goes on at once.
  expect(await reconciler.pass()).toBe(-1);
  expect(await effects()).toHaveLength(4);
  expect(await reconciler.pass()).toBe(3);
  expect((await effects()).sort()).toEqual(events.map((e) => e.id).sort());
});

it('a row that became visible behind the cursor (a slow relay transaction) is found by the next pass, within the overlap', async () => {
  const first = flagged();
  await published(first, 30_000);
  const reconciler = consumer().reconcilerFor({ overlapMs: 60_000 });
  expect(await reconciler.pass()).toBe(1);
  expect(await reconciler.pass()).toBe(0);
  // Stamped 20 s before the newest row the cursor saw, committed only now.
  const late = flagged();
  await published(late, 50_000);
  expect(await reconciler.pass()).toBe(1);
  expect(await effects()).toEqual([first.id, late.id].sort());
});

it('one replica at a time: a pass that finds the advisory lock taken does nothing', async () => {
  const event = flagged();
  await published(event, 30_000);
  const reconciler = consumer().reconcilerFor();
  const holder = await pool.connect();
  try {
    await holder.query(`SELECT pg_advisory_lock(hashtext('reconcile:kit:moderation'))`);
    expect(await reconciler.pass()).toBe(0);
    expect(await effects()).toEqual([]);
    await holder.query(`SELECT pg_advisory_unlock(hashtext('reconcile:kit:moderation'))`);
  } finally {
    holder.release();
  }
  expect(await reconciler.pass()).toBe(1);
});

it('a JetStream delivery racing the repair of the same event: applied once', async () => {
  const events = Array.from({ length: 20 }, () => flagged());
  for (const event of events) await published(event, 30_000);
  // Each handler lingers, so the consumer's transactions and the reconciler's overlap on the same inbox keys.
  const { inbox, reconcilerFor } = consumer(() => new Promise((resolve) => setTimeout(resolve, 20)));
  await inbox.start();
  try {
    await Promise.all([
      ...events.map((event) => producerBus.js.publish(producerBus.subject(event.type), JSON.stringify(event), { msgID: event.id })),
      reconcilerFor().pass(),
    ]);
    await eventually(async () => (await db.count(`kit.inbox_events`)) === events.length, 20_000, 50);
    await eventually(async () => (await inbox.pending()) === 0, 20_000, 50);
  } finally {
    await inbox.stop();
  }
  expect((await effects()).sort()).toEqual(events.map((e) => e.id).sort());
});

it('keeps published rows for the retention, then prunes them; never an unpublished row', async () => {
  const old = flagged();
  const kept = flagged();
  const waiting = flagged();
  await published(old, 8 * 86_400_000);
  await published(kept, 6 * 86_400_000);
  await db.query(
    `INSERT INTO kit.outbox_events (id, subject, payload, created_at) VALUES ($1::uuid, $2, $3::jsonb, now() - interval '9 days')`,
    [waiting.id, waiting.type, JSON.stringify(waiting)],
  );
  expect(await pruneOutbox(pool, 'kit', 7)).toBe(1);
  const left = (await db.query<{ id: string }>(`SELECT id::text FROM kit.outbox_events ORDER BY id`)).map((r) => r.id);
  expect(left).toEqual([kept.id, waiting.id].sort());
});

it('an alert fires on any repair (deploy/alerts.yml), on the metric the reconcilers export', () => {
  const alerts = readFileSync(path.resolve(import.meta.dirname, '../../../deploy/alerts.yml'), 'utf8');
  expect(alerts).toMatch(
    /alert: EventsReconciled\n\s+expr: sum by \(job, consumer, producer\) \(increase\(events_reconciled_total\[\w+\]\)\) > 0/,
  );
  expect(readFileSync(path.resolve(import.meta.dirname, 'inbox.ts'), 'utf8')).toContain(`name: 'events_reconciled_total'`);
});
