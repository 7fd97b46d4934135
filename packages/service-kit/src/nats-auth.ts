import { chmod, writeFile } from 'node:fs/promises';
import { EVENTS, publishedEventsQuery, type EventType } from '@pixel-atlas/contracts/events';
import * as queries from '@pixel-atlas/contracts/queries';
import { SERVICES, eventProducer, type ServiceName } from '@pixel-atlas/contracts/services';

/**
 * Who may say and hear what on NATS. Without this any process that reaches the broker could read every event
 * (buyers' e-mail and IP addresses, contact messages) and publish `payments.payment.verified`, which plots turns
 * into an entitlement: a plot without paying. So each service connects as its own user, and the broker lets that
 * user publish only its own events, ask only the queries it uses, answer only its own queries, and touch only its
 * own durable consumers. The whole permission set is generated here, from (subject prefix, stream name), for every
 * broker we run: production (docker compose, `npm start`) and each test file's private nats-server.
 *
 * The shared stream belongs to no service: the operations step (`EVENTS_ADMIN_USER`, nats.ts `declareEventStream`)
 * declares it and every durable consumer. A service may only re-create the stream when it is missing, with the
 * canonical config (STREAM.CREATE is idempotent, and refused for another config); no service may update, delete or
 * purge it, delete a message, or roll it up.
 */

type QueryName = (typeof queries)[keyof typeof queries]['subject'];

/** Every query and command subject `@pixel-atlas/contracts/queries` defines. */
const QUERY_NAMES: string[] = Object.values(queries as Record<string, unknown>)
  .map((definition) => (definition as { subject?: unknown } | null)?.subject)
  .filter((subject): subject is string => typeof subject === 'string')
  .sort();

interface BusUse {
  /** The durable (InboxConsumer `durable`) and the event types it handles: one JetStream consumer each. */
  consumes?: { durable: string; events: EventType[] };
  /** Plain subscriptions every replica hears (cache invalidation, live updates), as subject patterns. */
  listens?: string[];
  /**
   * Event subject patterns it reads from the stream in order, each replica through its own ephemeral ordered
   * consumers (the gateway's live updates, whose event ids are stream sequences): one filter pattern per consumer.
   */
  follows?: string[];
  /** Queries and commands it sends to other services. */
  asks?: QueryName[];
  /**
   * Re-creates the shared stream (canonical config only) when it is missing, as after a broker lost its store:
   * everyone that publishes or consumes events; not the gateway. Never updates it: that is the operations step's.
   */
  declaresStream: boolean;
}

/**
 * What each service does on the bus, read off its code (`inboxPlugin` consumers, `nc.subscribe`, `query()` calls):
 * one line per service of @pixel-atlas/contracts/services, in the order of deploy/nats-server.conf.
 * What it publishes and answers is not listed: a service publishes the events of its `eventDomain` in
 * `@pixel-atlas/contracts/events` and answers the queries named after it in `@pixel-atlas/contracts/queries`.
 * A service that starts using the bus in a new way needs its line here, or the broker refuses it (and its tests fail).
 */
export const NATS_SERVICE_BUS_USE = {
  gateway: { listens: ['plots.>', 'map.layout.>'], follows: ['plots.>', 'map.layout.>'], declaresStream: false },
  plots: {
    consumes: {
      durable: 'plots',
      events: [
        'payments.payment.verified',
        'payments.checkout.expired',
        'moderation.plot.approved',
        'moderation.plot.rejected',
        'moderation.edit.approved',
        'moderation.edit.rejected',
      ],
    },
    // map.layout.> and moderation.screen.>: the land mask and the screen's word list plots keeps are dropped when they change.
    listens: ['plots.>', 'map.layout.>', 'moderation.screen.>'],
    asks: [
      queries.sessionEntitlementQuery.subject,
      queries.footprintIsLandQuery.subject,
      queries.landMaskQuery.subject,
      queries.screenContentQuery.subject,
      queries.screenWordsQuery.subject,
      queries.sendOwnerLinkCommand.subject,
      queries.sendOwnerLinkRecoveryCommand.subject,
    ],
    declaresStream: true,
  },
  payments: {
    consumes: { durable: 'payments', events: ['plots.plot.claimed', 'plots.plot.removed'] },
    asks: [queries.holdFootprintCommand.subject, queries.attachHoldCommand.subject, queries.releaseHoldCommand.subject],
    declaresStream: true,
  },
  moderation: {
    consumes: {
      durable: 'moderation',
      events: ['plots.plot.claimed', 'plots.plot.flagged', 'plots.edit.submitted', 'plots.link.unreachable'],
    },
    declaresStream: true,
  },
  map: { listens: ['map.layout.>'], declaresStream: true },
  contact: { declaresStream: true },
} satisfies Record<ServiceName, BusUse>;

export type NatsServiceName = keyof typeof NATS_SERVICE_BUS_USE;
export const NATS_SERVICE_NAMES = Object.keys(NATS_SERVICE_BUS_USE) as NatsServiceName[];

/** The operations step's user: declares (and widens) the stream and every durable consumer; no service has its grants. */
export const EVENTS_ADMIN_USER = 'events-admin';
export type NatsUserName = NatsServiceName | typeof EVENTS_ADMIN_USER;
/** Every user of the broker: the services and the operations step. */
export const NATS_USER_NAMES: NatsUserName[] = [...NATS_SERVICE_NAMES, EVENTS_ADMIN_USER];

/** Every durable JetStream consumer the services read through: (consumer name, event type), one per event type. */
export function durableConsumers(): Array<{ service: NatsServiceName; name: string; type: EventType }> {
  return NATS_SERVICE_NAMES.flatMap((service) => {
    const { consumes }: BusUse = NATS_SERVICE_BUS_USE[service];
    return (consumes?.events ?? []).map((type) => ({ service, name: consumerName(consumes!.durable, type), type }));
  });
}

/**
 * The reconciler's queries (reconcile.ts): a consumer asks the producer of each event type it consumes which events it
 * published; a producer answers when some service consumes its events. Derived from the `consumes` lines above.
 */
export function reconcileQueries(service: NatsServiceName): { asks: string[]; answers: string[] } {
  const { consumes }: BusUse = NATS_SERVICE_BUS_USE[service];
  const producers = new Set((consumes?.events ?? []).map((type) => eventProducer(type)));
  const consumed = durableConsumers().some(({ type }) => eventProducer(type) === service);
  return {
    asks: [...producers].map((producer) => publishedEventsQuery(producer).subject),
    answers: consumed ? [publishedEventsQuery(service).subject] : [],
  };
}

/** The JetStream consumer behind one event type of a logical durable (servers before 2.10 filter on one subject only). */
export function consumerName(durable: string, type: string): string {
  return `${durable}-${type.replaceAll('.', '-')}`;
}

/**
 * Where a user's replies arrive (request/reply answers, JetStream API answers, pull-consumer deliveries). Each user
 * gets its own inbox subtree and may subscribe only there, so no service can listen in on another's replies.
 */
export function natsInboxPrefix(user: string): string {
  return `_INBOX.${user}`;
}

export interface NatsPermissions {
  publish: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[] };
  /** Lets a user answer a request it received (once, on the request's reply subject) without a publish grant there. */
  allow_responses?: boolean;
}

export interface NatsUserPermissions {
  user: string;
  permissions: NatsPermissions;
}

/**
 * Every service's user and permissions for one deployment (`NATS_SUBJECT_PREFIX`, `NATS_STREAM`).
 *
 * Publish, per service:
 *   - its own events, each by exact subject (plots can never publish `payments.payment.verified`);
 *   - the queries/commands it asks (the answers come back on its own inbox);
 *   - `$JS.API.INFO` (the client checks JetStream on connect); `$JS.API.STREAM.INFO|CREATE.<stream>` for the
 *     one shared stream if it re-creates it when missing (never UPDATE: a service could allow rollups and wipe the
 *     others' events; never DELETE, PURGE, MSG.DELETE; nor MSG.GET: reading the stream by sequence would bypass the
 *     consumer rules below);
 *   - for each of its own consumers only: `$JS.API.CONSUMER.CREATE.<stream>.<name>.<filter>` (create and update;
 *     name and filter subject are both in the API subject, so it cannot create a consumer under another service's
 *     name nor point its own at events it does not handle), `CONSUMER.INFO` and `CONSUMER.MSG.NEXT` (pull) of that
 *     name, and `$JS.ACK.<stream>.<name>.>` (acks);
 *   - for the patterns it follows (ordered consumers, named anew by each replica and after each reset):
 *     `$JS.API.STREAM.INFO.<stream>` (where the stream ends, and when it was created), and
 *     `$JS.API.CONSUMER.CREATE.<stream>.*.<pattern>`, any name but only that filter, with every durable consumer's
 *     create subject denied, so a follower can never create, nor reconfigure, another service's durable;
 *   - answers to requests it received, through `allow_responses` (services that answer queries, and followers,
 *     whose consumers ask for flow-control replies).
 * Subscribe, per service: its own inbox subtree (where followed events are delivered), the queries it answers, and
 * the subjects it listens to.
 * Last, the operations step's user (`eventsAdminPermissions`).
 */
export function natsPermissions(options: { prefix: string; stream: string }): NatsUserPermissions[] {
  const { prefix, stream } = options;
  const subject = (name: string) => `${prefix}${name}`;
  const durableCreates = durableConsumers().map(({ name }) => `$JS.API.CONSUMER.CREATE.${stream}.${name}.>`);
  const services = NATS_SERVICE_NAMES.map((user) => {
    const use: BusUse = NATS_SERVICE_BUS_USE[user];
    const domain: string | null = SERVICES[user].eventDomain;
    const produces = (Object.keys(EVENTS) as EventType[]).filter((type) => type.split('.')[0] === domain);
    const reconcile = reconcileQueries(user);
    const answers = [...QUERY_NAMES.filter((name) => name.split('.')[1] === user), ...reconcile.answers];
    const consumers = (use.consumes?.events ?? []).map((type) => ({
      name: consumerName(use.consumes!.durable, type),
      filter: subject(type),
    }));
    const publish = [
      ...produces.map(subject),
      ...(use.asks ?? []).map(subject),
      ...reconcile.asks.map(subject),
      '$JS.API.INFO',
      ...(use.declaresStream ? ['INFO', 'CREATE'].map((op) => `$JS.API.STREAM.${op}.${stream}`) : []),
      ...(use.follows?.length && !use.declaresStream ? [`$JS.API.STREAM.INFO.${stream}`] : []),
      ...(use.follows ?? []).map((pattern) => `$JS.API.CONSUMER.CREATE.${stream}.*.${subject(pattern)}`),
      ...consumers.flatMap(({ name, filter }) => [
        `$JS.API.CONSUMER.CREATE.${stream}.${name}.${filter}`,
        `$JS.API.CONSUMER.INFO.${stream}.${name}`,
        `$JS.API.CONSUMER.MSG.NEXT.${stream}.${name}`,
        `$JS.ACK.${stream}.${name}.>`,
      ]),
    ];
    const subscribe = [`${natsInboxPrefix(user)}.>`, ...answers.map(subject), ...(use.listens ?? []).map(subject)];
    const follows = (use.follows?.length ?? 0) > 0;
    return {
      user,
      permissions: {
        publish: { allow: publish, ...(follows ? { deny: durableCreates } : {}) },
        subscribe: { allow: subscribe },
        ...(answers.length || follows ? { allow_responses: true } : {}),
      },
    };
  });
  return [...services, eventsAdminPermissions(options)];
}

/**
 * The operations step: create and update the one stream (never delete or purge it: it has no use for that, and
 * deny_delete/deny_purge refuse it anyway), create and read every durable consumer by its exact name and filter.
 */
export function eventsAdminPermissions(options: { prefix: string; stream: string }): NatsUserPermissions {
  const { prefix, stream } = options;
  return {
    user: EVENTS_ADMIN_USER,
    permissions: {
      publish: {
        allow: [
          '$JS.API.INFO',
          ...['INFO', 'CREATE', 'UPDATE'].map((op) => `$JS.API.STREAM.${op}.${stream}`),
          ...durableConsumers().flatMap(({ name, type }) => [
            `$JS.API.CONSUMER.CREATE.${stream}.${name}.${prefix}${type}`,
            `$JS.API.CONSUMER.INFO.${stream}.${name}`,
          ]),
        ],
      },
      subscribe: { allow: [`${natsInboxPrefix(EVENTS_ADMIN_USER)}.>`] },
    },
  };
}

/** A password written into the config, or the name of an environment variable the broker reads it from at start. */
export type NatsPassword = { value: string } | { env: string };

export interface NatsServerConfigOptions {
  /** `host:port` to listen on; omitted: the command line (or the default 0.0.0.0:4222) decides. */
  listen?: string;
  /** JetStream store folder; omitted: the command line (`-js -sd`) decides. */
  storeDir?: string;
  users: Array<{ user: string; password: NatsPassword; permissions?: NatsPermissions }>;
}

const quote = (text: string) => JSON.stringify(text);

function renderPermissions(p: NatsPermissions): string {
  const list = (subjects: string[]) => `[\n${subjects.map((subject) => `          ${quote(subject)}`).join(',\n')}\n        ]`;
  const publish = `publish: { allow: ${list(p.publish.allow)}${p.publish.deny ? `, deny: ${list(p.publish.deny)}` : ''} }`;
  const parts = [publish, `subscribe: { allow: ${list(p.subscribe.allow)} }`];
  if (p.allow_responses) parts.push('allow_responses: true');
  return `{\n        ${parts.join(',\n        ')}\n      }`;
}

/** nats-server (2.9) configuration text: JetStream on, and one user per entry (no entry, no connection). */
export function natsServerConfig(options: NatsServerConfigOptions): string {
  const users = options.users.map(({ user, password, permissions }) => {
    const pass = 'env' in password ? `$${password.env}` : quote(password.value);
    // A user without permissions may do anything: only test operators and `nats` CLI sessions are made so.
    return `    {\n      user: ${quote(user)}, password: ${pass}${permissions ? `,\n      permissions: ${renderPermissions(permissions)}` : ''}\n    }`;
  });
  return [
    ...(options.listen ? [`listen: ${quote(options.listen)}`] : []),
    options.storeDir ? `jetstream { store_dir: ${quote(options.storeDir)} }` : 'jetstream: enabled',
    'authorization {',
    '  users = [',
    users.join(',\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}

/** Writes the config readable by its owner only (it may hold passwords). */
export async function writeNatsServerConfig(file: string, options: NatsServerConfigOptions): Promise<void> {
  await writeFile(file, natsServerConfig(options), { mode: 0o600 });
  await chmod(file, 0o600);
}

/**
 * Each service's permissions, and the operations step's, with the given passwords (`passwordOf(user)`), ready for
 * `natsServerConfig`.
 */
export function serviceUsers(
  access: { prefix: string; stream: string },
  passwordOf: (user: NatsUserName) => NatsPassword,
): NatsServerConfigOptions['users'] {
  return natsPermissions(access).map(({ user, permissions }) => ({ user, password: passwordOf(user as NatsUserName), permissions }));
}

/**
 * The environment variable holding a user's NATS password in docker compose (read by the broker and by that service):
 * NATS_PASSWORD_PLOTS, NATS_PASSWORD_EVENTS_ADMIN.
 */
export function natsPasswordEnvName(user: string): string {
  return `NATS_PASSWORD_${user.toUpperCase().replaceAll('-', '_')}`;
}

/**
 * deploy/nats-server.conf, which docker compose mounts into the broker: the default stream and no subject prefix,
 * passwords read from the broker's environment. A test checks the committed file against this.
 */
export function composeNatsServerConfig(): string {
  const header = [
    '# Generated by composeNatsServerConfig() in packages/service-kit/src/nats-auth.ts: edit that, not this file',
    '# (packages/service-kit/src/nats-auth.test.ts says how to regenerate it). One user per service, each allowed',
    '# only its own subjects, and events-admin (the events-setup step: declares the stream and the durable consumers),',
    '# for NATS_STREAM=PIXEL_ATLAS and an empty NATS_SUBJECT_PREFIX. Passwords come from the environment',
    '# (NATS_PASSWORD_<USER>); the command line adds -js, the store folder and the monitoring port.',
    '',
  ].join('\n');
  return (
    header +
    natsServerConfig({ users: serviceUsers({ prefix: '', stream: 'PIXEL_ATLAS' }, (user) => ({ env: natsPasswordEnvName(user) })) })
  );
}
