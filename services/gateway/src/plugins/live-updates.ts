import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';

/** What a browser needs to know to refresh: which list changed and why. */
export interface LiveMessage {
  event: 'plots-changed' | 'map-changed';
  data: { reason: string; plotId?: string };
}

const HEARTBEAT_MS = 25_000;

/** Maps an event subject (without the deployment prefix) to what browsers are told, or null. */
export function liveMessageFor(type: string, data: Record<string, unknown>): LiveMessage | null {
  switch (type) {
    case 'plots.plot.claimed':
      // A screened plot stays hidden until approved: nothing to show yet.
      return data.visible === false ? null : { event: 'plots-changed', data: { reason: 'claimed', plotId: String(data.plotId) } };
    case 'plots.plot.published':
      return { event: 'plots-changed', data: { reason: 'approved', plotId: String(data.plotId) } };
    case 'plots.plot.removed':
      return { event: 'plots-changed', data: { reason: 'removed', plotId: String(data.plotId) } };
    case 'plots.plot.updated':
      // An owner changed message, link or avatar; a plot still waiting for review is not on any map.
      return data.visible === false ? null : { event: 'plots-changed', data: { reason: 'updated', plotId: String(data.plotId) } };
    case 'map.layout.generated':
      return { event: 'map-changed', data: { reason: 'generated' } };
    case 'map.layout.cleared':
      return { event: 'map-changed', data: { reason: 'cleared' } };
    default:
      return null;
  }
}

/**
 * `GET /api/live`: Server-Sent Events telling open maps that plots or the layout changed, so new plots
 * appear without a reload. Every gateway replica listens to the events itself (a plain subscription,
 * not a shared consumer), so a browser connected to any replica hears everything.
 * A stream holds a socket for as long as the client likes, so one client address may hold at most
 * `maxPerClient` of them (a few tabs and a reconnect in flight fit; a flood does not).
 */
export const liveUpdatesPlugin = fp(
  async (app: FastifyInstance, opts: { maxPerClient: number }) => {
    const clients = new Set<FastifyReply>();
    const perClient = new Map<string, number>();
    const { refused } = defineMetrics(app.metrics, (m) => ({
      clients: m.gauge({
        name: 'live_update_clients',
        help: 'Browsers connected to the live update stream',
        collect() {
          this.set(clients.size);
        },
      }),
      clientAddresses: m.gauge({
        name: 'live_update_client_addresses',
        help: 'Distinct client addresses holding live update streams',
        collect() {
          this.set(perClient.size);
        },
      }),
      refused: m.counter({
        name: 'live_update_refused_total',
        help: 'Live update connections refused because the client address already held LIVE_MAX_PER_CLIENT',
      }),
    }));

    const send = (reply: FastifyReply, chunk: string) => {
      if (!reply.raw.writableEnded) reply.raw.write(chunk);
    };
    const broadcast = (message: LiveMessage) => {
      const chunk = `event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`;
      for (const client of clients) send(client, chunk);
    };

    const prefix = app.bus.settings.subjectPrefix;
    const subscriptions = ['plots.>', 'map.layout.>'].map((subject) => app.bus.nc.subscribe(app.bus.subject(subject)));
    for (const subscription of subscriptions) {
      (async () => {
        for await (const message of subscription) {
          try {
            const envelope = message.json<{ type?: string; data?: Record<string, unknown> }>();
            const type = envelope.type ?? message.subject.slice(prefix.length);
            const live = liveMessageFor(type, envelope.data ?? {});
            if (live) broadcast(live);
          } catch (error) {
            app.log.warn({ err: error, subject: message.subject }, 'ignoring an unreadable event on the live stream');
          }
        }
      })().catch((error) => app.log.error({ err: error }, 'live update subscription ended'));
    }

    const heartbeat = setInterval(() => {
      for (const client of clients) send(client, `: heartbeat\n\n`);
    }, HEARTBEAT_MS);
    heartbeat.unref();

    app.get('/api/live', { schema: { hide: true } }, (request, reply) => {
      const address = request.clientIp || request.ip;
      const held = perClient.get(address) ?? 0;
      if (held >= opts.maxPerClient) {
        refused.inc();
        return reply
          .status(429)
          .header('retry-after', '30')
          .send({
            error: {
              code: 'RATE_LIMITED',
              message: 'Too many live update connections from your address. Close another tab and try again.',
            },
          });
      }
      perClient.set(address, held + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        clients.delete(reply);
        const left = (perClient.get(address) ?? 1) - 1;
        if (left > 0) perClient.set(address, left);
        else perClient.delete(address);
      };
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      // `ready` lets a reconnecting browser refetch what it may have missed while it was away.
      send(reply, `retry: 3000\nevent: ready\ndata: {}\n\n`);
      clients.add(reply);
      // The response's close: the browser went away, or the stream was ended at shutdown.
      reply.raw.on('close', release);
    });

    app.addHook('preClose', async () => {
      clearInterval(heartbeat);
      for (const subscription of subscriptions) subscription.unsubscribe();
      for (const client of clients) client.raw.end();
      clients.clear();
      perClient.clear();
    });
  },
  { name: 'gateway-live-updates', dependencies: ['pixel-atlas-nats', 'pixel-atlas-metrics'] },
);
