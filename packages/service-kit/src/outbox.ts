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
  db: PrismaLike;
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
  /** After a failed publish: make sure the stream exists before the next attempt (it may have been lost with the broker's store). */
  private checkStream = false;

  constructor(
    private readonly options: OutboxRelayOptions,
    readonly published: Counter,
  ) {}

  /** Returns how many rows were published. */
  async publishBatch(): Promise<number> {
    const { db, bus, schema, batchSize = 50 } = this.options;
    const table = `${quoteIdent(schema)}."outbox_events"`;
    if (this.checkStream) {
      await ensureStream(bus);
      this.checkStream = false;
    }
    // The transaction commits what happened, published rows and the failed attempt alike; the failure is
    // reported only after that (throwing inside would roll the bookkeeping back and publish the rows again).
    const { published, failure } = await db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRawUnsafe<OutboxRow[]>(
          `SELECT "id"::text, "subject", "payload", "request_id" FROM ${table} WHERE "published_at" IS NULL ORDER BY "created_at", "id" LIMIT $1 FOR UPDATE SKIP LOCKED`,
          batchSize,
        );
        const done: string[] = [];
        let failure: Error | null = null;
        for (const row of rows) {
          const h = natsHeaders();
          if (row.request_id) h.set(INTERNAL_HEADERS.requestId, row.request_id);
          try {
            await bus.js.publish(bus.subject(row.subject), JSON.stringify(row.payload), { msgID: row.id, headers: h, timeout: 3000 });
            done.push(row.id);
            this.published.inc({ subject: row.subject });
          } catch (error) {
            failure = error instanceof Error ? error : new Error(String(error));
            this.checkStream = true;
            await tx.$executeRawUnsafe(
              `UPDATE ${table} SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = $1::uuid`,
              row.id,
              String((error as Error).message ?? error).slice(0, 500),
            );
            break;
          }
        }
        if (done.length) {
          await tx.$executeRawUnsafe(`UPDATE ${table} SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`, done);
        }
        return { published: done.length, failure };
      },
      { timeout: 30_000, maxWait: 10_000 },
    );
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

/** Starts the relay once the app is ready, exports backlog metrics, and stops it before NATS drains. */
export const outboxPlugin = fp(
  async (app: FastifyInstance, opts: { schema: string; db: () => PrismaLike; pollIntervalMs?: number }) => {
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
    const relay = new OutboxRelay({ db: opts.db(), bus: app.bus, schema: opts.schema }, published);
    const worker = new PollingWorker({
      name: 'outbox relay',
      tick: () => relay.publishBatch(),
      pollIntervalMs: opts.pollIntervalMs ?? 250,
      maxBackoffMs: 5000,
      log: app.log,
    });
    app.decorate('outbox', worker);
    app.addHook('onReady', async () => worker.start());
    // onClose (not preClose): requests still in flight during shutdown may write events the relay should send.
    app.addHook('onClose', async () => {
      await worker.stop();
      await relay.publishBatch().catch(() => 0);
    });
  },
  { name: 'pixel-atlas-outbox', dependencies: ['pixel-atlas-nats', 'pixel-atlas-metrics', 'pixel-atlas-database'] },
);
