import proxy from '@fastify/http-proxy';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ROUTE_TABLE, UpstreamPool, type ServiceName } from '../upstreams.ts';

declare module 'fastify' {
  interface FastifyInstance {
    upstreams: Map<ServiceName, UpstreamPool>;
  }
}

export interface ProxyOptions {
  upstreams: Partial<Record<ServiceName, string[]>>;
  internalToken: string;
  adminCookieName: string;
  rateLimitPerMinute: number;
  timeoutMs: number;
}

const SPOOFABLE_HEADERS = Object.values(INTERNAL_HEADERS);

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

    const rewriteRequestHeaders = (request: FastifyRequest<any, any, any>, headers: IncomingHttpHeaders): IncomingHttpHeaders => {
      const out: IncomingHttpHeaders = { ...headers };
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

    for (const [service, pool] of pools) {
      for (const prefix of ROUTE_TABLE[service]) {
        await app.register(proxy, {
          upstream: '',
          prefix,
          rewritePrefix: prefix,
          config: { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000 } },
          http: { requestOptions: { timeout: opts.timeoutMs } },
          replyOptions: {
            getUpstream: () => pool.pick(),
            rewriteRequestHeaders,
            onError: (reply, { error }) => {
              reply.log.warn({ err: error, service }, 'upstream failed');
              reply.status(502).send({
                error: { code: 'UPSTREAM_UNAVAILABLE', message: `The ${service} service is not available right now. Please try again.` },
              });
            },
          },
        });
      }
    }
    app.addHook('onReady', async () => {
      for (const pool of pools.values()) pool.startHealthChecks();
    });
    app.addHook('onClose', async () => {
      for (const pool of pools.values()) pool.stop();
    });
  },
  { name: 'gateway-proxy', dependencies: ['gateway-admin-auth'] },
);
