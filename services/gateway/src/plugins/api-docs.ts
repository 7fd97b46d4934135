import swaggerUi from '@fastify/swagger-ui';
import { clientKey, ipv6PrefixFromEnv } from '@pixel-atlas/service-kit/client-key';
import { mergeOpenApi, type OpenApiDocument as OpenApiDoc } from '@pixel-atlas/service-kit/openapi';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export interface ApiDocsOptions {
  siteName: string;
  /** Document requests (`/api/openapi.json`, `/api/docs/json`, `/api/docs/yaml`) per client per minute, together. */
  rateLimitPerMinute?: number;
  /** How long a merged document is served from memory before the services are asked again. */
  maxAgeMs?: number;
  now?: () => number;
}

/** A developer reads the reference a few times a minute; a flood of them is what this limit is for. */
export const API_DOCS_RATE_LIMIT_PER_MINUTE = 30;
/** Services' documents change only when one is deployed: a minute's delay is fine, and costs one merge a minute. */
export const API_DOCS_MAX_AGE_MS = 60_000;
/** A merge that missed a service (down, slow) is tried again soon, so the reference is whole again once it is back. */
const INCOMPLETE_MAX_AGE_MS = 5_000;

interface MergedDocument {
  doc: OpenApiDoc;
  /** Serialised once: `/api/openapi.json` sends these bytes as they are. */
  json: string;
  builtAt: number;
  complete: boolean;
}

/**
 * The public API reference, merged from the gateway's own document and every service's `/openapi.json`. Merging
 * asks five services and walks every schema (about 33 ms of CPU across the processes), so it is built once and
 * served from memory for `maxAgeMs` (a crowd arriving together waits on one build), and the anonymous document
 * requests are limited per client (the kit's rate limit, keyed by `clientKey`: IPv6 by /64).
 */
export const apiDocsPlugin = fp(
  async (app: FastifyInstance, opts: ApiDocsOptions) => {
    const now = opts.now ?? Date.now;
    const maxAgeMs = opts.maxAgeMs ?? API_DOCS_MAX_AGE_MS;
    let current: MergedDocument | null = null;
    let building: Promise<MergedDocument> | null = null;

    const build = async (): Promise<MergedDocument> => {
      const docs = await Promise.all(
        [...app.upstreams.values()].map(async (pool) => {
          try {
            const response = await fetch(`${pool.pick()}/openapi.json`, { signal: AbortSignal.timeout(3000) });
            return response.ok ? ((await response.json()) as OpenApiDoc) : null;
          } catch {
            return null;
          }
        }),
      );
      const found = docs.filter((d): d is OpenApiDoc => d !== null);
      const doc = mergeOpenApi([app.swagger() as unknown as OpenApiDoc, ...found], `${opts.siteName} API`);
      current = { doc, json: JSON.stringify(doc), builtAt: now(), complete: found.length === docs.length };
      return current;
    };
    const merged = (): Promise<MergedDocument> => {
      if (current && now() - current.builtAt < (current.complete ? maxAgeMs : INCOMPLETE_MAX_AGE_MS)) return Promise.resolve(current);
      building ??= build().finally(() => {
        building = null;
      });
      return building;
    };

    const ipv6Prefix = ipv6PrefixFromEnv();
    // One budget for the three document URLs together (the key's prefix keeps it apart from every other limit).
    const limit = app.rateLimit({
      max: opts.rateLimitPerMinute ?? API_DOCS_RATE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `api-docs|${clientKey(request.clientIp || request.ip, ipv6Prefix)}`,
    });
    const isDocument = (url: string) => /^\/api\/docs\/(json|yaml)(\?|$)/.test(url);

    app.get('/api/openapi.json', { schema: { hide: true }, onRequest: limit }, async (_request, reply: FastifyReply) =>
      reply.type('application/json; charset=utf-8').send((await merged()).json),
    );
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      // swagger-ui asks synchronously: the preHandler below has the merged document ready for /json and /yaml.
      transformSpecification: (own) => current?.doc ?? (own as object),
      transformSpecificationClone: false,
      uiHooks: {
        // Callback style (swagger-ui's types): a rejection, the 429 included, goes to the error handler through done.
        onRequest: function (request, reply, done) {
          if (!isDocument(request.url)) return done();
          limit.call(this, request, reply).then(() => done(), done);
        },
        preHandler: (request, _reply, done) => {
          if (!isDocument(request.url)) return done();
          merged().then(() => done(), done);
        },
      },
    });
  },
  { name: 'gateway-api-docs', dependencies: ['gateway-proxy'] },
);
