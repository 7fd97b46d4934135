import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { EVENTS, eventEnvelopeSchema, type EventData, type EventEnvelope, type EventType } from '@pixel-atlas/contracts/events';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge } from 'prom-client';
import { quoteIdent, type PrismaLike, type SqlClient } from './database.ts';
import { ensureStream, type EventBus } from './nats.ts';

export type EventHandlers = {
  [T in EventType]?: (event: EventEnvelope<EventData<T>>, tx: SqlClient, log: FastifyBaseLogger) => Promise<void>;
};

export interface ConsumerOptions {
  /** Durable name: replicas of one service share it, so each event is handled once across them. */
  durable: string;
  handlers: EventHandlers;
  schema: string;
  maxDeliver?: number;
  /** Redelivery delays after a failed attempt (the last one repeats). */
  backoffMs?: number[];
  /** Runs after the handler's transaction commits (e.g. invalidate a cache, push to browsers). */
  afterCommit?: (event: EventEnvelope) => void;
}

const DEFAULT_BACKOFF_MS = [500, 2000, 5000, 15000, 30000];

/**
 * A durable JetStream consumer whose effects are idempotent: the inbox row keyed by event id is
 * written in the same transaction as the handler's effect, so a redelivered event changes nothing.
 */
export class InboxConsumer {
  private readonly running = new Map<string, { messages: ConsumerMessages; loop: Promise<void> }>();
  private stopped = false;

  constructor(
    private readonly bus: EventBus,
    private readonly db: PrismaLike,
    private readonly log: FastifyBaseLogger,
    private readonly options: ConsumerOptions,
    private readonly metrics: { handled: Counter; redelivered: Counter },
  ) {}

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
      const config = {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: subject,
        max_deliver: this.options.maxDeliver ?? 10,
        ack_wait: nanos(30_000),
      };
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
    const messages = await consumer.consume({ max_messages: 64 });
    const loop = (async () => {
      for await (const message of messages) await this.handle(message);
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
      this.log.warn({ consumer: this.options.durable, reason }, 'durable consumer missing on the server: declaring the stream and consumers again');
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

  private async handle(message: JsMsg): Promise<void> {
    const { durable, schema, maxDeliver = 10, backoffMs = DEFAULT_BACKOFF_MS } = this.options;
    let envelope: EventEnvelope;
    try {
      envelope = eventEnvelopeSchema.parse(message.json()) as EventEnvelope;
    } catch (error) {
      this.log.error({ err: error, subject: message.subject }, 'dropping an event that is not an envelope');
      message.term('not an event envelope');
      return;
    }
    const log = this.log.child({ requestId: envelope.requestId, eventId: envelope.id, eventType: envelope.type });
    if (message.info.deliveryCount > 1) this.metrics.redelivered.inc({ consumer: durable });
    const handler = this.options.handlers[envelope.type as EventType] as
      | ((event: EventEnvelope, tx: SqlClient, log: FastifyBaseLogger) => Promise<void>)
      | undefined;
    if (!handler) {
      message.ack();
      return;
    }
    try {
      const data = EVENTS[envelope.type as EventType].parse(envelope.data);
      const event = { ...envelope, data };
      const applied = await this.db.$transaction(async (tx) => {
        const inserted = await tx.$executeRawUnsafe(
          `INSERT INTO ${quoteIdent(schema)}."inbox_events" ("consumer", "event_id", "subject") VALUES ($1, $2::uuid, $3) ON CONFLICT DO NOTHING`,
          durable,
          envelope.id,
          envelope.type,
        );
        if (inserted === 0) return false;
        await handler(event, tx, log);
        return true;
      });
      message.ack();
      this.metrics.handled.inc({ consumer: durable, outcome: applied ? 'applied' : 'duplicate' });
      if (applied) {
        log.info('event handled');
        this.options.afterCommit?.(event);
      }
    } catch (error) {
      const attempt = message.info.deliveryCount;
      if (attempt >= maxDeliver) {
        log.error({ err: error, attempt }, 'event failed on its last delivery; giving up');
        this.metrics.handled.inc({ consumer: durable, outcome: 'failed' });
        message.term('handler failed on every delivery');
        return;
      }
      const delay = backoffMs[Math.min(attempt - 1, backoffMs.length - 1)];
      log.warn({ err: error, attempt, retryInMs: delay }, 'event handling failed; will retry');
      message.nak(delay);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    consumers: InboxConsumer[];
  }
}

/** Registers durable consumers that start once the app is ready and stop before NATS drains. */
export const inboxPlugin = fp(
  async (app: FastifyInstance, opts: { db: () => PrismaLike; consumers: ConsumerOptions[] }) => {
    const handled = new Counter({
      name: 'events_handled_total',
      help: 'Events consumed, by outcome (applied, duplicate, failed)',
      labelNames: ['consumer', 'outcome'],
      registers: [app.metrics],
    });
    const redelivered = new Counter({
      name: 'events_redelivered_total',
      help: 'Deliveries that were retries',
      labelNames: ['consumer'],
      registers: [app.metrics],
    });
    const consumers = opts.consumers.map((c) => new InboxConsumer(app.bus, opts.db(), app.log, c, { handled, redelivered }));
    new Gauge({
      name: 'consumer_pending_events',
      help: 'Events not yet acknowledged by this durable consumer (lag)',
      labelNames: ['consumer'],
      registers: [app.metrics],
      async collect() {
        for (const consumer of consumers) {
          this.set({ consumer: consumer.name }, await consumer.pending().catch(() => -1));
        }
      },
    });
    app.decorate('consumers', consumers);
    app.addHook('onReady', async () => {
      for (const consumer of consumers) await consumer.start();
    });
    app.addHook('preClose', async () => {
      await Promise.all(consumers.map((c) => c.stop()));
    });
  },
  { name: 'pixel-atlas-inbox', dependencies: ['pixel-atlas-nats', 'pixel-atlas-metrics', 'pixel-atlas-database'] },
);
