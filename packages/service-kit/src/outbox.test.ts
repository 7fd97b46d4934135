import { rm } from 'node:fs/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { connectBus, ensureStream, eventStreamConfig, type EventBus } from './nats.ts';
import { enqueueEvent, OutboxRelay } from './outbox.ts';
import { pgClient } from './test-pg-client.ts';
import { TestNatsServer } from './test-nats-server.ts';
import {
  createTestDatabase,
  createTestStream,
  declareTestEventStream,
  eventually,
  readStream,
  TEST_JS_API_TIMEOUT_MS,
  type TestDatabase,
  type TestStream,
} from './testing.ts';

let db: TestDatabase;
let pool: pg.Pool;
let server: TestNatsServer;
let stream: TestStream;
let bus: EventBus;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.query(`CREATE SCHEMA kit`);
  // As every service's migration creates it.
  await db.query(`CREATE TABLE kit.outbox_events (
    id uuid PRIMARY KEY, subject text NOT NULL, payload jsonb NOT NULL, request_id text,
    created_at timestamptz(6) NOT NULL DEFAULT CURRENT_TIMESTAMP, published_at timestamptz(6),
    attempts integer NOT NULL DEFAULT 0, last_error text)`);
  pool = new pg.Pool({ connectionString: db.url });
  // A private broker: this file stops it.
  server = await TestNatsServer.start();
  stream = await createTestStream(server);
  bus = await connectBus(stream.busSettings('outbox-test'));
  await ensureStream(bus);
});

afterAll(async () => {
  await bus?.nc.close();
  await pool?.end();
  await server?.destroy();
  await db?.drop();
});

beforeEach(async () => {
  await db.query(`DELETE FROM kit.outbox_events`);
  // The stream denies purges (declareEventStream): start each test from a new one, as the operations step makes it.
  await (await jetstreamManager(bus.nc, { timeout: TEST_JS_API_TIMEOUT_MS })).streams.delete(stream.stream);
  await declareTestEventStream(server);
});

async function enqueue(n: number): Promise<string[]> {
  const client = pgClient(pool);
  return client.$transaction(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const event = await enqueueEvent({
        tx,
        schema: 'kit',
        type: 'contact.message.received',
        data: {
          id: `c${i}`,
          name: 'A',
          email: 'a@example.com',
          subject: 'general',
          message: `m${i}`,
          submittedAt: new Date().toISOString(),
        },
      });
      ids.push(event.id);
      // Distinct created_at so the relay's order is the order written.
      await tx.$executeRawUnsafe(
        `UPDATE kit.outbox_events SET created_at = now() + make_interval(secs => $2) WHERE id = $1::uuid`,
        event.id,
        i,
      );
    }
    return ids;
  });
}

function relayOver(relayBus: EventBus): OutboxRelay {
  const published = new Counter({ name: 'p', help: 'p', labelNames: ['subject'], registers: [new Registry()] });
  return new OutboxRelay({ pool, bus: relayBus, schema: 'kit' }, published);
}

const rows = () =>
  db.query<{ id: string; published: boolean; attempts: number; last_error: string | null }>(
    `SELECT id::text, published_at IS NOT NULL AS published, attempts, last_error FROM kit.outbox_events ORDER BY created_at`,
  );

/** How many messages the stream holds for each Nats-Msg-Id. */
async function storedPerId(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { msgId } of await readStream(stream)) if (msgId) counts.set(msgId, (counts.get(msgId) ?? 0) + 1);
  return counts;
}

it('keeps what a batch published before a failure, records the failed attempt, and stores each row once', async () => {
  const ids = await enqueue(3);
  // The broker refuses the second publish once (as when it goes away mid-batch); count every publish per id.
  const calls = new Map<string, number>();
  let refuse = true;
  const flaky: EventBus = {
    ...bus,
    js: new Proxy(bus.js, {
      get(target, key, receiver) {
        if (key !== 'publish') return Reflect.get(target, key, receiver);
        return async (subject: string, payload: string, options: { msgID: string }) => {
          calls.set(options.msgID, (calls.get(options.msgID) ?? 0) + 1);
          if (options.msgID === ids[1] && refuse) {
            refuse = false;
            throw new Error('broker went away');
          }
          return target.publish(subject, payload, options);
        };
      },
    }),
  };
  const relay = relayOver(flaky);

  await expect(relay.publishBatch()).rejects.toThrow('broker went away');
  const [first, second, third] = await rows();
  expect(first).toMatchObject({ published: true, attempts: 0, last_error: null });
  expect(second).toMatchObject({ published: false, attempts: 1, last_error: 'broker went away' });
  expect(third).toMatchObject({ published: false, attempts: 0 });

  expect(await relay.publishBatch()).toBe(2);
  expect((await rows()).every((r) => r.published)).toBe(true);
  // A batch is sent together: the refused second row and the third (sent, but after the refusal, so not marked) went
  // twice, to keep the order; the stream holds each once.
  expect(Object.fromEntries(calls)).toEqual(Object.fromEntries(ids.map((id, i) => [id, i === 0 ? 1 : 2])));
  expect(Object.fromEntries(await storedPerId())).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
});

it('records attempts and the error while NATS is down, then publishes every row once when it returns', async () => {
  const ids = await enqueue(3);
  const relay = relayOver(bus);
  await server.stop();
  try {
    await expect(relay.publishBatch()).rejects.toThrow();
    const [first, ...rest] = await rows();
    expect(first?.published).toBe(false);
    expect(first?.attempts).toBe(1);
    expect(first?.last_error).toBeTruthy();
    expect(rest.every((r) => !r.published && r.attempts === 0)).toBe(true);
  } finally {
    await server.resume();
  }
  await eventually(async () => (await relay.publishBatch().catch(() => -1)) >= 0 && (await rows()).every((r) => r.published), 20_000, 250);
  expect(Object.fromEntries(await storedPerId())).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
});

it('after the broker lost its store, publishes nothing into a stream someone re-created without the guards, and keeps the rows until the events setup step puts it right', async () => {
  // A service's own relay, with its own credentials (create-if-missing only).
  const contact = await connectBus(stream.busSettings('outbox-contact', 'contact'));
  try {
    const reconnected = new Promise<void>((resolve) => {
      void (async () => {
        for await (const status of contact.nc.status()) if (status.type === 'reconnect') return resolve();
      })();
    });
    const relay = relayOver(contact);
    await server.stop();
    await rm(server.storeDir, { recursive: true, force: true });
    await server.resume();
    // Someone gets there first with a stream that allows rollups, deletes and purges.
    const nc = await connect(stream.connectOptions());
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ ...eventStreamConfig(stream), allow_rollup_hdrs: true, deny_delete: false, deny_purge: false });
    } finally {
      await nc.close();
    }
    await reconnected;
    await enqueue(2);
    await expect(relay.publishBatch()).rejects.toThrow(/allows rollups, message deletes or purges/);
    expect((await rows()).map((r) => r.published)).toEqual([false, false]);
    expect(await readStream(stream)).toEqual([]);

    await declareTestEventStream(server);
    expect(await relay.publishBatch()).toBe(2);
    expect((await rows()).every((r) => r.published)).toBe(true);
    expect(await readStream(stream)).toHaveLength(2);
  } finally {
    await contact.nc.close();
  }
});

it('survives the database ending its connection during a publish: the batch fails, nothing is marked, the next round sends it', async () => {
  const ids = await enqueue(2);
  // The broker is slow to acknowledge; meanwhile the database ends the relay's connection (a restart under traffic).
  let ended!: () => void;
  const endedOnce = new Promise<void>((resolve) => (ended = resolve));
  let first = true;
  const slow: EventBus = {
    ...bus,
    js: new Proxy(bus.js, {
      get(target, key, receiver) {
        if (key !== 'publish') return Reflect.get(target, key, receiver);
        return async (subject: string, payload: string, options: { msgID: string }) => {
          if (first) {
            first = false;
            await db.query(
              `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
               WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle in transaction'`,
            );
            ended();
          }
          await endedOnce;
          return target.publish(subject, payload, options);
        };
      },
    }),
  };
  const relay = relayOver(slow);
  // Without a listener on the borrowed client this was an uncaught 'error' event, and the process ended.
  await expect(relay.publishBatch()).rejects.toThrow();
  expect((await rows()).some((r) => r.published)).toBe(false);
  expect(await relay.publishBatch()).toBe(2);
  expect(Object.fromEntries(await storedPerId())).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
});
