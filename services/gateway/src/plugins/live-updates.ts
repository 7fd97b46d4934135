import type { Socket } from 'node:net';
import type { JsMsg } from '@nats-io/jetstream';
import { createInbox, delay, nuid } from '@nats-io/nats-core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { clientKey, ipv6PrefixFromEnv } from '@pixel-atlas/service-kit/client-key';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';
import { natsInboxPrefix } from '@pixel-atlas/service-kit/nats-auth';
import { LIVE_FEEDS, LiveEventLog, type LiveCursor, type LiveEntry, type LiveFeed, type LiveMessage } from '../domain/live-event-log.ts';

export type { LiveMessage } from '../domain/live-event-log.ts';

const HEARTBEAT_MS = 25_000;
const RETRY_MIN_MS = 500;
const RETRY_SPREAD_MS = 2000;
/** The event subjects each feed's consumer reads (one filter subject per consumer on NATS 2.9). */
export const LIVE_FEED_SUBJECTS: Record<LiveFeed, string> = { plots: 'plots.>', map: 'map.layout.>' };

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

/** One open stream. Kept small: 10,000 of them live in one replica. */
interface LiveClient {
  /** The connection itself: after the headers, the stream's bytes go straight to it (see the route). */
  socket: Socket;
  address: string;
  /** Set while the browser is further along a feed than this replica (it came from a replica ahead of this one). */
  ahead: LiveCursor | undefined;
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
    const log = new LiveEventLog(opts.replayCapacity);
    const clients = new Set<LiveClient>();
    const perClient = new Map<string, number>();
    const ipv6Prefix = ipv6PrefixFromEnv();
    const { refused, refusedTotal, dropped, resumes } = defineMetrics(app.metrics, (m) => ({
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

    const write = (client: LiveClient, chunk: string | Buffer) => {
      const { socket } = client;
      if (socket.destroyed || !socket.writable) return;
      socket.write(chunk);
      if (socket.writableLength > opts.maxUnreadBytes) {
        dropped.inc();
        socket.destroy();
      }
    };

    const broadcast = (entry: LiveEntry) => {
      // In-step browsers were at the replica's position before this event: they all get the same bytes, encoded once.
      const shared = Buffer.from(`id: ${log.idFor(log.position)}\n${entry.body}`);
      for (const client of clients) {
        if (client.ahead === undefined) write(client, shared);
        else sendAhead(client, entry);
      }
    };
    /** A browser further along than this replica: skip what it has had, until the replica catches up with it. */
    const sendAhead = (client: LiveClient, entry: LiveEntry) => {
      const ahead = client.ahead!;
      if (entry.seq > ahead[entry.feed]) {
        ahead[entry.feed] = entry.seq;
        write(client, `id: ${log.idFor(ahead)}\n${entry.body}`);
      }
      if (LIVE_FEEDS.every((feed) => ahead[feed] <= log.position[feed])) client.ahead = undefined;
    };
    /** After an event without a message (a hidden plot), browsers that were ahead may now be in step. */
    const settleAhead = () => {
      for (const client of clients) {
        if (client.ahead && LIVE_FEEDS.every((feed) => client.ahead![feed] <= log.position[feed])) client.ahead = undefined;
      }
    };

    const prefix = app.bus.settings.subjectPrefix;
    const received = (feed: LiveFeed, message: JsMsg) => {
      let live: LiveMessage | null = null;
      try {
        const envelope = message.json<{ type?: string; data?: Record<string, unknown> }>();
        live = liveMessageFor(envelope.type ?? message.subject.slice(prefix.length), envelope.data ?? {});
      } catch (error) {
        app.log.warn({ err: error, subject: message.subject }, 'ignoring an unreadable event on the live stream');
      }
      const entry = log.append(feed, message.seq, live);
      if (entry) broadcast(entry);
      else settleAhead();
    };

    let closing = false;
    const stops: Array<() => Promise<void>> = [];
    const { jsm, js, settings } = app.bus;
    const deliverPrefix = () => createInbox(settings.user ? natsInboxPrefix(settings.user) : undefined);
    /**
     * Follows both feeds from where the log stands. Runs until the gateway closes: while the stream does not exist
     * yet (the gateway can start before any producer) or the broker is away, it retries.
     */
    const follow = async () => {
      while (!closing) {
        try {
          const info = await jsm.streams.info(settings.stream);
          const generation = Date.parse(info.created).toString(36);
          const end = info.state.last_seq;
          const startAt = log.open(generation, Math.max(1, end - opts.backfillMessages + 1), end);
          const ended = await Promise.race(
            LIVE_FEEDS.map(async (feed) => {
              const consumer = await js.consumers.getPushConsumer(settings.stream, {
                name_prefix: `gateway-live-${feed}-${nuid.next()}`,
                deliver_prefix: deliverPrefix(),
                filter_subjects: app.bus.subject(LIVE_FEED_SUBJECTS[feed]),
                opt_start_seq: startAt[feed],
              });
              const messages = await consumer.consume();
              stops.push(async () => {
                await messages.close();
              });
              for await (const message of messages) received(feed, message);
              return feed;
            }),
          );
          if (!closing) app.log.warn({ feed: ended }, 'a live update feed ended; following the stream again');
        } catch (error) {
          if (!closing) app.log.warn({ err: error }, 'live updates cannot follow the event stream yet; retrying');
        }
        for (const stop of stops.splice(0)) await stop().catch(() => undefined);
        if (!closing) await delay(1000);
      }
    };
    const following = follow();

    const heartbeatBytes = Buffer.from(': heartbeat\n\n');
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
    const heartbeat = setInterval(() => {
      for (const client of clients) write(client, heartbeatBytes);
    }, HEARTBEAT_MS);
    heartbeat.unref();

    app.get('/api/live', { schema: { hide: true }, config: { writesOwnHead: true } }, (request, reply) => {
      const address = clientKey(request.clientIp || request.ip, ipv6Prefix);
      const held = perClient.get(address) ?? 0;
      if (clients.size >= opts.maxTotal) {
        refusedTotal.inc();
        for (const [name, value] of app.securityHeaders) reply.header(name, value);
        // Spread the retries: a full replica is better off hearing back from its browsers over a minute than at once.
        return reply
          .status(503)
          .header('retry-after', String(30 + Math.floor(Math.random() * 30)))
          .send({ error: { code: 'NOT_READY', message: 'Live updates are busy. The map will try again shortly.' } });
      }
      if (held >= opts.maxPerClient) {
        refused.inc();
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
      perClient.set(address, held + 1);
      const lastEventId = request.headers['last-event-id'];
      const resume = log.resume(typeof lastEventId === 'string' ? lastEventId : undefined);
      resumes.inc({ outcome: lastEventId === undefined ? 'none' : resume.resumed ? 'resumed' : 'refetch' });

      reply.hijack();
      const socket = request.raw.socket;
      socket.write(head);
      const client: LiveClient = { socket, address, ahead: undefined };
      // `retry`: a replica that dies sends all its browsers back at once; each is told a different delay, so they
      // arrive spread over a couple of seconds instead of in one burst. `ready` tells the app whether it may trust
      // what it shows (resumed) or must refetch; its id is where the browser resumes if the stream drops before
      // anything else arrives.
      const retryMs = RETRY_MIN_MS + Math.floor(Math.random() * RETRY_SPREAD_MS);
      let chunk = `retry: ${retryMs}\nid: ${log.idFor(resume.from)}\nevent: ready\ndata: {"resumed":${resume.resumed}}\n\n`;
      const replayed = { ...resume.from };
      for (const entry of resume.replay) {
        replayed[entry.feed] = entry.seq;
        chunk += `id: ${log.idFor(replayed)}\n${entry.body}`;
      }
      if (LIVE_FEEDS.some((feed) => resume.cursor[feed] > log.position[feed])) client.ahead = { ...resume.cursor };
      clients.add(client);
      write(client, chunk);
      // The connection's close: the browser went away, was cut off, or the stream was ended at shutdown.
      socket.once('close', () => {
        if (!clients.delete(client)) return;
        const left = (perClient.get(address) ?? 1) - 1;
        if (left > 0) perClient.set(address, left);
        else perClient.delete(address);
      });
    });

    app.addHook('preClose', async () => {
      closing = true;
      clearInterval(heartbeat);
      for (const stop of stops.splice(0)) await stop().catch(() => undefined);
      await following;
      for (const client of clients) client.socket.end();
      clients.clear();
      perClient.clear();
    });
  },
  { name: 'gateway-live-updates', dependencies: ['pixel-atlas-nats', 'pixel-atlas-metrics', 'gateway-security'] },
);
