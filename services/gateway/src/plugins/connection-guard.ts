import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { clientKey, ipv6PrefixFromEnv } from '@pixel-atlas/service-kit/client-key';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';

export interface ConnectionGuardOptions {
  /** Connections this replica holds at once, from everyone; past it a new connection is answered 503 and closed. */
  maxConnections: number;
  /**
   * Connections one client (`clientKey`: an IPv4 address, an IPv6 /64) may hold at once; null when the socket's peer is
   * a proxy (TRUST_PROXY set), whose one address carries everybody.
   */
  maxPerClient: number | null;
}

/** Sent instead of reading a request from a connection over a cap; the client may retry after a while. */
const REFUSAL_BODY = 'Too many connections. Please try again in a moment.\n';
const REFUSAL = Buffer.from(
  [
    'HTTP/1.1 503 Service Unavailable',
    'retry-after: 10',
    'connection: close',
    'content-type: text/plain; charset=utf-8',
    'cache-control: no-store',
    `content-length: ${Buffer.byteLength(REFUSAL_BODY)}`,
    '',
    REFUSAL_BODY,
  ].join('\r\n'),
);
/** A refused socket is destroyed after this long whatever its peer does, so refusals cannot be hoarded either. */
const REFUSED_LINGER_MS = 1000;

/**
 * `/api` and whatever the API's guards treat as it (`/API/…`, `/api//…`, `/api;x/…`, `/api\\…`): those answer for
 * themselves (the admin guard's 401 and 403 included), so only what is plainly a page is refused here.
 */
const API_PATH = /^\/*api(?![a-z0-9_-])/i;

/**
 * Keeps one client, or many, from hoarding the public port's connections: every accepted socket is counted per client
 * and in total, and one over either cap gets a fixed 503 with `Retry-After` and is closed without its request being
 * parsed. The counting wraps the HTTP server's own `connection` listener, so a refused socket never reaches it.
 *
 * The pages (every path outside `/api`) take no request body: a POST/PUT/... with one is answered 413 at once and the
 * connection closed, instead of reading a megabyte that arrives a byte at a time; a GET with a body is answered and
 * its connection closed rather than drained.
 */
export const connectionGuardPlugin = fp(
  async (app: FastifyInstance, opts: ConnectionGuardOptions) => {
    const server = app.server;
    const ipv6Prefix = ipv6PrefixFromEnv();
    const perClient = new Map<string, number>();
    let open = 0;
    const { refused } = defineMetrics(app.metrics, (m) => ({
      open: m.gauge({
        name: 'gateway_connections',
        help: 'Connections open on the public port',
        collect() {
          this.set(open);
        },
      }),
      clients: m.gauge({
        name: 'gateway_connection_clients',
        help: 'Distinct clients (IPv4 addresses, IPv6 /64s) holding connections on the public port',
        collect() {
          this.set(perClient.size);
        },
      }),
      refused: m.counter({
        name: 'gateway_connections_refused_total',
        help: 'Connections answered 503 and closed at once: over MAX_CONNECTIONS (total) or MAX_CONNECTIONS_PER_CLIENT (client)',
        labelNames: ['cap'] as const,
      }),
    }));

    const refuse = (socket: Socket, cap: 'total' | 'client') => {
      refused.inc({ cap });
      const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
      linger.unref();
      socket.once('close', () => clearTimeout(linger));
      socket.on('error', () => socket.destroy());
      // Read and drop whatever the client sends, so closing does not reset the connection before it reads the answer.
      socket.resume();
      socket.end(REFUSAL);
    };

    const accept = server.listeners('connection') as Array<(this: typeof server, socket: Socket) => void>;
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      const key = clientKey(socket.remoteAddress ?? '', ipv6Prefix);
      const held = perClient.get(key) ?? 0;
      if (open >= opts.maxConnections) return refuse(socket, 'total');
      if (opts.maxPerClient !== null && held >= opts.maxPerClient) return refuse(socket, 'client');
      open++;
      perClient.set(key, held + 1);
      socket.once('close', () => {
        open--;
        const left = (perClient.get(key) ?? 1) - 1;
        if (left > 0) perClient.set(key, left);
        else perClient.delete(key);
      });
      for (const listener of accept) listener.call(server, socket);
    });

    app.addHook('onRequest', (request, reply, done) => {
      const { headers } = request;
      const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
      if (!hasBody || API_PATH.test(request.url)) return done();
      // Node would otherwise read the unread body to the end before the connection could carry another request.
      reply.header('connection', 'close');
      if (request.method === 'GET' || request.method === 'HEAD') return done();
      reply
        .status(413)
        .send({ error: { code: 'PAYLOAD_TOO_LARGE', message: `${request.method} ${request.url.split('?')[0]} takes no request body` } });
    });
  },
  { name: 'gateway-connection-guard', dependencies: ['pixel-atlas-metrics'] },
);
