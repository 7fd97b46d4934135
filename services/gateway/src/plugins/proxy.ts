import proxy from '@fastify/http-proxy';
import type { FastifyReplyFromHooks } from '@fastify/reply-from';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import { claimPlotRequestSchema } from '@pixel-atlas/contracts/plots';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { cachedDocumentHook } from './cached-document-hook.ts';
import { IDLE_UPSTREAM_SOCKET_MS, ROUTE_TABLE, UpstreamPool, serviceCaller, type CallService, type ServiceName } from '../upstreams.ts';

declare module 'fastify' {
  interface FastifyInstance {
    upstreams: Map<ServiceName, UpstreamPool>;
    /** A call of the gateway's own to a service (see `serviceCaller`). */
    callService: CallService;
  }
}

export interface ProxyOptions {
  upstreams: Partial<Record<ServiceName, string[]>>;
  internalToken: string;
  adminCookieName: string;
  rateLimitPerMinute: number;
  timeoutMs: number;
  /** One time limit for the calls the gateway makes itself (`callService`). */
  serviceCallTimeoutMs: number;
  /** How long the gateway may answer the public documents from memory without asking their service again. */
  documentMaxAgeMs: number;
}

const SPOOFABLE_HEADERS = Object.values(INTERNAL_HEADERS);
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
]);
/**
 * A timed-out try reports twice: reply-from's timeout handler aborts the request and reports the timeout, and the
 * aborted socket reports 'socket hang up' a few milliseconds later (2 to 6 ms on an idle machine, more on a busy one).
 * That second report belongs to the try that already failed, not to its retry.
 */
const isTimeout = (error: Error) => (error as { code?: string }).code === 'FST_REPLY_FROM_GATEWAY_TIMEOUT';
const isHangUp = (error: Error) => (error as { code?: string }).code === 'ECONNRESET';

function isConnectionFailure(error: Error): boolean {
  const code = (error as { code?: string }).code ?? (error.cause as { code?: string } | undefined)?.code;
  return (code !== undefined && CONNECTION_FAILURES.has(code)) || /socket hang up|ECONNREFUSED|ECONNRESET/.test(String(error.message));
}

/** Room for a request's other fields and JSON escaping beside its largest field. */
const ENVELOPE_BYTES = 64 * 1024;
/**
 * The largest body each path may carry, checked at the gateway so an oversized one never reaches a
 * replica (which would drop the connection mid-upload and look dead). The claim carries the avatar as a
 * base64 data URL (1 MiB decoded, at most `avatar_url`'s length in the contracts); Stripe's webhook gets
 * the 1 MiB the payments service reads; every other API body is a small JSON document.
 */
export const BODY_LIMITS: Record<string, number> = {
  '/api/claim-plot': (claimPlotRequestSchema.shape.avatar_url.maxLength ?? 1_500_000) + ENVELOPE_BYTES,
  // The owner's new avatar travels the same way (PUT /api/manage/:token/avatar).
  '/api/manage': (claimPlotRequestSchema.shape.avatar_url.maxLength ?? 1_500_000) + ENVELOPE_BYTES,
  '/api/payments': 1024 * 1024,
};
export const DEFAULT_BODY_LIMIT = ENVELOPE_BYTES;
export const bodyLimitFor = (prefix: string): number => BODY_LIMITS[prefix] ?? DEFAULT_BODY_LIMIT;

function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function withoutCookie(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  const kept = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith(`${name}=`));
  return kept.length ? kept.join('; ') : undefined;
}

/**
 * Proxies each service's paths to its replicas. Identity headers arriving from outside are dropped;
 * the gateway's own (request id, client address, admin) travel with the internal token.
 */
export const proxyPlugin = fp(
  async (app: FastifyInstance, opts: ProxyOptions) => {
    const pools = new Map<ServiceName, UpstreamPool>();
    for (const [service, bases] of Object.entries(opts.upstreams) as Array<[ServiceName, string[] | undefined]>) {
      if (bases?.length) pools.set(service, new UpstreamPool(service, bases));
    }
    app.decorate('upstreams', pools);
    const callService = serviceCaller(pools, { internalToken: opts.internalToken, timeoutMs: opts.serviceCallTimeoutMs });
    app.decorate('callService', callService);
    defineMetrics(app.metrics, (m) => ({
      replicaReady: m.gauge({
        name: 'gateway_upstream_replica_ready',
        help: "1 when a service replica answered the gateway's last health check ready, 0 when not (unchecked replicas absent)",
        labelNames: ['upstream', 'replica'] as const,
        collect() {
          this.reset();
          for (const [upstream, pool] of pools) {
            for (const { replica, ready } of pool.lastChecks()) this.set({ upstream, replica }, ready ? 1 : 0);
          }
        },
      }),
    }));

    /** Byte length of each request body read (and bounded) here, sent on as a plain Content-Length. */
    const bodyLength = new WeakMap<FastifyRequest, number>();

    const rewriteRequestHeaders = (request: FastifyRequest<any, any, any>, headers: IncomingHttpHeaders): IncomingHttpHeaders => {
      const out: IncomingHttpHeaders = { ...headers };
      const length = bodyLength.get(request);
      if (length !== undefined) {
        delete out['transfer-encoding'];
        out['content-length'] = String(length);
      }
      for (const name of SPOOFABLE_HEADERS) delete out[name];
      const cookie = withoutCookie(headers.cookie, opts.adminCookieName);
      if (cookie) out.cookie = cookie;
      else delete out.cookie;
      out[INTERNAL_HEADERS.token] = opts.internalToken;
      out[INTERNAL_HEADERS.requestId] = request.id;
      out[INTERNAL_HEADERS.clientIp] = request.clientIp;
      if (request.adminSession) out[INTERNAL_HEADERS.admin] = request.adminSession.username;
      return out;
    };

    const cachedDocuments = cachedDocumentHook({ app, callService, maxAgeMs: opts.documentMaxAgeMs });
    const serveCachedDocument = cachedDocuments.hook;

    /** Which replica each request went to, so a failure can be retried elsewhere. */
    const chosen = new WeakMap<FastifyRequest, string>();
    const retried = new WeakSet<FastifyRequest>();
    /** Requests whose try timed out and whose aborted socket has not yet reported its hang-up (see isTimeout). */
    const echoDue = new WeakSet<FastifyRequest>();

    for (const [service, pool] of pools) {
      const unavailable = (reply: FastifyReply<any, any, any, any>) =>
        reply.status(502).send({
          error: { code: 'UPSTREAM_UNAVAILABLE', message: `The ${service} service is not available right now. Please try again.` },
        });
      const replyOptions: FastifyReplyFromHooks = {
        getUpstream: (request: FastifyRequest<any, any, any>) => {
          const replica = pool.pick(retried.has(request) ? chosen.get(request) : undefined);
          chosen.set(request, replica);
          return replica;
        },
        rewriteRequestHeaders,
        onError: (reply: FastifyReply<any, any, any, any>, { error }: { error: Error }): void => {
          const request = reply.request;
          if (echoDue.has(request) && isHangUp(error)) {
            echoDue.delete(request);
            return;
          }
          if (isTimeout(error)) echoDue.add(request);
          const failed = chosen.get(request);
          reply.log.warn({ err: error, service, replica: failed }, 'upstream failed');
          // A replica that refused or dropped the connection is skipped until its health check passes;
          // a request that cannot have changed anything (GET/HEAD) is tried once more on another replica.
          if (failed && isConnectionFailure(error)) pool.markUnhealthy(failed);
          if (SAFE_METHODS.has(request.method) && !retried.has(request) && isConnectionFailure(error) && pool.members.length > 1) {
            retried.add(request);
            reply.from(request.url.split('?')[0], replyOptions);
            return;
          }
          unavailable(reply);
        },
      };
      for (const prefix of ROUTE_TABLE[service]) {
        const limit = bodyLimitFor(prefix);
        await app.register(async (scope) => {
          // The body is read here in full, whatever its type, before a replica is picked: Fastify answers
          // 413 from Content-Length before reading, or as soon as a chunked body passes the limit. The
          // bytes then go on untouched (a stream, so the proxy does not re-encode JSON: webhook signatures).
          scope.removeAllContentTypeParsers();
          scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limit }, (request, body, done) => {
            const bytes = body as Buffer;
            bodyLength.set(request, bytes.length);
            done(null, Readable.from([bytes], { objectMode: false }));
          });
          const cached = prefix === '/api/map-layout' || prefix === '/api/plots';
          if (cached) scope.addHook('preHandler', serveCachedDocument);
          scope.setErrorHandler((error: FastifyError) => {
            if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
              throw new AppError('PAYLOAD_TOO_LARGE', `The request is too large: at most ${describeBytes(limit)} here.`);
            }
            throw error;
          });
          await scope.register(proxy, {
            upstream: '',
            prefix,
            rewritePrefix: prefix,
            proxyPayloads: false,
            // inlineRateLimit: the kit's synchronous hook (same store, keys, headers and 429 as `rateLimit`), since every
            // API request comes this way. writesOwnHead: answers from memory carry the security headers in their prebuilt
            // head; every other answer of these routes gets them as Fastify sends it (see the security plugin).
            config: { inlineRateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000 }, writesOwnHead: cached },
            http: { requestOptions: { timeout: opts.timeoutMs }, agentOptions: { timeout: IDLE_UPSTREAM_SOCKET_MS } },
            replyOptions,
          });
        });
      }
    }
    app.addHook('onReady', async () => {
      for (const pool of pools.values()) pool.startHealthChecks(app.log);
    });
    app.addHook('onClose', async () => {
      await Promise.all([...pools.values()].map((pool) => pool.stop()));
      cachedDocuments.stop();
      callService.close();
    });
  },
  { name: 'gateway-proxy', dependencies: ['gateway-admin-auth', 'gateway-security', 'pixel-atlas-nats', 'pixel-atlas-metrics'] },
);
