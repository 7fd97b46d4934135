import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/nats-core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { EVENTS, type EventType } from '@pixel-atlas/contracts/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consumerName,
  durableConsumers,
  EVENTS_ADMIN_USER,
  NATS_SERVICE_BUS_USE,
  NATS_SERVICE_NAMES,
  type NatsServiceName,
} from './nats-auth.ts';
import { connectBus, declareEventStream, ensureStream, eventStreamConfig, type EventBus } from './nats.ts';
import { TestNatsServer } from './test-nats-server.ts';
import { createTestStream, type TestStream } from './testing.ts';

// The shared stream belongs to no service (issue 24): with each service's own credentials, on a broker started with
// the production users and permissions, nothing that removes events is allowed, and the service still does its work.

let server: TestNatsServer;
let stream: TestStream;
let operator: NatsConnection;
let jsm: JetStreamManager;
const buses: EventBus[] = [];

const producedBy = (service: string) => (Object.keys(EVENTS) as EventType[]).filter((type) => type.split('.')[0] === service);

async function busAs(user: NatsServiceName): Promise<EventBus> {
  const bus = await connectBus(stream.busSettings(`${user}-under-test`, user));
  buses.push(bus);
  return bus;
}

/** Every message the stream holds, by sequence, read as the test operator: what an attack must leave untouched. */
async function snapshot(): Promise<{ messages: number; ids: string[] }> {
  const info = await jsm.streams.info(stream.stream);
  const ids: string[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const message = await jsm.streams.getMessage(stream.stream, { seq }).catch(() => null);
    if (message) ids.push(message.json<{ id: string }>().id);
  }
  return { messages: info.state.messages, ids };
}

async function publishAs(bus: EventBus, type: EventType): Promise<string> {
  const id = randomUUID();
  await bus.js.publish(bus.subject(type), JSON.stringify({ id, type }), { msgID: id, timeout: 3000 });
  return id;
}

beforeAll(async () => {
  server = await TestNatsServer.start();
  // The operations step declares the stream and the durables, as its own user, before anything else runs.
  stream = await createTestStream(server);
  operator = await connect(stream.connectOptions());
  jsm = await jetstreamManager(operator);
  // Other services' unconsumed events: one of every type each producing service publishes.
  for (const service of NATS_SERVICE_NAMES) {
    const types = producedBy(service);
    if (!types.length) continue;
    const bus = await busAs(service);
    for (const type of types) await publishAs(bus, type);
  }
});

afterAll(async () => {
  await Promise.all(buses.map((b) => b.nc.close().catch(() => undefined)));
  await operator?.close();
  await server?.destroy();
});

describe('the stream as the operations step declares it', () => {
  it('refuses rollups, message deletes and purges whoever asks, and has every durable consumer', async () => {
    const info = await jsm.streams.info(stream.stream);
    expect(info.config).toMatchObject({ allow_rollup_hdrs: false, deny_delete: true, deny_purge: true });
    const durables = NATS_SERVICE_NAMES.flatMap((service) => {
      const consumes = (NATS_SERVICE_BUS_USE[service] as { consumes?: { durable: string; events: string[] } }).consumes;
      return (consumes?.events ?? []).map((type) => consumerName(consumes!.durable, type));
    });
    const names: string[] = [];
    for await (const consumer of jsm.consumers.list(stream.stream)) names.push(consumer.name);
    expect(names.sort()).toEqual(durables.sort());
    // Even the test operator, who may send any API request, cannot purge or delete a message.
    await expect(jsm.streams.purge(stream.stream)).rejects.toThrow();
    await expect(jsm.streams.deleteMessage(stream.stream, info.state.first_seq)).rejects.toThrow();
  });

  it('is declared again without change: the step is idempotent', async () => {
    const nc = await connect(stream.connectOptions(EVENTS_ADMIN_USER));
    try {
      expect(await declareEventStream(await jetstreamManager(nc), { stream: stream.stream, subjectPrefix: stream.subjectPrefix })).toEqual({
        stream: 'unchanged',
        replicas: 1,
        consumers: durableConsumers().length,
      });
    } finally {
      await nc.close();
    }
  });
});

describe.each(NATS_SERVICE_NAMES)("with %s's credentials", (service) => {
  it('cannot update, delete or purge the stream, delete a message, create it with another config, or roll it up', async () => {
    const before = await snapshot();
    expect(before.messages).toBeGreaterThanOrEqual(5);
    const bus = await busAs(service);
    const info = await jsm.streams.info(stream.stream);
    // The attack of the finding: allow rollups, then one `Nats-Rollup: all` message empties the stream.
    await expect(bus.jsm.streams.update(stream.stream, { ...info.config, allow_rollup_hdrs: true })).rejects.toThrow();
    await expect(bus.jsm.streams.update(stream.stream, { ...info.config, max_msgs: 1 })).rejects.toThrow();
    await expect(bus.jsm.streams.delete(stream.stream)).rejects.toThrow();
    await expect(bus.jsm.streams.purge(stream.stream)).rejects.toThrow();
    await expect(bus.jsm.streams.deleteMessage(stream.stream, info.state.first_seq)).rejects.toThrow();
    await expect(bus.jsm.streams.add({ ...eventStreamConfig(bus.settings), allow_rollup_hdrs: true, deny_purge: false })).rejects.toThrow();
    const own = producedBy(service)[0] ?? 'plots.plot.claimed';
    for (const rollup of ['all', 'sub']) {
      const h = natsHeaders();
      h.set('Nats-Rollup', rollup);
      await expect(bus.js.publish(bus.subject(own), JSON.stringify({ id: randomUUID() }), { headers: h, timeout: 2000 })).rejects.toThrow();
    }
    const after = await snapshot();
    expect(after).toEqual(before);
  });

  it('still publishes its own events and consumes its own subjects', async () => {
    const bus = await busAs(service);
    const produced = producedBy(service);
    const published: string[] = [];
    for (const type of produced) published.push(await publishAs(bus, type));
    if (produced.length) expect((await snapshot()).ids).toEqual(expect.arrayContaining(published));
    const consumes = (NATS_SERVICE_BUS_USE[service] as { consumes?: { durable: string; events: EventType[] } }).consumes;
    if (service !== 'contact' && service !== 'map' && service !== 'gateway') expect(consumes?.events.length).toBeGreaterThan(0);
    for (const type of consumes?.events ?? []) {
      const consumer = await bus.js.consumers.get(stream.stream, consumerName(consumes!.durable, type));
      const message = await consumer.next({ expires: 3000 });
      expect(message?.subject).toBe(bus.subject(type));
      message!.ack();
    }
    // A service that re-creates the stream when missing finds it there, unchanged (create-if-missing is a no-op).
    if ((NATS_SERVICE_BUS_USE[service] as { declaresStream: boolean }).declaresStream) await ensureStream(bus);
  });
});

describe('when the broker loses its store', () => {
  it('a service re-creates the missing stream, with the canonical config (create-if-missing)', async () => {
    await server.stop();
    await rm(server.storeDir, { recursive: true, force: true });
    await server.resume();
    await operator.close();
    operator = await connect(stream.connectOptions());
    jsm = await jetstreamManager(operator);
    const contact = await busAs('contact');
    await ensureStream(contact);
    const info = await jsm.streams.info(stream.stream);
    expect(info.config).toMatchObject({ allow_rollup_hdrs: false, deny_delete: true, deny_purge: true });
    expect(info.config.subjects?.sort()).toEqual(eventStreamConfig(stream).subjects!.sort());
  });

  it('a service refuses to publish into a stream someone made without the guards, until the operations step puts it right', async () => {
    await jsm.streams.delete(stream.stream);
    // Made weak (rollups allowed) before any service re-created it.
    await jsm.streams.add({ ...eventStreamConfig(stream), allow_rollup_hdrs: true, deny_delete: false, deny_purge: false });
    const plots = await busAs('plots');
    await expect(ensureStream(plots)).rejects.toThrow(/allows rollups, message deletes or purges/);
    const nc = await connect(stream.connectOptions(EVENTS_ADMIN_USER));
    try {
      expect((await declareEventStream(await jetstreamManager(nc), stream)).stream).toBe('updated');
    } finally {
      await nc.close();
    }
    await ensureStream(plots);
    expect((await jsm.streams.info(stream.stream)).config).toMatchObject({ allow_rollup_hdrs: false, deny_delete: true, deny_purge: true });
  });
});
