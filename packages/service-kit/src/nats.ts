import { connect } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
// app.addReadinessCheck is declared with the health plugin; programs that load only this file need it too.
import type {} from './health.ts';
import { natsInboxPrefix } from './nats-auth.ts';

/** Event subjects begin with the producing service; one stream holds them all. */
export const EVENT_DOMAINS = ['contact', 'payments', 'plots', 'moderation', 'map'] as const;
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
  name: string;
  /** The NATS user (each service has its own, see nats-auth.ts); without it the client connects anonymously. */
  user?: string;
  password?: string;
  /** false: only plain subscriptions and queries (the gateway): the stream is not declared, so no grant is needed for it. */
  declareStream?: boolean;
}

/** The settings of a service from its parsed env: it connects as NATS_USER, by default its own name. */
export function natsSettingsFromEnv(
  env: { NATS_URL: string; NATS_STREAM: string; NATS_SUBJECT_PREFIX: string; NATS_USER?: string; NATS_PASSWORD?: string },
  service: string,
): NatsSettings {
  return {
    servers: env.NATS_URL,
    stream: env.NATS_STREAM,
    subjectPrefix: env.NATS_SUBJECT_PREFIX,
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

export async function connectBus(settings: NatsSettings): Promise<EventBus> {
  const nc = await connect({
    servers: settings.servers.split(',').map((s) => s.trim()),
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

/** Declares (or widens) the shared event stream; every service does this at start, idempotently. */
export async function ensureStream(bus: EventBus): Promise<void> {
  const subjects = EVENT_DOMAINS.map((d) => bus.subject(`${d}.>`));
  const config = {
    name: bus.settings.stream,
    subjects,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(EVENT_RETENTION_MS),
  };
  try {
    const info = await bus.jsm.streams.info(config.name);
    const missing = subjects.filter((s) => !info.config.subjects?.includes(s));
    if (missing.length)
      await bus.jsm.streams.update(config.name, { ...info.config, subjects: [...(info.config.subjects ?? []), ...missing] });
  } catch (error) {
    if (!isJetStreamApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
    try {
      await bus.jsm.streams.add(config);
    } catch (addError) {
      // Another replica created it between our info and add.
      if (!isJetStreamApiError(addError, STREAM_NAME_IN_USE)) throw addError;
    }
  }
}

/** Connects to NATS, declares the stream, exposes `app.bus`, and drains the connection on close. */
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
        // has no stream: declare it again, or every publish fails until this process restarts.
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
