import { pathToFileURL } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { EVENTS_ADMIN_USER, natsInboxPrefix } from './nats-auth.ts';
import { declareEventStream, natsServers } from './nats.ts';

/**
 * The operations step that owns the event stream: connected as its own NATS user (EVENTS_ADMIN_USER, the only one
 * allowed to update the stream), it declares the stream with its canonical config and every durable consumer, then
 * exits. `npm start` runs it before the services, docker compose as the one-shot `events-setup` service the others
 * wait for, the test stacks through `createTestStream`. Run it again at any time: it changes nothing that is right.
 *
 *   NATS_URL (nats://127.0.0.1:4222; a cluster's nodes comma-separated), NATS_STREAM (PIXEL_ATLAS), NATS_SUBJECT_PREFIX (''),
 *   NATS_STREAM_REPLICAS (1; 3 on a three-node cluster), NATS_USER (events-admin), NATS_PASSWORD (required when the broker has users)
 */
export interface EventsSetupOptions {
  servers: string;
  stream: string;
  subjectPrefix: string;
  /** Copies of the stream a cluster keeps (1 on one broker). */
  streamReplicas?: number;
  user?: string;
  password?: string;
  /** How long to keep trying to reach the broker (it may still be starting). */
  timeoutMs?: number;
  /** How long one JetStream API request may take before it is sent again (5 s). */
  requestTimeoutMs?: number;
}

export async function runEventsSetup(options: EventsSetupOptions): Promise<Awaited<ReturnType<typeof declareEventStream>>> {
  const user = options.password ? (options.user ?? EVENTS_ADMIN_USER) : undefined;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    try {
      const nc = await connect({
        servers: natsServers(options.servers),
        name: 'events-setup',
        ...(user ? { user, pass: options.password, inboxPrefix: natsInboxPrefix(user) } : {}),
      });
      try {
        return await declareEventStream(await jetstreamManager(nc, { timeout: options.requestTimeoutMs ?? 5000 }), options);
      } finally {
        await nc.close();
      }
    } catch (error) {
      // A refused password or grant will not get better by waiting; a broker still starting (or JetStream not ready: a
      // cluster answers 'JetStream system temporarily unavailable' until its nodes have elected a meta leader) will, and
      // so will a request that timed out (a cluster can drop the answer to a stream create while its leaders settle;
      // every step here is idempotent, so it is sent again).
      const message = error instanceof Error ? error.message : String(error);
      if (/authoriz|permission/i.test(message) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** NATS_STREAM_REPLICAS as the services read it (env.ts): 1 when unset, else a whole number from 1 to 5. */
function replicasFromEnv(value: string | undefined): number {
  if (!value) return 1;
  const replicas = Number(value);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5)
    throw new Error(`NATS_STREAM_REPLICAS: a whole number from 1 to 5, not ${value}`);
  return replicas;
}

async function main(env: NodeJS.ProcessEnv): Promise<void> {
  const stream = env.NATS_STREAM || 'PIXEL_ATLAS';
  const done = await runEventsSetup({
    servers: env.NATS_URL || 'nats://127.0.0.1:4222',
    stream,
    subjectPrefix: env.NATS_SUBJECT_PREFIX ?? '',
    streamReplicas: replicasFromEnv(env.NATS_STREAM_REPLICAS),
    user: env.NATS_USER || undefined,
    password: env.NATS_PASSWORD || undefined,
  });
  console.log(`events-setup: stream ${stream} ${done.stream} (${done.replicas} replica(s)), ${done.consumers} durable consumers declared`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.env).catch((error: unknown) => {
    console.error(`events-setup: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
