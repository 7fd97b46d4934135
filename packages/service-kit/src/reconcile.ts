import {
  publishedEventsQuery,
  type EventEnvelope,
  type PublishedEventsReply,
  type PublishedEventsRequest,
} from '@pixel-atlas/contracts/events';
import { eventProducer, type ServiceName } from '@pixel-atlas/contracts/services';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Counter } from 'prom-client';
import { quoteIdent, type PrismaLike } from './database.ts';
import { DEAD_LETTER_TABLE, recordDeadLetter } from './dead-letters.ts';
import type { InboxConsumer } from './inbox.ts';
import type { EventBus } from './nats.ts';
import { PollingWorker } from './polling-worker.ts';
import { answer, query, type QueryHandler } from './rpc.ts';

/**
 * Reconciliation: what was published is eventually applied, whatever the bus lost. JetStream acknowledges a write
 * before it reaches the disk (it syncs on an interval; Jepsen, NATS 2.12.1), so a broker that crashes, or comes back
 * without its store, can lose events every outbox already marked published. Producers keep those rows for
 * `OUTBOX_RETENTION_DAYS` and answer `query.<service>.published-events`; each consumer runs one loop that pages through
 * the ids its producers published (older than the grace period), compares them with its inbox, and applies the missing
 * ones through the consumer's own handler path (same event id: the inbox applies each at most once, and a JetStream
 * redelivery racing the repair finds the inbox row and applies nothing).
 */

export interface ReconcileSettings {
  /** An event is repaired only once it was published this long ago (the bus had its chance). 0 turns reconciliation off. */
  graceMs: number;
  /** Between two passes. */
  intervalMs: number;
  /** Ids per page asked of a producer. */
  pageSize?: number;
  /**
   * Each pass starts this far before the newest row the last one saw: a row is stamped when its relay's transaction
   * began and becomes visible when it commits, so a slow transaction can add rows behind the cursor.
   */
  overlapMs?: number;
  /** Pages per producer in one pass (the next pass goes on at once while this bound is hit). */
  maxPagesPerPass?: number;
  /** Failed attempts at one event (not a dependency being down) before it goes to dead_letter_events. */
  maxFailures?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * How the service's consumers reconcile (RECONCILE_GRACE_MS, RECONCILE_INTERVAL_MS), set by `createBackendService`
     * and read by `inboxPlugin`; absent elsewhere.
     */
    reconcileSettings?: ReconcileSettings;
  }
}

export const DEFAULT_OUTBOX_RETENTION_DAYS = 7;
const DEFAULT_PAGE_SIZE = 500;
const DEFAULT_OVERLAP_MS = 2 * 60_000;
const DEFAULT_MAX_PAGES = 20;
const DEFAULT_MAX_FAILURES = 5;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

interface PublishedRow {
  id: string;
  type: string;
  published_at: string;
  payload?: EventEnvelope;
}

/**
 * The producer's side: the published rows of its outbox, by keyset pages on (published_at, id), or the envelopes of
 * given ids. Prepared statements on the service's pool; `published_at` leaves as PostgreSQL's text (microseconds).
 */
export function answerPublishedEvents(options: { pool: pg.Pool; schema: string; service: ServiceName }): QueryHandler {
  const table = `${quoteIdent(options.schema)}."outbox_events"`;
  const page = {
    name: `reconcile.page.${options.schema}`,
    text: `SELECT "id"::text, "subject" AS "type", "published_at"::text AS "published_at" FROM ${table}
           WHERE "published_at" IS NOT NULL AND "subject" = ANY($1::text[])
             AND "published_at" < now() - make_interval(secs => $2::float8 / 1000)
             AND ("published_at", "id") > ($3::timestamptz, $4::uuid)
           ORDER BY "published_at", "id" LIMIT $5`,
  };
  const byIds = {
    name: `reconcile.ids.${options.schema}`,
    text: `SELECT "id"::text, "subject" AS "type", "published_at"::text AS "published_at", "payload" FROM ${table}
           WHERE "id" = ANY($1::uuid[]) AND "published_at" IS NOT NULL AND "subject" = ANY($2::text[])
           ORDER BY "published_at", "id"`,
  };
  return answer(publishedEventsQuery(options.service), async (request: PublishedEventsRequest): Promise<PublishedEventsReply> => {
    const rows = request.ids
      ? (await options.pool.query<PublishedRow>({ ...byIds, values: [request.ids, request.types] })).rows
      : (
          await options.pool.query<PublishedRow>({
            ...page,
            values: [
              request.types,
              request.olderThanMs,
              request.after?.publishedAt ?? '-infinity',
              request.after?.id ?? ZERO_UUID,
              request.limit,
            ],
          })
        ).rows;
    return {
      events: rows.map((row) => ({
        id: row.id,
        type: row.type,
        publishedAt: row.published_at,
        ...(row.payload ? { envelope: row.payload } : {}),
      })),
    };
  });
}

export interface ReconcilerOptions {
  bus: EventBus;
  pool: pg.Pool;
  db: PrismaLike;
  consumer: InboxConsumer;
  settings: ReconcileSettings;
  log: FastifyBaseLogger;
  reconciled: Counter;
}

/**
 * One consumer's reconciliation, a round of its PollingWorker: under a PostgreSQL advisory lock (so one replica
 * passes at a time; another that finds it taken skips the round), for each producer of the types it consumes, pages
 * through the ids published since the cursor, finds those neither in its inbox nor in its dead letters, fetches and
 * applies them. The cursor lives in memory: a new process scans the whole retention once (ids only, in pages).
 */
export class Reconciler {
  /** Per producer: where the next pass starts, and the newest row seen (the next pass starts overlapMs before it). */
  private readonly cursors = new Map<ServiceName, { publishedAt: string; id: string; rewound: boolean }>();
  private readonly failures = new Map<string, { count: number; firstFailedAt: Date }>();
  readonly worker: PollingWorker;

  constructor(private readonly options: ReconcilerOptions) {
    this.worker = new PollingWorker({
      name: `reconciler ${options.consumer.name}`,
      tick: () => this.pass(),
      // A pass that stopped at its page bound left work: go on at once.
      moreMayWait: (handled) => handled < 0,
      pollIntervalMs: options.settings.intervalMs,
      maxBackoffMs: Math.max(options.settings.intervalMs, 60_000),
      log: options.log,
      waitBeforeFirstRound: true,
    });
  }

  /** Types consumed, by producer. */
  private get producers(): Map<ServiceName, string[]> {
    const out = new Map<ServiceName, string[]>();
    for (const type of this.options.consumer.eventTypes) {
      const producer = eventProducer(type);
      out.set(producer, [...(out.get(producer) ?? []), type]);
    }
    return out;
  }

  /** One pass; returns how many events it repaired, or -1 when it stopped at its page bound with more to read. */
  async pass(): Promise<number> {
    const client = await this.options.pool.connect();
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
    };
    client.on('error', onLost);
    const key = `reconcile:${this.options.consumer.schema}:${this.options.consumer.name}`;
    try {
      const [row] = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS "locked"', [key])).rows;
      if (!row?.locked) return 0;
      try {
        let repaired = 0;
        let more = false;
        for (const [producer, types] of this.producers) {
          const result = await this.passProducer(producer, types);
          repaired += result.repaired;
          more ||= result.more;
        }
        return more ? -1 : repaired;
      } finally {
        // A lock that could not be released must not go back to the pool with its connection.
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch((error: Error) => {
          lost = error;
        });
      }
    } finally {
      client.off('error', onLost);
      client.release(lost);
    }
  }

  private async passProducer(producer: ServiceName, types: string[]): Promise<{ repaired: number; more: boolean }> {
    const { settings, bus } = this.options;
    const pageSize = settings.pageSize ?? DEFAULT_PAGE_SIZE;
    const definition = publishedEventsQuery(producer);
    const start = this.cursors.get(producer);
    let after: { publishedAt: string; id: string } | null = start ? { publishedAt: start.publishedAt, id: start.id } : null;
    let newest: { publishedAt: string; id: string } | null = null;
    let repaired = 0;
    for (let pageNo = 0; pageNo < (settings.maxPagesPerPass ?? DEFAULT_MAX_PAGES); pageNo++) {
      const { events } = await query(
        bus,
        definition,
        { types, after, olderThanMs: settings.graceMs, limit: pageSize },
        { timeoutMs: 10_000 },
      );
      if (events.length) {
        const missing = new Set(await this.notApplied(events.map((e) => e.id)));
        if (missing.size) {
          const { events: full } = await query(
            bus,
            definition,
            { types, after: null, olderThanMs: 0, limit: pageSize, ids: [...missing] },
            { timeoutMs: 10_000 },
          );
          for (const event of full) if (event.envelope && (await this.repair(producer, event.envelope))) repaired += 1;
        }
        const last = events[events.length - 1]!;
        newest = after = { publishedAt: last.publishedAt, id: last.id };
      }
      if (events.length < pageSize) {
        // Caught up: the next pass starts overlapMs before the newest row read (once, not again on every empty pass).
        const base = newest ?? (start && !start.rewound ? start : null);
        if (base) this.cursors.set(producer, { ...(await this.rewind(base.publishedAt)), rewound: true });
        return { repaired, more: false };
      }
    }
    // Stopped at the page bound: the next pass (at once) goes on from the last row read.
    if (newest) this.cursors.set(producer, { ...newest, rewound: false });
    return { repaired, more: true };
  }

  /** `overlapMs` before a published_at, in the database's own time arithmetic (microseconds kept). */
  private async rewind(publishedAt: string): Promise<{ publishedAt: string; id: string }> {
    const overlapMs = this.options.settings.overlapMs ?? DEFAULT_OVERLAP_MS;
    const { rows } = await this.options.pool.query<{ at: string }>(
      `SELECT ($1::timestamptz - make_interval(secs => $2::float8 / 1000))::text AS "at"`,
      [publishedAt, overlapMs],
    );
    return { publishedAt: rows[0]!.at, id: ZERO_UUID };
  }

  /** Ids of the page that this consumer has neither applied (inbox) nor given up on (dead letters). */
  private async notApplied(ids: string[]): Promise<string[]> {
    const { consumer, pool } = this.options;
    const schema = quoteIdent(consumer.schema);
    const { rows } = await pool.query<{ id: string }>(
      `SELECT "id"::text FROM unnest($2::uuid[]) AS "p"("id")
       WHERE NOT EXISTS (SELECT 1 FROM ${schema}."inbox_events" i WHERE i."consumer" = $1 AND i."event_id" = "p"."id")
         AND NOT EXISTS (SELECT 1 FROM ${schema}."${DEAD_LETTER_TABLE}" d WHERE d."consumer" = $1 AND d."event_id" = "p"."id")`,
      [consumer.name, ids],
    );
    return rows.map((r) => r.id);
  }

  /** Applies one missing event; true when this applied it. A dependency down ends the pass (it is retried whole). */
  private async repair(producer: ServiceName, envelope: EventEnvelope): Promise<boolean> {
    const { consumer, log, reconciled, db } = this.options;
    try {
      const outcome = await consumer.applyReconciled(envelope);
      this.failures.delete(envelope.id);
      if (outcome === 'duplicate') return false;
      reconciled.inc({ consumer: consumer.name, type: envelope.type, producer });
      log.warn(
        { consumer: consumer.name, eventId: envelope.id, eventType: envelope.type, producer, requestId: envelope.requestId },
        'reconciler applied an event the bus never delivered',
      );
      return true;
    } catch (error) {
      if (await consumer.isTransientFailure(error)) throw error;
      const record = this.failures.get(envelope.id) ?? { count: 0, firstFailedAt: new Date() };
      record.count += 1;
      this.failures.set(envelope.id, record);
      const maxFailures = this.options.settings.maxFailures ?? DEFAULT_MAX_FAILURES;
      log.error(
        { err: error, consumer: consumer.name, eventId: envelope.id, failures: record.count },
        'reconciler could not apply an event',
      );
      if (record.count >= maxFailures) {
        await recordDeadLetter(db, {
          schema: consumer.schema,
          consumer: consumer.name,
          eventId: envelope.id,
          subject: envelope.type,
          payload: JSON.stringify(envelope),
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          attempts: record.count,
          firstFailedAt: record.firstFailedAt,
        });
        this.failures.delete(envelope.id);
      }
      return false;
    }
  }
}
