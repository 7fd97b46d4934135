import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { clientKey, ipv6PrefixFromEnv } from '@pixel-atlas/service-kit/client-key';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';
import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import { LiveEventLog } from '../domain/live-event-log.ts';
import { LiveClients } from '../live-clients.ts';
import { followLiveFeeds } from '../live-feeds.ts';

const HEARTBEAT_MS = 25_000;
const RETRY_MIN_MS = 500;
const RETRY_SPREAD_MS = 2000;

export interface LiveUpdatesOptions {
  /** Streams one client (`clientKey`: an IPv4 address, an IPv6 /64) may hold; more answer 429. */
  maxPerClient: number;
  /** Streams this replica holds from everyone; more answer 503 (many addresses must not take every socket). */
  maxTotal: number;
  /** Live events kept for browsers that resume (`Last-Event-ID`) after their replica went away. */
  replayCapacity: number;
  /** Stream messages read back at start, so a replica that just started can resume browsers too. */
  backfillMessages: number;
  /** Bytes a browser may leave unread before it is cut off (it resumes on reconnect, missing nothing). */
  maxUnreadBytes: number;
}

/**
 * `GET /api/live`: Server-Sent Events telling open maps that plots or the layout changed, so new plots appear without
 * a reload. Every replica reads the events from the JetStream stream itself (an ordered consumer per feed, not a
 * shared durable), so a browser on any replica hears everything, and every event carries an id all replicas agree on
 * (see `LiveEventLog`). A browser that reconnects, to this replica or another, with `Last-Event-ID` is sent exactly
 * what it missed; one whose id cannot be resumed is told to refetch (`ready` with `resumed: false`).
 * Each event is serialised once for every browser in step with the replica. A browser that stops reading is cut off
 * at `maxUnreadBytes` instead of being buffered without bound; it catches up when it reconnects.
 * A stream holds a socket for as long as the client likes, so one client may hold at most `maxPerClient`, and the
 * replica at most `maxTotal` from everyone.
 */
export const liveUpdatesPlugin = fp(
  async (app: FastifyInstance, opts: LiveUpdatesOptions) => {
    const events = new LiveEventLog(opts.replayCapacity);
    const clients = new LiveClients({ events, maxUnreadBytes: opts.maxUnreadBytes, onDropped: () => metrics.dropped.inc() });
    const metrics = liveMetrics(app, clients);
    const feeds = followLiveFeeds({
      bus: app.bus,
      log: app.log,
      events,
      backfillMessages: opts.backfillMessages,
      onAppended: (entry) => (entry ? clients.broadcast(entry) : clients.settleAhead()),
    });
    // A comment line every HEARTBEAT_MS keeps idle streams open through proxies and the port's idle timeout.
    const heartbeat = new PollingWorker({
      name: 'live-update heartbeat',
      log: app.log,
      pollIntervalMs: HEARTBEAT_MS,
      waitBeforeFirstRound: true,
      tick: async () => {
        clients.heartbeat();
        return 0;
      },
    });
    app.addHook('onReady', async () => heartbeat.start());
    liveRoute(app, { opts, events, clients, metrics });

    app.addHook('preClose', async () => {
      await heartbeat.stop();
      await feeds.stop();
      clients.endAll();
    });
  },
  { name: 'gateway-live-updates', dependencies: ['pixel-atlas-nats', 'pixel-atlas-metrics', 'gateway-security'] },
);

function liveMetrics(app: FastifyInstance, clients: LiveClients) {
  return defineMetrics(app.metrics, (m) => ({
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
        this.set(clients.addresses);
      },
    }),
    refused: m.counter({
      name: 'live_update_refused_total',
      help: 'Live update connections refused because the client address already held LIVE_MAX_PER_CLIENT',
    }),
    refusedTotal: m.counter({
      name: 'live_update_refused_full_total',
      help: 'Live update connections refused because the replica already held LIVE_MAX_TOTAL',
    }),
    dropped: m.counter({
      name: 'live_update_slow_clients_dropped_total',
      help: 'Live update streams cut off because the browser left LIVE_MAX_UNREAD_BYTES unread',
    }),
    resumes: m.counter({
      name: 'live_update_connections_total',
      help: 'Live update connections, by whether Last-Event-ID was resumed, refetch was asked for, or none was sent',
      labelNames: ['outcome'] as const,
    }),
  }));
}

interface LiveRouteOptions {
  opts: LiveUpdatesOptions;
  events: LiveEventLog;
  clients: LiveClients;
  metrics: ReturnType<typeof liveMetrics>;
}

/** The route itself: the caps, then the stream's head and greeting straight to the socket. */
function liveRoute(app: FastifyInstance, { opts, events, clients, metrics }: LiveRouteOptions): void {
  const ipv6Prefix = ipv6PrefixFromEnv();
  /**
   * The response head, the same for every stream, written straight to the socket: a head set through the response
   * object stays in it (its header list and the head as a string, ~2 KB) for as long as the stream is open. No
   * chunked framing: the body runs until the connection closes (HTTP/1.1 allows it; EventSource and proxies read it).
   */
  const head = Buffer.from(
    [
      'HTTP/1.1 200 OK',
      ...[
        ...app.securityHeaders,
        ['content-type', 'text/event-stream; charset=utf-8'],
        ['cache-control', 'no-cache, no-transform'],
        ['x-accel-buffering', 'no'],
        ['connection', 'close'],
      ].map(([name, value]) => `${name}: ${value}`),
      '',
      '',
    ].join('\r\n'),
  );

  app.get('/api/live', { schema: { hide: true }, config: { writesOwnHead: true } }, (request, reply) => {
    const address = clientKey(request.clientIp || request.ip, ipv6Prefix);
    const held = clients.heldBy(address);
    if (clients.size >= opts.maxTotal) {
      metrics.refusedTotal.inc();
      for (const [name, value] of app.securityHeaders) reply.header(name, value);
      // Spread the retries: a full replica is better off hearing back from its browsers over a minute than at once.
      return reply
        .status(503)
        .header('retry-after', String(30 + Math.floor(Math.random() * 30)))
        .send({ error: { code: 'NOT_READY', message: 'Live updates are busy. The map will try again shortly.' } });
    }
    if (held >= opts.maxPerClient) {
      metrics.refused.inc();
      for (const [name, value] of app.securityHeaders) reply.header(name, value);
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
    clients.hold(address);
    const lastEventId = request.headers['last-event-id'];
    const resume = events.resume(typeof lastEventId === 'string' ? lastEventId : undefined);
    metrics.resumes.inc({ outcome: lastEventId === undefined ? 'none' : resume.resumed ? 'resumed' : 'refetch' });

    reply.hijack();
    const socket = request.raw.socket;
    socket.write(head);
    // `retry`: a replica that dies sends all its browsers back at once; each is told a different delay, so they
    // arrive spread over a couple of seconds instead of in one burst. `ready` tells the app whether it may trust
    // what it shows (resumed) or must refetch; its id is where the browser resumes if the stream drops before
    // anything else arrives.
    const retryMs = RETRY_MIN_MS + Math.floor(Math.random() * RETRY_SPREAD_MS);
    let greeting = `retry: ${retryMs}\nid: ${events.idFor(resume.from)}\nevent: ready\ndata: {"resumed":${resume.resumed}}\n\n`;
    const replayed = { ...resume.from };
    for (const entry of resume.replay) {
      replayed[entry.feed] = entry.seq;
      greeting += `id: ${events.idFor(replayed)}\n${entry.body}`;
    }
    clients.open(socket, address, resume.cursor, greeting);
  });
}
