import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AckPolicy, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { sessionEntitlementQuery } from '@pixel-atlas/contracts/queries';
import { EVENT_DOMAINS } from '@pixel-atlas/contracts/services';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { composeNatsServerConfig, consumerName, natsPermissions } from './nats-auth.ts';
import { connectBus, ensureStream, type EventBus } from './nats.ts';
import { query, serveQuery, answer } from './rpc.ts';
import { createTestStream, type TestStream } from './testing.ts';

let stream: TestStream;
const buses: EventBus[] = [];
const connections: NatsConnection[] = [];

/** A service's own connection, exactly as natsPlugin makes it (its user, its inbox prefix). */
async function busAs(user: 'plots' | 'payments' | 'moderation' | 'gateway'): Promise<EventBus> {
  const bus = await connectBus(stream.busSettings(`${user}-under-test`, user));
  buses.push(bus);
  return bus;
}

/** Collects the broker's refusals on a connection (they arrive as async errors, the call itself only times out). */
function refusals(nc: NatsConnection): string[] {
  const seen: string[] = [];
  (async () => {
    for await (const status of nc.status()) if (status.type === 'error') seen.push(String(status.error.message));
  })().catch(() => undefined);
  return seen;
}

async function messagesOn(subject: string): Promise<number> {
  const nc = await connect(stream.connectOptions());
  connections.push(nc);
  const jsm = await jetstreamManager(nc);
  const info = await jsm.streams.info(stream.stream, { subjects_filter: subject });
  return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
}

const verified = () => ({
  id: randomUUID(),
  type: 'payments.payment.verified',
  occurredAt: new Date().toISOString(),
  data: { sessionId: `cs_${randomUUID()}`, tier: 'basic', amountCents: 100, currency: 'usd', footprint: null },
});

beforeAll(async () => {
  stream = await createTestStream();
  // The stream exists before anyone is tested, as after any service's first start.
  await ensureStream(await busAs('payments'));
});

afterAll(async () => {
  await Promise.all(buses.map((b) => b.nc.close().catch(() => undefined)));
  await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
  await stream?.remove();
});

describe('the broker', () => {
  it('refuses a client without credentials, and one with a wrong password', async () => {
    await expect(connect({ servers: stream.natsUrl, reconnect: false })).rejects.toThrow(/authoriz/i);
    await expect(connect({ servers: stream.natsUrl, reconnect: false, user: 'plots', pass: 'not-the-password' })).rejects.toThrow(
      /authoriz/i,
    );
  });

  it("refuses plots' credentials publishing payments.payment.verified: the stream never gets it", async () => {
    const plots = await busAs('plots');
    const refused = refusals(plots.nc);
    const event = verified();
    await expect(plots.js.publish(plots.subject(event.type), JSON.stringify(event), { msgID: event.id, timeout: 1500 })).rejects.toThrow();
    expect(refused.join('\n')).toMatch(/Permissions Violation for Publish to "t_\w+\.payments\.payment\.verified"/);
    expect(await messagesOn(stream.subjectPrefix + event.type)).toBe(0);
    // A plain publish (no ack asked) is dropped by the broker just the same.
    plots.nc.publish(plots.subject(event.type), JSON.stringify(event));
    await plots.nc.flush();
    expect(await messagesOn(stream.subjectPrefix + event.type)).toBe(0);
  });

  it("lets payments publish its own event, and plots consume it through plots' own durable", async () => {
    const payments = await busAs('payments');
    const event = verified();
    const ack = await payments.js.publish(payments.subject(event.type), JSON.stringify(event), { msgID: event.id });
    expect(ack.seq).toBeGreaterThan(0);
    expect(await messagesOn(stream.subjectPrefix + event.type)).toBeGreaterThanOrEqual(1);

    const plots = await busAs('plots');
    const durable = consumerName('plots', event.type);
    await plots.jsm.consumers.add(stream.stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      filter_subject: plots.subject(event.type),
    });
    const consumer = await plots.js.consumers.get(stream.stream, durable);
    const message = await consumer.next({ expires: 2000 });
    expect(message?.json<{ id: string }>().id).toBe(event.id);
    await message!.ackAck();
  });

  it("refuses a consumer under another service's name, or one of its own names pointed at other events", async () => {
    const plots = await busAs('plots');
    const refused = refusals(plots.nc);
    const asModeration = plots.jsm.consumers.add(stream.stream, {
      durable_name: consumerName('moderation', 'plots.plot.claimed'),
      ack_policy: AckPolicy.Explicit,
      filter_subject: plots.subject('plots.plot.claimed'),
    });
    await expect(asModeration).rejects.toThrow();
    // Its own consumer's name, filtered on contact messages (people's e-mail addresses): refused as well.
    const snooping = plots.jsm.consumers.add(stream.stream, {
      durable_name: consumerName('plots', 'payments.payment.verified'),
      ack_policy: AckPolicy.Explicit,
      filter_subject: plots.subject('contact.message.received'),
    });
    await expect(snooping).rejects.toThrow();
    expect(refused.join('\n')).toMatch(
      /Permissions Violation for Publish to "\$JS\.API\.CONSUMER\.CREATE\.\w+\.moderation-plots-plot-claimed/,
    );
    // Nor may it read the stream by sequence number, around the consumer rules.
    await expect(plots.jsm.streams.getMessage(stream.stream, { seq: 1 })).rejects.toThrow();
  });

  it('refuses a subscription to events a service does not handle, and to the replies of other services', async () => {
    const plots = await busAs('plots');
    const refused = refusals(plots.nc);
    plots.nc.subscribe(plots.subject('contact.>'));
    plots.nc.subscribe('_INBOX.payments.>');
    await plots.nc.flush();
    // The broker's refusals arrive as errors of their own, after the flush.
    await vi.waitFor(() => {
      expect(refused.join('\n')).toMatch(/Permissions Violation for Subscription to "t_\w+\.contact\.>"/);
      expect(refused.join('\n')).toMatch(/Permissions Violation for Subscription to "_INBOX\.payments\.>"/);
    }, 5_000);
  });

  it('carries a query from the service that asks it to the one that answers it, and no further', async () => {
    const payments = await busAs('payments');
    const plots = await busAs('plots');
    const handler = answer(sessionEntitlementQuery, async ({ sessionId }) => ({ sessionId, paid: false, tier: null, footprint: null }));
    serveQuery(payments, 'payments', handler, () => undefined);
    await payments.nc.flush();
    expect(await query(plots, sessionEntitlementQuery, { sessionId: 'cs_1' })).toMatchObject({ sessionId: 'cs_1', paid: false });
    // Moderation may not ask payments anything (it never needs to).
    const moderation = await busAs('moderation');
    await expect(query(moderation, sessionEntitlementQuery, { sessionId: 'cs_1' }, { timeoutMs: 500 })).rejects.toThrow();
  });

  it('lets the gateway listen to plot events and read where the stream ends, but not declare or change the stream', async () => {
    const gateway = await busAs('gateway');
    const refused = refusals(gateway.nc);
    gateway.nc.subscribe(gateway.subject('plots.>'));
    await gateway.nc.flush();
    expect((await gateway.jsm.streams.info(stream.stream)).state.last_seq).toBeGreaterThanOrEqual(0);
    const info = await gateway.jsm.streams.info(stream.stream);
    await expect(gateway.jsm.streams.update(stream.stream, { ...info.config, max_msgs: 1 })).rejects.toThrow();
    expect(refused.join('\n')).toMatch(/\$JS\.API\.STREAM\.UPDATE/);
    expect(refused.join('\n')).not.toMatch(/Subscription to "t_\w+\.plots\.>"/);
  });

  it("lets the gateway follow plot and layout events in order through consumers of its own, never another service's", async () => {
    const gateway = await busAs('gateway');
    const plots = await busAs('plots');
    const published = await plots.js.publish(plots.subject('plots.plot.removed'), JSON.stringify({ id: randomUUID() }));
    const follow = async (filter: string) => {
      const consumer = await gateway.js.consumers.getPushConsumer(stream.stream, {
        name_prefix: `follow-${randomUUID().slice(0, 8)}`,
        deliver_prefix: `_INBOX.gateway.${randomUUID().slice(0, 8)}`,
        filter_subjects: gateway.subject(filter),
        opt_start_seq: published.seq,
      });
      return consumer.consume();
    };
    const messages = await follow('plots.>');
    for await (const message of messages) {
      expect(message.seq).toBe(published.seq);
      break;
    }
    await expect(follow('payments.>')).rejects.toThrow();
    // A consumer under another service's durable name, even on a subject the gateway may follow: refused.
    const durable = consumerName('payments', 'plots.plot.claimed');
    await expect(
      gateway.jsm.consumers.add(stream.stream, {
        name: durable,
        filter_subject: gateway.subject('plots.plot.claimed'),
        ack_policy: AckPolicy.Explicit,
        max_deliver: 1,
      }),
    ).rejects.toThrow();
  });
});

describe('natsPermissions', () => {
  const users = natsPermissions({ prefix: '', stream: 'PIXEL_ATLAS' });
  const of = (user: string) => users.find((u) => u.user === user)!.permissions;

  it('grants each service its own events by exact subject and nobody else', () => {
    for (const { user, permissions } of users) {
      const events = permissions.publish.allow.filter((s) => EVENT_DOMAINS.some((domain) => s.startsWith(`${domain}.`)));
      expect(
        events.every((s) => s.startsWith(`${user}.`)),
        `${user}: ${events.join(', ')}`,
      ).toBe(true);
    }
    expect(of('payments').publish.allow).toContain('payments.payment.verified');
    expect(users.filter((u) => u.permissions.publish.allow.includes('payments.payment.verified')).map((u) => u.user)).toEqual(['payments']);
  });

  it('lets only the services that answer queries (and the gateway, for flow control) publish answers, and nobody publish on inboxes', () => {
    expect(
      users
        .filter((u) => u.permissions.allow_responses)
        .map((u) => u.user)
        .sort(),
    ).toEqual(['gateway', 'map', 'moderation', 'payments', 'plots']);
    for (const { permissions } of users) expect(permissions.publish.allow.some((s) => s.startsWith('_INBOX'))).toBe(false);
  });

  it('matches deploy/nats-server.conf, the config docker compose mounts', async () => {
    const committed = await readFile(path.resolve(import.meta.dirname, '../../../deploy/nats-server.conf'), 'utf8');
    // Regenerate: npx tsx -e "import('./packages/service-kit/src/nats-auth.ts').then((m) => process.stdout.write(m.composeNatsServerConfig()))" > deploy/nats-server.conf
    expect(committed).toBe(composeNatsServerConfig());
  });
});
