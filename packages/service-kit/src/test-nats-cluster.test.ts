import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, type EventBus } from './nats.ts';
import { TestNatsCluster } from './test-nats-server.ts';
import { createTestStream, readStream, type TestStream } from './testing.ts';

// A three-node JetStream cluster: the operations step declares the stream with three copies, services connect with
// every node's URL (NATS_URL comma-separated), and a publish acknowledged before its stream leader is SIGKILLed is
// still there, once, after a new leader took over and the old one came back and caught up.
describe('TestNatsCluster', () => {
  let cluster: TestNatsCluster;
  let stream: TestStream;
  let bus: EventBus;

  beforeAll(async () => {
    cluster = await TestNatsCluster.start();
    stream = await createTestStream(cluster);
    bus = await connectBus(stream.busSettings('cluster-test'));
  }, 150_000);
  afterAll(async () => {
    await bus?.nc.close();
    await stream?.remove();
    await cluster?.destroy();
  });

  it('declares the stream and its durables with a copy on every node', async () => {
    expect(cluster.url.split(',')).toHaveLength(3);
    const info = await bus.jsm.streams.info(stream.stream);
    expect(info.config.num_replicas).toBe(3);
    await cluster.waitCaughtUp();
    for await (const consumer of bus.jsm.consumers.list(stream.stream)) {
      expect(consumer.cluster?.replicas ?? [], consumer.name).toHaveLength(2);
    }
  });

  it('keeps an acknowledged event through its stream leader killed and started again, and the client moves on', async () => {
    const subject = bus.subject('plots.plot.claimed');
    const first = await bus.js.publish(subject, JSON.stringify({ id: 'e1', type: 'plots.plot.claimed', data: {} }), { msgID: 'e1' });
    const leader = await cluster.streamLeader();
    expect(cluster.nodeNames).toContain(leader);
    await cluster.killNode(leader);
    // A new leader is elected among the two left; the same message id is still recognised as a duplicate.
    const again = await publishSoon(bus, subject, 'e1');
    expect(again.duplicate).toBe(true);
    expect(again.seq).toBe(first.seq);
    await publishSoon(bus, subject, 'e2');
    expect(await cluster.streamLeader()).not.toBe(leader);
    await cluster.startNode(leader);
    await cluster.waitCaughtUp();
    // Read through the node that was killed only: its copy has both events.
    const port = Number(cluster.url.split(',')[cluster.nodeNames.indexOf(leader)]!.split(':').at(-1));
    const nc = await connect({ ...stream.connectOptions(), servers: `nats://127.0.0.1:${port}`, ignoreClusterUpdates: true });
    try {
      const messages = await readStream({ jsm: await jetstreamManager(nc), stream: stream.stream });
      expect(messages.map((m) => m.msgId)).toEqual(['e1', 'e2']);
    } finally {
      await nc.close();
    }
  }, 60_000);
});

/** A publish during a leader election fails or times out until the new leader answers: tried again, as the outbox relay does. */
async function publishSoon(bus: EventBus, subject: string, id: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await bus.js.publish(subject, JSON.stringify({ id, type: 'plots.plot.claimed', data: {} }), { msgID: id, timeout: 2000 });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
