import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerOptions } from 'node:http';
import swagger from '@fastify/swagger';
import rateLimit from '@fastify/rate-limit';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { AppError, errorHandlerPlugin } from './errors.ts';
import { healthPlugin } from './health.ts';
import { hasInternalToken, internalAuthPlugin } from './internal-auth.ts';
import { metricsPlugin } from './metrics.ts';
import { API_SECURITY_SCHEMES } from './openapi.ts';
import type { SqlClient } from './database.ts';
import { clientKey, ipv6PrefixFromEnv } from './client-key.ts';
import { inlineRateLimitHook, pgRateLimitStore, replicaRateLimitHook, type RateLimitRefusal } from './rate-limit-store.ts';
import { withRouteHook } from './route-hooks.ts';

export type ServiceApp = FastifyInstance & { withTypeProvider<T = ZodTypeProvider>(): FastifyInstance };

export interface CreateServiceAppOptions {
  /** Service name: labels logs and metrics, titles the OpenAPI document. */
  name: string;
  internalToken: string;
  logLevel?: string;
  description?: string;
  /**
   * The gateway mints request ids; services adopt the gateway's id only when the internal token
   * vouches for it, so nobody outside can inject ids into our logs.
   */
  trustRequestIdFrom: 'gateway' | 'nobody';
  fastify?: Partial<FastifyServerOptions>;
  /** false when the service answers unknown paths itself (the gateway serves the SPA there). */
  jsonNotFound?: boolean;
  /**
   * true for a port that faces the internet (the gateway's): it then serves no `/metrics` and a `/readyz`
   * without check details; both stay on the operations port (`METRICS_PORT`, see server.ts).
   */
  publicPort?: boolean;
  /**
   * The service's own PostgreSQL schema: per-client rate limits are counted in its `rate_limit_hits` table
   * through `app.db` (shared by every replica). Without it they are counted in this process's memory.
   */
  databaseSchema?: string;
  /** Where the JSON log lines go (stdout when omitted); tests read them here. */
  logStream?: { write(line: string): unknown };
  /** Timeouts and keep-alive bounds of the service's own port (the env's HTTP_* keys); the kit's defaults when omitted. */
  listener?: Partial<ListenerSettings>;
}

/** The env keys (see `baseEnvShape`) that bound how long one connection may hold the service's port. */
export interface ListenerSettings {
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
  HTTP_IDLE_TIMEOUT_MS: number;
  HTTP_MAX_REQUESTS_PER_SOCKET: number;
  HTTP_TIMEOUT_CHECK_MS: number;
}

export const DEFAULT_LISTENER_SETTINGS: ListenerSettings = {
  HTTP_HEADERS_TIMEOUT_MS: 10_000,
  HTTP_REQUEST_TIMEOUT_MS: 60_000,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 5_000,
  HTTP_IDLE_TIMEOUT_MS: 120_000,
  HTTP_MAX_REQUESTS_PER_SOCKET: 1000,
  HTTP_TIMEOUT_CHECK_MS: 1000,
};

/**
 * Fastify's and Node's server options for the settings. Fastify's own defaults leave a request unbounded
 * (`requestTimeout: 0`): a client sending its body one byte at a time held a socket for as long as it liked. Node checks
 * the header and request deadlines every `connectionsCheckingInterval` (30 s by default), so a stalled request is
 * closed within HTTP_TIMEOUT_CHECK_MS of its deadline instead. The header deadline cannot exceed the request's (Node
 * refuses to start).
 */
export function listenerOptions(settings: Partial<ListenerSettings> = {}): Partial<FastifyServerOptions> & { http: ServerOptions } {
  const s = { ...DEFAULT_LISTENER_SETTINGS, ...settings };
  const headersTimeout = Math.min(s.HTTP_HEADERS_TIMEOUT_MS, s.HTTP_REQUEST_TIMEOUT_MS);
  return {
    requestTimeout: s.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: s.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    connectionTimeout: s.HTTP_IDLE_TIMEOUT_MS,
    maxRequestsPerSocket: s.HTTP_MAX_REQUESTS_PER_SOCKET,
    http: {
      headersTimeout,
      requestTimeout: s.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: s.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: s.HTTP_TIMEOUT_CHECK_MS,
    },
  };
}

const MAX_REQUEST_ID_LENGTH = 100;

/**
 * Paths whose next segment is a bearer secret: an owner's private link (`/manage/<token>`, `/api/manage/<token>`).
 * Logs keep the route's shape, never the token.
 */
const SECRET_PATH_SEGMENT = /(\/manage\/)[^/?#]+/gi;
export function redactSecretPaths(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PATH_SEGMENT, '$1[redacted]');
}

/** Fastify's request log fields, with the URL's secrets redacted. */
function serializeRequest(request: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: request.method,
    url: redactSecretPaths(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Asked every few seconds by the gateway, orchestrators and Prometheus. */
const PROBE_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Request lines of probes go out at debug, so the info log tells what happened rather than who asked
 * whether the service is up. A failing probe still logs its error.
 */
class ProbesAtDebugLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!isProbe(request)) return super.incomingRequest(request, reply, metadata);
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error || !isProbe(request)) return super.requestCompleted(error, request, reply, metadata);
    if (!this.isLogDisabled(request)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

function isProbe(request: FastifyRequest): boolean {
  return request.routeOptions.url !== undefined && PROBE_ROUTES.has(request.routeOptions.url);
}

export function requestIdGenerator(internalToken: string, trust: 'gateway' | 'nobody') {
  return (req: IncomingMessage): string => {
    const presented = req.headers[INTERNAL_HEADERS.requestId];
    if (
      trust === 'gateway' &&
      typeof presented === 'string' &&
      presented.length > 0 &&
      presented.length <= MAX_REQUEST_ID_LENGTH &&
      hasInternalToken(req.headers, internalToken)
    ) {
      return presented;
    }
    return randomUUID();
  };
}

/**
 * The one way to make a service: Fastify with JSON logs carrying the request id, zod validation and
 * serialisation, an OpenAPI document at /openapi.json, the error shape, metrics, health and rate limits.
 * Service plugins are registered on the returned instance.
 */
export async function createServiceApp(options: CreateServiceAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      base: { service: options.name },
      redact: { paths: ['req.headers.cookie', 'req.headers.authorization', `req.headers["${INTERNAL_HEADERS.token}"]`], remove: true },
      // `source`: the upstream path @fastify/reply-from logs for every proxied request (the gateway's).
      serializers: {
        req: serializeRequest,
        source: (source: unknown) => (typeof source === 'string' ? redactSecretPaths(source) : source),
      },
      ...(options.logStream && { stream: options.logStream }),
    },
    genReqId: requestIdGenerator(options.internalToken, options.trustRequestIdFrom),
    requestIdHeader: false,
    logController: new ProbesAtDebugLogController({ requestIdLogLabel: 'requestId' }),
    trustProxy: false,
    bodyLimit: 2 * 1024 * 1024,
    forceCloseConnections: 'idle',
    ...listenerOptions(options.listener),
    ...options.fastify,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(INTERNAL_HEADERS.requestId, request.id);
    done(null, payload);
  });

  await app.register(errorHandlerPlugin, { jsonNotFound: options.jsonNotFound });
  await app.register(internalAuthPlugin, { internalToken: options.internalToken });
  await app.register(metricsPlugin, { service: options.name, exposeOnMainPort: !options.publicPort });
  await app.register(healthPlugin, { detailed: !options.publicPort });
  const databaseSchema = options.databaseSchema;
  const Store =
    databaseSchema &&
    pgRateLimitStore({
      // The database plugin registers after this one and decorates `app.db`: looked up per request.
      sql: () => (app.hasDecorator('db') ? { client: app.getDecorator<SqlClient>('db'), schema: databaseSchema } : undefined),
      log: app.log,
      metrics: app.metrics,
    });
  const ipv6Prefix = ipv6PrefixFromEnv();
  const keyGenerator = (request: FastifyRequest) => clientKey(request.clientIp || request.ip, ipv6Prefix);
  const errorResponseBuilder = (_request: FastifyRequest, context: RateLimitRefusal) =>
    new AppError('RATE_LIMITED', `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`);
  // Added before @fastify/rate-limit's own onRoute hook, so a route left to it (no store in PostgreSQL) is seen there.
  const rootStore = Store ? new Store({}) : undefined;
  app.addHook('onRoute', (route) => {
    const limit = route.config?.inlineRateLimit;
    if (!limit) return;
    if (limit.countedIn === 'replica') {
      route.onRequest = withRouteHook(route.onRequest, replicaRateLimitHook(limit, { keyGenerator, errorResponseBuilder }));
      return;
    }
    if (!rootStore) {
      // Counted in memory: the plugin's store has no synchronous path to offer.
      route.config = { ...route.config, rateLimit: limit };
      return;
    }
    // The child the plugin would make for this route (same key prefix: the route's methods and URL).
    const store = rootStore.child({ routeInfo: route, continueExceeding: false });
    const hook = inlineRateLimitHook(store, limit, { keyGenerator, errorResponseBuilder });
    route.onRequest = withRouteHook(route.onRequest, hook);
  });
  await app.register(rateLimit, {
    global: false,
    ...(Store && { store: Store }),
    keyGenerator,
    errorResponseBuilder,
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `${options.name} service`, description: options.description, version: '1.0.0' },
      components: { securitySchemes: API_SECURITY_SCHEMES },
    },
    // Routes without tags (the gateway's proxy routes, health, metrics) stay out of the API reference.
    hideUntagged: true,
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
