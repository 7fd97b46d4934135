import { randomBytes } from 'node:crypto';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { ConnectionOptions } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import type { EventEnvelope } from '@pixel-atlas/contracts/events';
import pg from 'pg';
import { EVENTS_ADMIN_USER, type NatsServiceName, type NatsUserName } from './nats-auth.ts';
import { runEventsSetup } from './events-setup.ts';
import type { NatsSettings } from './nats.ts';
import { TEST_OPERATOR_USER, TestNatsServer } from './test-nats-server.ts';

/**
 * Where tests find PostgreSQL: `npm test` exports DATABASE_URL after making sure it runs. NATS is not here: every
 * test file gets its own authenticated nats-server from `createTestStream()` (the machine's shared one has no users).
 */
export function testInfra(): { databaseUrl: string } {
  return { databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' };
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
  /** How many rows `from` holds: a table, optionally followed by its WHERE clause (`contact.messages WHERE x = $1`). */
  count(from: string, params?: unknown[]): Promise<number>;
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
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    name,
    url,
    query,
    async count(from, params) {
      const [row] = await query<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, params);
      return Number(row?.n);
    },
    async drop() {
      const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** `connectBus()` settings on a test stream: the stream is always declared. */
export type TestBusSettings = Omit<NatsSettings, 'declareStream'>;

export interface TestStream {
  stream: string;
  subjectPrefix: string;
  /** The test file's own broker, whose users are granted this stream and prefix. */
  server: TestNatsServer;
  natsUrl: string;
  /**
   * `connect()` options as the test operator (may do anything), or as one service's user or the operations step's
   * (their grants only).
   */
  connectOptions(user?: NatsUserName | typeof TEST_OPERATOR_USER): ConnectionOptions;
  /** `connectBus()` settings on this stream, as the test operator unless a service's user is named. */
  busSettings(name: string, user?: NatsServiceName): TestBusSettings;
  remove(): Promise<void>;
}

/**
 * How long a test's JetStream API request (declaring or deleting a stream) may take. Deleting or creating a file-backed
 * stream waits on the disk, and on a loaded CI machine that has taken longer than the client's default of 5 s.
 */
export const TEST_JS_API_TIMEOUT_MS = 30_000;

/**
 * The operations step on a test broker, as production runs it before any service starts (`runEventsSetup`, which tries
 * again while the broker is not ready or an answer was lost): connected as its own user (EVENTS_ADMIN_USER, with the
 * production grants), it declares the stream and every durable consumer.
 */
export async function declareTestEventStream(server: TestNatsServer): Promise<void> {
  const admin = server.connectOptions(EVENTS_ADMIN_USER);
  await runEventsSetup({
    servers: server.url,
    stream: server.stream,
    subjectPrefix: server.subjectPrefix,
    streamReplicas: server.streamReplicas,
    user: admin.user,
    password: admin.pass,
    requestTimeoutMs: TEST_JS_API_TIMEOUT_MS,
    timeoutMs: 2 * TEST_JS_API_TIMEOUT_MS,
  });
}

/**
 * A uniquely named stream and subject prefix, on an authenticated nats-server of its own (started here, ~50 ms, and
 * stopped by `remove()`), or on `server` when the test manages the broker itself (to stop and restart it; `remove()`
 * then deletes only the stream). One stream per server, declared by the operations step before this returns.
 */
export async function createTestStream(server?: TestNatsServer): Promise<TestStream> {
  const owned = !server;
  const broker = server ?? (await TestNatsServer.start());
  await declareTestEventStream(broker);
  return {
    stream: broker.stream,
    subjectPrefix: broker.subjectPrefix,
    server: broker,
    natsUrl: broker.url,
    connectOptions: (user) => broker.connectOptions(user),
    busSettings: (name, user) => {
      const options = broker.connectOptions(user);
      return {
        servers: broker.url,
        stream: broker.stream,
        subjectPrefix: broker.subjectPrefix,
        streamReplicas: broker.streamReplicas,
        name,
        user: options.user,
        password: options.pass,
      };
    },
    async remove() {
      if (owned) return broker.destroy();
      const nc = await connect(broker.connectOptions());
      try {
        const jsm = await jetstreamManager(nc);
        await jsm.streams.delete(broker.stream).catch(() => undefined);
      } finally {
        await nc.close();
      }
    },
  };
}

export interface StreamMessage {
  seq: number;
  subject: string;
  /** The Nats-Msg-Id JetStream deduplicated on (the outbox relay sends the event id). */
  msgId: string | null;
  event: EventEnvelope<any>;
}

/**
 * Every message a stream holds, oldest first: what the services really published. Reads through `jsm` when the
 * caller already has a connection, otherwise connects to the test stream as the operator.
 */
export async function readStream(source: TestStream | { jsm: JetStreamManager; stream: string }): Promise<StreamMessage[]> {
  if ('jsm' in source) return readWith(source.jsm, source.stream);
  const nc = await connect(source.connectOptions());
  try {
    return await readWith(await jetstreamManager(nc), source.stream);
  } finally {
    await nc.close();
  }
}

async function readWith(jsm: JetStreamManager, stream: string): Promise<StreamMessage[]> {
  const info = await jsm.streams.info(stream).catch(() => null);
  const out: StreamMessage[] = [];
  if (!info || info.state.messages === 0) return out;
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    // A gap (a message deleted or purged) is not an error.
    const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (!message) continue;
    out.push({
      seq,
      subject: message.subject,
      msgId: message.header?.get('Nats-Msg-Id') || null,
      event: message.json<EventEnvelope<any>>(),
    });
  }
  return out;
}

export const TEST_INTERNAL_TOKEN = 'test-internal-token-0123456789';

/**
 * Base environment for a service under test, pointing at its own database and stream. NATS_USER is left out: each
 * service connects as its own name, with the password the test broker gives every service user.
 */
export function testServiceEnv(db: TestDatabase, stream: TestStream): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    NATS_URL: stream.natsUrl,
    NATS_PASSWORD: stream.server.servicePassword,
    NATS_STREAM: stream.stream,
    NATS_SUBJECT_PREFIX: stream.subjectPrefix,
    NATS_STREAM_REPLICAS: String(stream.server.streamReplicas),
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
  };
}

/** Polls until `check` returns a truthy value (or throws after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: string | undefined;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = String(error);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${lastError}` : ''}`);
}
