import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { EVENTS, eventEnvelopeSchema, type EventData, type EventEnvelope, type EventType } from '@pixel-atlas/contracts/events';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Counter } from 'prom-client';
import { backoffDelay } from './backoff.ts';
import { quoteIdent, type PrismaLike, type SqlClient } from './database.ts';
import { DEAD_LETTER_TABLE, recordDeadLetter } from './dead-letters.ts';
import { isTransientFailure } from './failures.ts';
import { defineMetrics } from './metrics.ts';
import { durableConsumerConfig, ensureStream, type EventBus } from './nats.ts';
import { Reconciler, type ReconcileSettings } from './reconcile.ts';

/** `Tx`: the service's Prisma transaction client, the one its domain functions take. */
export type EventHandlers<Tx extends SqlClient = SqlClient> = {
  [T in EventType]?: (event: EventEnvelope<EventData<T>>, tx: Tx, log: FastifyBaseLogger) => Promise<void>;
};

/** Handlers that apply many events of one type at once (a statement or two for a whole batch). */
export type EventBatchHandlers<Tx extends SqlClient = SqlClient> = {
  [T in EventType]?: (events: Array<EventEnvelope<EventData<T>>>, tx: Tx, log: FastifyBaseLogger) => Promise<void>;
};

export interface ConsumerOptions<Tx extends SqlClient = SqlClient> {
  /** Durable name: replicas of one service share it, so each event is handled once across them. */
  durable: string;
  handlers: EventHandlers<Tx>;
  /**
   * Used instead of `handlers[type]` for the new events of that type in a batch of several (`handlers[type]` must
   * exist too: it applies an event alone, as on a retry). Must have the same effect as applying them one by one.
   */
  batchHandlers?: EventBatchHandlers<Tx>;
  schema: string;
  /**
   * Attempts a handler gets when it fails for a permanent reason (anything `isTransientFailure` does not
   * recognise while the database still answers) before the event goes to `dead_letter_events`.
   */
  maxFailures?: number;
  /** Redelivery delays after a failed attempt (the last one repeats), capped at `maxRetryDelayMs`. */
  backoffMs?: number[];
  /** Longest wait between two tries while a dependency is down (transient failures retry for ever). */
  maxRetryDelayMs?: number;
  /** Runs after the handler's transaction commits (e.g. invalidate a cache, push to browsers). */
  afterCommit?: (event: EventEnvelope) => void;
}

export interface InboxMetrics {
  handled: Counter;
  redelivered: Counter;
  deadLettered: Counter;
}

const DEFAULT_BACKOFF_MS = [500, 2000, 5000, 15000, 30000];
const DEFAULT_MAX_FAILURES = 5;
const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;
/** Failure records kept in memory at most (oldest dropped first): a bound, far above any real backlog. */
const MAX_TRACKED_FAILURES = 10_000;

interface FailureRecord {
  /** Permanent failures so far (transient ones never count). */
  failures: number;
  firstFailedAt: Date;
}

/** Deliveries pulled at once per durable, and the most events one transaction applies. */
const MAX_BATCH = 64;
/**
 * How long an event that finds its consumer idle waits for others to share its transaction: at a few hundred events
 * a second this turns one transaction per event into one per several, for a delay no reader of these effects notices.
 */
const BATCH_LINGER_MS = 25;

/** A batch handler as the consumer calls it, whatever its event type. */
type BatchHandler = (events: EventEnvelope[], tx: SqlClient, log: FastifyBaseLogger) => Promise<void>;

/** A delivery that passed the envelope and schema checks and has a handler. */
interface ReadyEvent {
  message: JsMsg;
  body: string;
  event: EventEnvelope;
  handler: (event: EventEnvelope, tx: SqlClient, log: FastifyBaseLogger) => Promise<void>;
  log: FastifyBaseLogger;
}

/**
 * Hands items to `work` in batches: an item that finds the pump idle waits `lingerMs` for company, then every batch
 * takes what arrived meanwhile and while the previous one ran (up to `maxBatch`). `push` returns a promise to wait on
 * when `maxBatch` items are waiting (backpressure).
 */
export class BatchPump<T> {
  private queue: T[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly maxBatch: number,
    private readonly work: (batch: T[]) => Promise<void>,
    /** A batch's work failed unexpectedly: reported here, and the next batch still runs. */
    private readonly onError: (error: unknown) => void,
    private readonly lingerMs = 0,
  ) {}

  push(item: T): Promise<void> | undefined {
    this.queue.push(item);
    this.running ??= this.run();
    return this.queue.length >= this.maxBatch ? this.running : undefined;
  }

  /** Resolves once every item pushed so far was worked on. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    try {
      if (this.lingerMs > 0) await new Promise((resolve) => setTimeout(resolve, this.lingerMs));
      // `running` is cleared in the same turn as the last emptiness check, so a push never finds it set but finished.
      while (this.queue.length) await this.work(this.queue.splice(0, this.maxBatch)).catch(this.onError);
    } finally {
      this.running = null;
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A durable JetStream consumer whose effects are idempotent: the inbox row keyed by event id is
 * written in the same transaction as the handler's effect, so a redelivered event changes nothing.
 */
export class InboxConsumer<Tx extends SqlClient = SqlClient> {
  private readonly running = new Map<string, { messages: ConsumerMessages; loop: Promise<void> }>();
  private stopped = false;

  constructor(
    private readonly bus: EventBus,
    private readonly db: PrismaLike<Tx>,
    private readonly log: FastifyBaseLogger,
    private readonly options: ConsumerOptions<Tx>,
    private readonly metrics: InboxMetrics,
  ) {}

  /** Permanent failures per stream sequence, counted here because the server's max_deliver counts every try. */
  private readonly failures = new Map<number, FailureRecord>();
  /** While a dependency is down: no message is tried before this time (they are put back with a delay). */
  private pausedUntil = 0;
  private transientStreak = 0;

  get name(): string {
    return this.options.durable;
  }

  /**
   * One JetStream durable per event type, each filtered on one subject: servers before 2.10 (Debian
   * ships 2.9) cannot filter one consumer on several subjects. The inbox key stays the logical consumer.
   */
  private get streams(): Array<{ durable: string; subject: string }> {
    return Object.keys(this.options.handlers).map((type) => ({
      durable: `${this.options.durable}-${type.replaceAll('.', '-')}`,
      subject: this.bus.subject(type),
    }));
  }

  async ensure(): Promise<void> {
    const { jsm, settings } = this.bus;
    for (const { durable, subject } of this.streams) {
      // The operations step declared it already (declareEventStream); this re-creates it after a broker lost its store.
      const config = durableConsumerConfig(durable, subject);
      try {
        await jsm.consumers.add(settings.stream, config);
      } catch (error) {
        // Exists with an older config (say, another max_deliver): bring it up to date.
        await jsm.consumers.update(settings.stream, durable, { max_deliver: config.max_deliver, ack_wait: config.ack_wait }).catch(() => {
          throw error;
        });
      }
    }
  }

  async start(): Promise<void> {
    await this.ensure();
    for (const { durable } of this.streams) await this.consume(durable);
  }

  /** One pull loop per durable; `running` holds the live one for each. */
  private async consume(durable: string): Promise<void> {
    const consumer = await this.bus.js.consumers.get(this.bus.settings.stream, durable);
    const messages = await consumer.consume({ max_messages: MAX_BATCH });
    const pump = new BatchPump<JsMsg>(
      MAX_BATCH,
      (batch) => this.handleBatch(batch),
      (error) => this.log.error({ err: error, durable }, 'event batch failed unexpectedly; its events are redelivered after ack_wait'),
      BATCH_LINGER_MS,
    );
    const loop = (async () => {
      for await (const message of messages) await pump.push(message);
      await pump.idle();
    })().catch((error) => {
      if (!this.stopped) this.log.error({ err: error, durable }, 'consumer stopped unexpectedly');
    });
    this.running.set(durable, { messages, loop });
    this.watchForLoss(messages, durable);
  }

  private redeclaring: Promise<void> | null = null;

  /**
   * When the server says a durable (or the whole stream) is gone, as after a broker restart that lost its
   * JetStream store, nothing would create them again until this process restarted, and the pull loop
   * would only look again after a long back-off. Declare the stream and the durables again and restart
   * the pull loops at once. Events still in the outboxes are published again by the relays; the inbox
   * keeps any redelivery harmless.
   */
  private watchForLoss(messages: ConsumerMessages, durable: string): void {
    (async () => {
      for await (const status of messages.status()) {
        if (this.stopped || this.running.get(durable)?.messages !== messages) return;
        if (status.type !== 'stream_not_found' && status.type !== 'consumer_not_found' && status.type !== 'consumer_deleted') continue;
        this.scheduleRedeclare(status.type);
      }
    })().catch(() => undefined);
  }

  private scheduleRedeclare(reason: string): void {
    this.redeclaring ??= this.redeclare(reason).finally(() => {
      this.redeclaring = null;
    });
  }

  private async redeclare(reason: string): Promise<void> {
    try {
      this.log.warn(
        { consumer: this.options.durable, reason },
        'durable consumer missing on the server: declaring the stream and consumers again',
      );
      await ensureStream(this.bus);
      await this.ensure();
      for (const { durable } of this.streams) {
        if (this.stopped) return;
        const old = this.running.get(durable);
        this.running.delete(durable);
        await old?.messages.close().catch(() => undefined);
        await old?.loop;
        await this.consume(durable);
      }
    } catch (error) {
      this.log.warn({ err: error, consumer: this.options.durable }, 'could not declare the consumer again; will retry');
      // Pull loops still running bring us back with their next 'not found'; a durable left without one retries here.
      if (!this.stopped && this.streams.some(({ durable }) => !this.running.has(durable))) {
        setTimeout(() => {
          if (!this.stopped) this.scheduleRedeclare('retry');
        }, 1000).unref();
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.redeclaring;
    const running = [...this.running.values()];
    await Promise.all(running.map(({ messages }) => messages.close().catch(() => undefined)));
    await Promise.all(running.map(({ loop }) => loop));
  }

  /** Events delivered but not yet acknowledged, plus those waiting: the consumer's lag. */
  async pending(): Promise<number> {
    let total = 0;
    for (const { durable } of this.streams) {
      const info = await this.bus.jsm.consumers.info(this.bus.settings.stream, durable);
      total += info.num_pending + info.num_ack_pending;
    }
    return total;
  }

  /**
   * Messages that arrived while the previous batch was being applied, applied in one transaction: under load one
   * BEGIN, one inbox insert and one COMMIT serve many events instead of one each. A batch that fails for any reason
   * is rolled back whole and its events are applied one by one, each with its own retries and dead letter.
   */
  private async handleBatch(messages: JsMsg[]): Promise<void> {
    const ready: ReadyEvent[] = [];
    for (const message of messages) {
      const event = await this.prepare(message);
      if (event) ready.push(event);
    }
    if (ready.length === 1) return this.applyOne(ready[0]!);
    if (ready.length === 0) return;
    const { durable, schema } = this.options;
    let applied: ReadyEvent[];
    try {
      applied = await this.db.$transaction(async (tx) => {
        const fresh = new Set(
          (
            await tx.$queryRawUnsafe<Array<{ event_id: string }>>(
              `INSERT INTO ${quoteIdent(schema)}."inbox_events" ("consumer", "event_id", "subject")
               SELECT $1, "id", "subject" FROM unnest($2::uuid[], $3::text[]) AS "e"("id", "subject")
               ON CONFLICT DO NOTHING RETURNING "event_id"::text`,
              durable,
              ready.map((r) => r.event.id),
              ready.map((r) => r.event.type),
            )
          ).map((row) => row.event_id),
        );
        // delete: the same event delivered twice within one batch is applied once.
        const done = ready.filter((item) => fresh.delete(item.event.id));
        const batched = new Map<BatchHandler, ReadyEvent[]>();
        for (const item of done) {
          const batchHandler = this.options.batchHandlers?.[item.event.type as EventType] as BatchHandler | undefined;
          if (!batchHandler) await item.handler(item.event, tx, item.log);
          else if (batched.has(batchHandler)) batched.get(batchHandler)!.push(item);
          else batched.set(batchHandler, [item]);
        }
        for (const [batchHandler, items] of batched) {
          const log = this.log.child({ eventType: items[0]!.event.type, events: items.length });
          await batchHandler(
            items.map((item) => item.event),
            tx,
            log,
          );
        }
        return done;
      });
    } catch {
      for (const item of ready) await this.applyOne(item);
      return;
    }
    const appliedSet = new Set(applied);
    for (const item of ready) this.settled(item, appliedSet.has(item));
  }

  /** Checks a delivery before any transaction; null when it was answered already (paused, dead-lettered, not ours). */
  private async prepare(message: JsMsg): Promise<ReadyEvent | null> {
    const { durable } = this.options;
    if (message.info.deliveryCount > 1) this.metrics.redelivered.inc({ consumer: durable });
    const wait = this.pausedUntil - Date.now();
    if (wait > 0) {
      // A dependency was down a moment ago: put the message back untried rather than spin on it.
      message.nak(wait);
      return null;
    }
    const body = message.string();
    let envelope: EventEnvelope;
    try {
      envelope = eventEnvelopeSchema.parse(JSON.parse(body));
    } catch (error) {
      const id = (() => {
        try {
          const candidate = (JSON.parse(body) as { id?: unknown }).id;
          return typeof candidate === 'string' && UUID.test(candidate) ? candidate : null;
        } catch {
          return null;
        }
      })();
      this.log.error({ err: error, subject: message.subject }, 'not an event envelope: dead-lettered');
      await this.deadLetter(message, { eventId: id, body, error, attempts: 1, firstFailedAt: new Date() });
      return null;
    }
    const log = this.log.child({ requestId: envelope.requestId, eventId: envelope.id, eventType: envelope.type });
    const handler = this.options.handlers[envelope.type as EventType] as
      ((event: EventEnvelope, tx: SqlClient, log: FastifyBaseLogger) => Promise<void>) | undefined;
    if (!handler) {
      message.ack();
      return null;
    }
    const parsed = EVENTS[envelope.type as EventType].safeParse(envelope.data);
    if (!parsed.success) {
      log.error({ issues: parsed.error.issues }, 'event data fails its schema: dead-lettered');
      await this.deadLetter(message, { eventId: envelope.id, body, error: parsed.error, attempts: 1, firstFailedAt: new Date() });
      return null;
    }
    return { message, body, event: { ...envelope, data: parsed.data }, handler, log };
  }

  /** After the transaction that applied (or found already applied) the event committed. */
  private settled(item: ReadyEvent, applied: boolean): void {
    const { durable } = this.options;
    item.message.ack();
    this.failures.delete(item.message.info.streamSequence);
    this.transientStreak = 0;
    this.metrics.handled.inc({ consumer: durable, outcome: applied ? 'applied' : 'duplicate' });
    if (applied) {
      item.log.info('event handled');
      this.options.afterCommit?.(item.event);
    }
  }

  /**
   * The inbox row and the handler's effect in one transaction; false when the inbox already had the event. Two
   * deliveries of one event at once (JetStream and the reconciler) both insert the same inbox key: the second waits
   * for the first to commit, then finds the row and applies nothing.
   */
  private async applyInTransaction(
    event: EventEnvelope,
    handler: (event: EventEnvelope, tx: SqlClient, log: FastifyBaseLogger) => Promise<void>,
    log: FastifyBaseLogger,
  ): Promise<boolean> {
    const { durable, schema } = this.options;
    return this.db.$transaction(async (tx) => {
      const inserted = await tx.$executeRawUnsafe(
        `INSERT INTO ${quoteIdent(schema)}."inbox_events" ("consumer", "event_id", "subject") VALUES ($1, $2::uuid, $3) ON CONFLICT DO NOTHING`,
        durable,
        event.id,
        event.type,
      );
      if (inserted === 0) return false;
      await handler(event, tx, log);
      return true;
    });
  }

  /** The event types this consumer applies (one durable each). */
  get eventTypes(): EventType[] {
    return Object.keys(this.options.handlers) as EventType[];
  }

  /** The consumer's schema (its inbox_events and dead_letter_events). */
  get schema(): string {
    return this.options.schema;
  }

  /**
   * Applies an event that came from its producer's outbox rather than from JetStream (reconcile.ts): the same checks,
   * handler, inbox row and afterCommit as a delivery. 'duplicate' when the inbox had it already. Throws when the
   * payload fails its schema or the handler fails (the reconciler counts that and dead-letters it in the end).
   */
  async applyReconciled(envelope: EventEnvelope): Promise<'applied' | 'duplicate'> {
    const { durable } = this.options;
    const handler = this.options.handlers[envelope.type as EventType] as
      ((event: EventEnvelope, tx: SqlClient, log: FastifyBaseLogger) => Promise<void>) | undefined;
    if (!handler) throw new Error(`consumer ${durable} has no handler for ${envelope.type}`);
    const event = { ...envelope, data: EVENTS[envelope.type as EventType].parse(envelope.data) };
    const log = this.log.child({ requestId: event.requestId, eventId: event.id, eventType: event.type, reconciled: true });
    const applied = await this.applyInTransaction(event, handler, log);
    this.metrics.handled.inc({ consumer: durable, outcome: applied ? 'applied' : 'duplicate' });
    if (applied) this.options.afterCommit?.(event);
    return applied ? 'applied' : 'duplicate';
  }

  /** Whether a failure is worth retrying (a dependency down), with the consumer's own rule. */
  async isTransientFailure(error: unknown): Promise<boolean> {
    return this.isTransient(error);
  }

  /** One event in its own transaction, with the retry and dead-letter rules. */
  private async applyOne(item: ReadyEvent): Promise<void> {
    const { message, event, handler, log, body } = item;
    const seq = message.info.streamSequence;
    if (this.pausedUntil > Date.now()) {
      // An earlier event of the same batch found a dependency down.
      message.nak(this.pausedUntil - Date.now());
      return;
    }
    try {
      const applied = await this.applyInTransaction(event, handler, log);
      this.settled(item, applied);
    } catch (error) {
      if (await this.isTransient(error)) {
        const delay = this.pauseForTransient();
        log.warn(
          { err: error, retryInMs: delay, delivery: message.info.deliveryCount },
          'event handling failed for a transient reason; will retry (not counted)',
        );
        message.nak(delay);
        return;
      }
      this.transientStreak = 0;
      const record = this.failures.get(seq) ?? { failures: 0, firstFailedAt: new Date() };
      record.failures += 1;
      this.track(seq, record);
      const { maxFailures = DEFAULT_MAX_FAILURES } = this.options;
      if (record.failures >= maxFailures) {
        log.error({ err: error, failures: record.failures }, 'event failed on every attempt: dead-lettered');
        await this.deadLetter(message, {
          eventId: event.id,
          body,
          error,
          attempts: record.failures,
          firstFailedAt: record.firstFailedAt,
        });
        return;
      }
      const delay = this.delayFor(record.failures);
      log.warn({ err: error, failures: record.failures, maxFailures, retryInMs: delay }, 'event handling failed; will retry');
      message.nak(delay);
    }
  }

  /**
   * Transient by its code, or because the database itself does not answer now (a connection dropped
   * mid-query can surface as an error without any code): either way the same event will succeed later.
   */
  private async isTransient(error: unknown): Promise<boolean> {
    if (isTransientFailure(error)) return true;
    try {
      await this.db.$queryRawUnsafe('SELECT 1');
      return false;
    } catch {
      return true;
    }
  }

  private delayFor(attempt: number): number {
    const { backoffMs = DEFAULT_BACKOFF_MS, maxRetryDelayMs = DEFAULT_MAX_RETRY_DELAY_MS } = this.options;
    return backoffDelay(attempt, { stepsMs: backoffMs, maxMs: maxRetryDelayMs });
  }

  /** Pauses every message of this consumer for a growing delay, so an outage costs one try per delay. */
  private pauseForTransient(): number {
    this.transientStreak += 1;
    const delay = this.delayFor(this.transientStreak);
    this.pausedUntil = Date.now() + delay;
    return delay;
  }

  private track(seq: number, record: FailureRecord): void {
    this.failures.delete(seq);
    this.failures.set(seq, record);
    if (this.failures.size > MAX_TRACKED_FAILURES) this.failures.delete(this.failures.keys().next().value as number);
  }

  /** Stores the event as a dead letter, then removes it from the stream; if it can't be stored, tries later. */
  private async deadLetter(
    message: JsMsg,
    failure: { eventId: string | null; body: string; error: unknown; attempts: number; firstFailedAt: Date },
  ): Promise<void> {
    const { durable, schema } = this.options;
    const prefix = this.bus.settings.subjectPrefix;
    const subject = message.subject.startsWith(prefix) ? message.subject.slice(prefix.length) : message.subject;
    try {
      await recordDeadLetter(this.db, {
        schema,
        consumer: durable,
        eventId: failure.eventId,
        subject,
        payload: failure.body,
        error: describeError(failure.error),
        attempts: failure.attempts,
        firstFailedAt: failure.firstFailedAt,
      });
    } catch (error) {
      const delay = this.pauseForTransient();
      this.log.warn({ err: error, consumer: durable, subject, retryInMs: delay }, 'could not store a dead letter; will retry');
      message.nak(delay);
      return;
    }
    // No reason text: nats-server 2.9 ignores a `+TERM <reason>` ack, leaving the message pending for ever.
    message.term();
    this.failures.delete(message.info.streamSequence);
    this.metrics.deadLettered.inc({ consumer: durable });
    this.metrics.handled.inc({ consumer: durable, outcome: 'dead_lettered' });
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

export interface InboxOptions<Tx extends SqlClient> {
  db: () => PrismaLike<Tx>;
  consumers: ConsumerOptions<Tx>[];
  /** The reconcilers' settings, over those of the service's env (`app.reconcileSettings`). */
  reconcile?: ReconcileSettings;
}

/**
 * Durable consumers that start once the app is ready and stop before NATS drains, as a plugin to register:
 * `app.register(inboxPlugin({ db: () => app.db, consumers }))`. The handlers' `tx` is typed as the client's own.
 */
export function inboxPlugin<Tx extends SqlClient>(opts: InboxOptions<Tx>) {
  return fp(async (app: FastifyInstance) => registerInbox(app, opts), {
    name: 'pixel-atlas-inbox',
    dependencies: ['pixel-atlas-nats', 'pixel-atlas-metrics', 'pixel-atlas-database'],
  });
}

async function registerInbox<Tx extends SqlClient>(app: FastifyInstance, opts: InboxOptions<Tx>): Promise<void> {
  const schemas = [...new Set(opts.consumers.map((c) => c.schema))];
  const metrics = defineMetrics(app.metrics, (m) => ({
    handled: m.counter({
      name: 'events_handled_total',
      help: 'Events consumed, by outcome (applied, duplicate, dead_lettered)',
      labelNames: ['consumer', 'outcome'],
    }),
    redelivered: m.counter({
      name: 'events_redelivered_total',
      help: 'Deliveries that were retries',
      labelNames: ['consumer'],
    }),
    deadLettered: m.counter({
      name: 'dead_letter_events_total',
      help: 'Events moved to dead_letter_events (schema-invalid, or failed on every attempt for a non-transient reason)',
      labelNames: ['consumer'],
    }),
    unreplayed: m.gauge({
      name: 'dead_letter_events_unreplayed',
      help: 'Dead letters not yet replayed (npm run events:replay)',
      labelNames: ['consumer'],
      async collect() {
        this.reset();
        for (const consumer of opts.consumers) this.set({ consumer: consumer.durable }, 0);
        for (const schema of schemas) {
          const rows = await opts
            .db()
            .$queryRawUnsafe<Array<{ consumer: string; n: number }>>(
              `SELECT "consumer", count(*)::int AS n FROM ${quoteIdent(schema)}."${DEAD_LETTER_TABLE}" WHERE "replayed_at" IS NULL GROUP BY "consumer"`,
            )
            .catch(() => null);
          // Database down: report nothing rather than a false zero (the alert keeps its last state).
          if (!rows) {
            this.reset();
            return;
          }
          for (const row of rows) this.set({ consumer: row.consumer }, row.n);
        }
      },
    }),
    pending: m.gauge({
      name: 'consumer_pending_events',
      help: 'Events not yet acknowledged by this durable consumer (lag)',
      labelNames: ['consumer'],
      // Runs at scrape time, when the consumers below (which count into this set) exist.
      async collect() {
        for (const consumer of consumers) {
          this.set({ consumer: consumer.name }, await consumer.pending().catch(() => -1));
        }
      },
    }),
  }));
  const consumers = opts.consumers.map((c) => new InboxConsumer(app.bus, opts.db(), app.log, c, metrics));
  const reconcilers = createReconcilers(app, opts, consumers);
  app.addHook('onReady', async () => {
    for (const consumer of consumers) await consumer.start();
    for (const reconciler of reconcilers) reconciler.worker.start();
  });
  app.addHook('preClose', async () => {
    await Promise.all(reconcilers.map((r) => r.worker.stop()));
    await Promise.all(consumers.map((c) => c.stop()));
  });
}

/**
 * One reconciler per consumer (reconcile.ts), with the settings `createBackendService` read from the env
 * (`opts.reconcile` overrides them; a grace of 0 turns it off), counted in `events_reconciled_total`.
 */
function createReconcilers<Tx extends SqlClient>(
  app: FastifyInstance,
  opts: InboxOptions<Tx>,
  consumers: InboxConsumer<Tx>[],
): Reconciler[] {
  const settings = opts.reconcile ?? app.reconcileSettings;
  if (!settings || settings.graceMs <= 0) return [];
  const { reconciled } = defineMetrics(app.metrics, (m) => ({
    reconciled: m.counter({
      name: 'events_reconciled_total',
      help: "Events a consumer applied from its producer's outbox because the bus never delivered them (reconciler)",
      labelNames: ['consumer', 'type', 'producer'],
    }),
  }));
  return consumers.map(
    (consumer) =>
      new Reconciler({
        bus: app.bus,
        pool: app.pg,
        db: opts.db(),
        consumer: consumer as unknown as InboxConsumer,
        settings,
        log: app.log,
        reconciled,
      }),
  );
}
