import { connect } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EVENT_DOMAINS } from '@pixel-atlas/contracts/services';
// app.addReadinessCheck is declared with the health plugin; programs that load only this file need it too.
import type {} from './health.ts';
import { durableConsumers, natsInboxPrefix } from './nats-auth.ts';

const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** JetStream's JSStreamNameExistErr: a stream of that name exists (with another configuration). */
const STREAM_NAME_IN_USE = 10058;

function isJetStreamApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

export interface NatsSettings {
  servers: string;
  stream: string;
  /** Lets tests (and shared brokers) keep their subjects apart: '' in production, 't123.' in a test. */
  subjectPrefix: string;
  /** Copies of the stream a cluster keeps (NATS_STREAM_REPLICAS): 1 unless set; 3 on a three-node cluster. */
  streamReplicas?: number;
  name: string;
  /** The NATS user (each service has its own, see nats-auth.ts); without it the client connects anonymously. */
  user?: string;
  password?: string;
  /**
   * false: only plain subscriptions and queries (the gateway): the stream is never re-created, so no grant is needed
   * for it. Otherwise the service re-creates it when missing (`ensureStream`); it is declared by the operations step.
   */
  declareStream?: boolean;
}

/** The settings of a service from its parsed env: it connects as NATS_USER, by default its own name. */
export function natsSettingsFromEnv(
  env: {
    NATS_URL: string;
    NATS_STREAM: string;
    NATS_SUBJECT_PREFIX: string;
    NATS_STREAM_REPLICAS?: number;
    NATS_USER?: string;
    NATS_PASSWORD?: string;
  },
  service: string,
): NatsSettings {
  return {
    servers: env.NATS_URL,
    stream: env.NATS_STREAM,
    subjectPrefix: env.NATS_SUBJECT_PREFIX,
    streamReplicas: env.NATS_STREAM_REPLICAS ?? 1,
    name: service,
    ...(env.NATS_PASSWORD ? { user: env.NATS_USER || service, password: env.NATS_PASSWORD } : {}),
  };
}

export interface EventBus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  settings: NatsSettings;
  /** The wire subject of an event type or query name. */
  subject(name: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    bus: EventBus;
  }
}

/** NATS_URL as the client takes it: one URL, or a cluster's nodes as a comma-separated list (any of them will do). */
export function natsServers(servers: string): string[] {
  return servers
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export async function connectBus(settings: NatsSettings): Promise<EventBus> {
  const nc = await connect({
    servers: natsServers(settings.servers),
    name: settings.name,
    // Keep retrying for ever: a broker outage must never take the service down, only delay events.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
    ...(settings.user
      ? {
          user: settings.user,
          pass: settings.password,
          // The broker lets each user subscribe to its own inbox subtree only (nats-auth.ts).
          inboxPrefix: natsInboxPrefix(settings.user),
        }
      : {}),
  });
  const jsm = await jetstreamManager(nc, { timeout: 5000 });
  const js = jetstream(nc, { timeout: 5000 });
  return { nc, js, jsm, settings, subject: (name) => `${settings.subjectPrefix}${name}` };
}

/**
 * The shared event stream as it must be: every domain's events (event subjects begin with the producing service's
 * `eventDomain` in @pixel-atlas/contracts/services), deduplicated on Nats-Msg-Id, kept a week. No rollups,
 * no message deletes, no purges (the server refuses them whoever asks; deny_delete and deny_purge cannot be turned off
 * again once set), so no holder of a publish grant can remove another service's unconsumed events.
 */
export function eventStreamConfig(
  settings: Pick<NatsSettings, 'stream' | 'subjectPrefix' | 'streamReplicas'>,
): Partial<StreamConfig> & { name: string } {
  return {
    name: settings.stream,
    subjects: EVENT_DOMAINS.map((d) => `${settings.subjectPrefix}${d}.>`),
    // On a cluster every node keeps a copy (R3): a node killed or lost with its disk loses no event, and the durable
    // consumers, whose replica count follows the stream's, keep their acknowledgements too.
    num_replicas: settings.streamReplicas ?? 1,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(EVENT_RETENTION_MS),
    allow_rollup_hdrs: false,
    deny_delete: true,
    deny_purge: true,
  };
}

/** What makes a stream safe to publish into: nobody can roll it up, delete from it or purge it. */
function isGuarded(config: Partial<StreamConfig>): boolean {
  return config.allow_rollup_hdrs !== true && config.deny_delete === true && config.deny_purge === true;
}

/**
 * A service's part: create the stream when it is missing (a broker that lost its store), with the canonical config
 * only. STREAM.CREATE is idempotent for the same config and refused for another, so this never changes a stream
 * that exists; widening or repairing one is the operations step's (`declareEventStream`). A stream that exists but
 * is not guarded (made by someone else, or by a version before the operations step) is refused: the caller (the
 * outbox relay) keeps its events until the operations step has put it right.
 */
export async function ensureStream(bus: EventBus): Promise<void> {
  const config = eventStreamConfig(bus.settings);
  try {
    await bus.jsm.streams.add(config);
  } catch (error) {
    // Exists with another config (a later version of the operations step may have widened it): fine if guarded.
    if (!isJetStreamApiError(error, STREAM_NAME_IN_USE)) throw error;
    const { config: existing } = await bus.jsm.streams.info(config.name);
    if (!isGuarded(existing)) {
      throw new Error(
        `the event stream ${config.name} allows rollups, message deletes or purges: run the events setup step (packages/service-kit/src/events-setup.ts; npm start and docker compose run it at start) to put it right`,
        { cause: error },
      );
    }
  }
}

/** A durable consumer as every service reads through it (`InboxConsumer`), one per event type. */
export function durableConsumerConfig(durable: string, filterSubject: string): Partial<ConsumerConfig> {
  return {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filterSubject,
    // Unlimited: a database outage must never use up an event's deliveries. Permanent failures are
    // counted by the consumer itself, which moves the event to dead letters after maxFailures.
    max_deliver: -1,
    ack_wait: nanos(30_000),
  };
}

/**
 * The operations step (its own NATS user, `EVENTS_ADMIN_USER`): creates the stream, or brings an existing one to the
 * canonical config (subjects widened, never narrowed; rollups off, deletes and purges denied), then declares every
 * durable consumer of `NATS_SERVICE_BUS_USE`. Idempotent: `npm start`, docker compose and the test stacks run it
 * before any service starts. Returns what it did, for the log.
 */
export async function declareEventStream(
  jsm: JetStreamManager,
  settings: Pick<NatsSettings, 'stream' | 'subjectPrefix' | 'streamReplicas'>,
): Promise<{ stream: 'created' | 'updated' | 'unchanged'; replicas: number; consumers: number }> {
  const config = eventStreamConfig(settings);
  let outcome: 'created' | 'updated' | 'unchanged' = 'unchanged';
  const existing = await jsm.streams.info(config.name).catch((error: unknown) => {
    if (isJetStreamApiError(error, JetStreamApiCodes.StreamNotFound)) return null;
    throw error;
  });
  if (!existing) {
    await jsm.streams.add(config);
    outcome = 'created';
  } else {
    const subjects = [...new Set([...(existing.config.subjects ?? []), ...config.subjects!])];
    const wanted = { ...existing.config, ...config, subjects };
    const differs = (Object.keys(config) as Array<keyof StreamConfig>).some(
      (key) => JSON.stringify(existing.config[key]) !== JSON.stringify(wanted[key]),
    );
    if (differs) {
      await jsm.streams.update(config.name, wanted);
      outcome = 'updated';
    }
  }
  const consumers = durableConsumers();
  for (const { name, type } of consumers) {
    const consumer = durableConsumerConfig(name, `${settings.subjectPrefix}${type}`);
    await jsm.consumers.add(config.name, consumer).catch(async (error: unknown) => {
      // Exists with an older config (another ack_wait): bring it up to date.
      await jsm.consumers.update(config.name, name, { max_deliver: consumer.max_deliver, ack_wait: consumer.ack_wait }).catch(() => {
        throw error;
      });
    });
  }
  return { stream: outcome, replicas: config.num_replicas ?? 1, consumers: consumers.length };
}

/** Connects to NATS, makes sure the stream exists (re-creating it if the broker lost it), exposes `app.bus`, and drains the connection on close. */
export const natsPlugin = fp(
  async (app: FastifyInstance, opts: NatsSettings) => {
    const bus = await connectBus(opts);
    const declareStream = opts.declareStream !== false;
    if (declareStream) await ensureStream(bus);
    app.decorate('bus', bus);
    app.addReadinessCheck('nats', async () => {
      if (bus.nc.isClosed()) throw new Error('connection closed');
      await bus.nc.flush();
    });
    (async () => {
      for await (const status of bus.nc.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnect') app.log.warn({ nats: status.type }, 'NATS connection changed');
        // A refused publish or subscribe only shows up here (the request merely times out): name the subject.
        if (status.type === 'error') app.log.error({ err: status.error }, 'NATS refused an operation');
        // A broker that comes back without its JetStream store (a container recreated without its volume)
        // has no stream: create it again (canonical config, create-if-missing), or every publish fails until this
        // process restarts.
        if (status.type === 'reconnect' && declareStream) {
          ensureStream(bus).catch((error) =>
            app.log.warn({ err: error }, 'could not re-declare the event stream after reconnecting; the outbox relay will retry'),
          );
        }
      }
    })().catch(() => undefined);
    app.addHook('onClose', async () => {
      await bus.nc.drain().catch(() => undefined);
    });
  },
  { name: 'pixel-atlas-nats', dependencies: ['pixel-atlas-health'] },
);
