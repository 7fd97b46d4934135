import { randomUUID } from 'node:crypto';
import { headers as natsHeaders } from '@nats-io/nats-core';
import { EVENTS, type EventData, type EventEnvelope, type EventType } from '@pixel-atlas/contracts/events';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Counter } from 'prom-client';
import { PollingWorker } from './polling-worker.ts';
import { quoteIdent, type PrismaLike, type SqlClient } from './database.ts';
import { defineMetrics } from './metrics.ts';
import { ensureStream, type EventBus } from './nats.ts';
import { reconcileQueries, type NatsServiceName } from './nats-auth.ts';
import { answerPublishedEvents, DEFAULT_OUTBOX_RETENTION_DAYS } from './reconcile.ts';
import { serveQuery } from './rpc.ts';
import type { Subscription } from '@nats-io/nats-core';
import type pg from 'pg';

export interface EnqueueOptions<T extends EventType> {
  tx: SqlClient;
  schema: string;
  type: T;
  data: EventData<T>;
  requestId?: string;
}

/**
 * An event's envelope, its data checked against the contract: what `enqueueEvent` writes, for a caller that writes
 * the outbox row in a statement of its own (one round trip for a whole change).
 */
export function newEventEnvelope<T extends EventType>(type: T, data: EventData<T>, requestId?: string): EventEnvelope<EventData<T>> {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), requestId, data: EVENTS[type].parse(data) as EventData<T> };
}

/** Writes an event in the caller's transaction: it is published if and only if the change commits. */
export async function enqueueEvent<T extends EventType>(options: EnqueueOptions<T>): Promise<EventEnvelope<EventData<T>>> {
  const envelope = newEventEnvelope(options.type, options.data, options.requestId);
  await options.tx.$executeRawUnsafe(
    `INSERT INTO ${quoteIdent(options.schema)}."outbox_events" ("id", "subject", "payload", "request_id") VALUES ($1::uuid, $2, $3::jsonb, $4)`,
    envelope.id,
    envelope.type,
    JSON.stringify(envelope),
    options.requestId ?? null,
  );
  return envelope;
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: EventEnvelope;
  request_id: string | null;
}

export interface OutboxRelayOptions {
  /** The service's pool (`app.pg`): the relay's statements are prepared statements, outside Prisma. */
  pool: pg.Pool;
  bus: EventBus;
  schema: string;
  batchSize?: number;
}

/**
 * Publishes outbox rows to JetStream with Nats-Msg-Id = event id, oldest first, until acknowledged.
 * Rows are claimed with FOR UPDATE SKIP LOCKED so replicas never publish the same row concurrently;
 * a crash between publish and mark re-publishes, and the stream's duplicate window drops the copy.
 */
export class OutboxRelay {
  /**
   * After a failed publish or a reconnect: make sure the stream exists, guarded, before the next attempt (it may have
   * been lost with the broker's store). Until `ensureStream` succeeds nothing is published and the rows stay, so no
   * event goes into a stream someone re-created without the guards (it throws on such a stream).
   */
  private checkStream = false;
  private readonly statements: Record<'waiting' | 'claim' | 'failed' | 'published', { name: string; text: string }>;

  constructor(
    private readonly options: OutboxRelayOptions,
    readonly published: Counter,
  ) {
    (async () => {
      for await (const status of options.bus.nc.status()) if (status.type === 'reconnect') this.checkStream = true;
    })().catch(() => undefined);
    const table = `${quoteIdent(options.schema)}."outbox_events"`;
    const named = (key: string, text: string) => ({ name: `outbox.${key}.${options.schema}`, text });
    this.statements = {
      // The idle round (four a second in every service) is this one read on the partial index, no transaction.
      waiting: named('waiting', `SELECT EXISTS (SELECT 1 FROM ${table} WHERE "published_at" IS NULL) AS "waiting"`),
      claim: named(
        'claim',
        `SELECT "id"::text, "subject", "payload", "request_id" FROM ${table} WHERE "published_at" IS NULL ORDER BY "created_at", "id" LIMIT $1 FOR UPDATE SKIP LOCKED`,
      ),
      failed: named('failed', `UPDATE ${table} SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = $1::uuid`),
      published: named('published', `UPDATE ${table} SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`),
    };
  }

  /** Returns how many rows were published. */
  async publishBatch(): Promise<number> {
    const { pool, bus, batchSize = 50 } = this.options;
    if (this.checkStream) {
      await ensureStream(bus);
      this.checkStream = false;
    }
    const [probe] = (await pool.query<{ waiting: boolean }>(this.statements.waiting)).rows;
    if (!probe?.waiting) return 0;
    const client = await pool.connect();
    // While the client is out of the pool nobody else listens for its errors: a connection the database ends during a
    // publish (PostgreSQL stopped under traffic) would be an uncaught 'error' event, and the process would exit.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
    };
    client.on('error', onLost);
    let published: number;
    let failure: Error | null = null;
    try {
      await client.query('BEGIN');
      const rows = (await client.query<OutboxRow>({ ...this.statements.claim, values: [batchSize] })).rows;
      // Sent together (one socket write, the acknowledgements awaited side by side), in order on the connection,
      // so the stream keeps their order. Only the acknowledged prefix is marked: a row after a failed one is sent
      // again next round, in order again, and the stream's duplicate window drops the copy it already holds.
      const results = await Promise.allSettled(
        rows.map((row) => {
          const h = natsHeaders();
          if (row.request_id) h.set(INTERNAL_HEADERS.requestId, row.request_id);
          return bus.js.publish(bus.subject(row.subject), JSON.stringify(row.payload), { msgID: row.id, headers: h, timeout: 3000 });
        }),
      );
      const done: string[] = [];
      for (const [i, result] of results.entries()) {
        const row = rows[i]!;
        if (result.status === 'fulfilled') {
          done.push(row.id);
          this.published.inc({ subject: row.subject });
          continue;
        }
        const error: unknown = result.reason;
        failure = error instanceof Error ? error : new Error(String(error));
        this.checkStream = true;
        await client.query({ ...this.statements.failed, values: [row.id, failure.message.slice(0, 500)] });
        break;
      }
      if (done.length) await client.query({ ...this.statements.published, values: [done] });
      // Commits what happened, published rows and the failed attempt alike; the failure is reported only after that
      // (rolling back would publish the rows again).
      await client.query('COMMIT');
      published = done.length;
    } catch (error) {
      // A connection that failed mid-transaction is not given back to the pool.
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      client.off('error', onLost);
      client.release(!rolledBack || lost !== undefined);
      throw error;
    }
    client.off('error', onLost);
    client.release(lost);
    if (failure) throw failure;
    return published;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The relay's loop: `kick()` after a commit that wrote events, so they leave now rather than at the next poll. */
    outbox: PollingWorker;
  }
}

/** Rows deleted per round of the retention sweep. */
const PRUNE_BATCH = 1000;

/**
 * Deletes published rows older than the retention, a batch per round (SKIP LOCKED: replicas share the work). Rows
 * are kept that long for the reconcilers of the consumers (reconcile.ts), not for the relay, which is done with them.
 */
export async function pruneOutbox(pool: pg.Pool, schema: string, retentionDays: number): Promise<number> {
  const table = `${quoteIdent(schema)}."outbox_events"`;
  const result = await pool.query({
    name: `outbox.prune.${schema}`,
    text: `DELETE FROM ${table} WHERE "id" IN (
             SELECT "id" FROM ${table} WHERE "published_at" < now() - make_interval(days => $1::int) LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    values: [retentionDays, PRUNE_BATCH],
  });
  return result.rowCount ?? 0;
}

export interface OutboxPluginOptions {
  schema: string;
  db: () => PrismaLike;
  pollIntervalMs?: number;
  /** The producing service: it answers its consumers' reconcilers (`query.<service>.published-events`). */
  service?: NatsServiceName;
  /** Published rows are kept this many days (OUTBOX_RETENTION_DAYS), then pruned. */
  retentionDays?: number;
  /** Between two retention sweeps. */
  pruneIntervalMs?: number;
}

/**
 * Starts the relay once the app is ready, exports backlog metrics, and stops it before NATS drains; prunes published
 * rows past their retention; answers the reconcilers of the services that consume its events.
 */
export const outboxPlugin = fp(
  async (app: FastifyInstance, opts: OutboxPluginOptions) => {
    const table = `${quoteIdent(opts.schema)}."outbox_events"`;
    const { published } = defineMetrics(app.metrics, (m) => ({
      published: m.counter({
        name: 'outbox_events_published_total',
        help: 'Events relayed from the outbox to JetStream',
        labelNames: ['subject'],
      }),
      backlog: m.gauge({
        name: 'outbox_backlog_events',
        help: 'Events written but not yet acknowledged by JetStream',
        async collect() {
          const [row] = await opts
            .db()
            .$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM ${table} WHERE "published_at" IS NULL`);
          this.set(row?.n ?? 0);
        },
      }),
      oldestUnpublishedAge: m.gauge({
        name: 'outbox_oldest_unpublished_age_seconds',
        help: 'Age of the oldest unpublished event (0 when none)',
        async collect() {
          const [row] = await opts
            .db()
            .$queryRawUnsafe<Array<{ age: number | null }>>(
              `SELECT EXTRACT(EPOCH FROM now() - min("created_at"))::float AS age FROM ${table} WHERE "published_at" IS NULL`,
            );
          this.set(row?.age ?? 0);
        },
      }),
    }));
    const batchSize = 50;
    const relay = new OutboxRelay({ pool: app.pg, bus: app.bus, schema: opts.schema, batchSize }, published);
    const worker = new PollingWorker({
      name: 'outbox relay',
      tick: () => relay.publishBatch(),
      // A short round took every row there was; rows committed since then kicked the worker, which runs it again.
      moreMayWait: (published) => published >= batchSize,
      pollIntervalMs: opts.pollIntervalMs ?? 250,
      maxBackoffMs: 5000,
      log: app.log,
    });
    app.decorate('outbox', worker);
    const retentionDays = opts.retentionDays ?? DEFAULT_OUTBOX_RETENTION_DAYS;
    const pruner = new PollingWorker({
      name: 'outbox retention sweep',
      tick: () => pruneOutbox(app.pg, opts.schema, retentionDays),
      moreMayWait: (deleted) => deleted >= PRUNE_BATCH,
      pollIntervalMs: opts.pruneIntervalMs ?? 10 * 60_000,
      maxBackoffMs: 30 * 60_000,
      log: app.log,
    });
    let answering: Subscription | null = null;
    app.addHook('onReady', async () => {
      worker.start();
      pruner.start();
      if (opts.service && reconcileQueries(opts.service).answers.length) {
        const handler = answerPublishedEvents({ pool: app.pg, schema: opts.schema, service: opts.service });
        answering = serveQuery(app.bus, opts.service, handler, (error) =>
          app.log.error({ err: error, subject: handler.subject }, 'published-events query failed'),
        );
      }
    });
    app.addHook('preClose', async () => {
      answering?.unsubscribe();
      await pruner.stop();
    });
    // onClose (not preClose): requests still in flight during shutdown may write events the relay should send.
    app.addHook('onClose', async () => {
      await worker.stop();
      await relay.publishBatch().catch(() => 0);
    });
  },
  { name: 'pixel-atlas-outbox', dependencies: ['pixel-atlas-nats', 'pixel-atlas-metrics', 'pixel-atlas-database'] },
);
