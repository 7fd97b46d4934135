import swaggerUi from '@fastify/swagger-ui';
import { clientKey, ipv6PrefixFromEnv } from '@pixel-atlas/service-kit/client-key';
import { mergeOpenApi, type OpenApiDocument as OpenApiDoc } from '@pixel-atlas/service-kit/openapi';
import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { DocumentDraft } from '../domain/rendered-document-cache.ts';

export interface ApiDocsOptions {
  siteName: string;
  /** Document requests (`/api/openapi.json`, `/api/docs/json`, `/api/docs/yaml`) per client per minute, together. */
  rateLimitPerMinute?: number;
  /** How long a merged document is served before the services are asked again (a deploy changes them). */
  maxAgeMs?: number;
  /** How often the replicas behind the gateway are compared with those the document was merged from. */
  replicaCheckMs?: number;
}

/** A developer reads the reference a few times a minute; a flood of them is what this limit is for. */
export const API_DOCS_RATE_LIMIT_PER_MINUTE = 30;
/** Services' documents change only when one is deployed (a new replica set): five minutes bounds a missed change. */
export const API_DOCS_MAX_AGE_MS = 5 * 60_000;
/** A merge that missed a service (down, slow) is tried again soon, so the reference is whole again once it is back. */
const INCOMPLETE_MAX_AGE_MS = 5_000;
const DOCUMENT_KEY = 'api:openapi.json';
/** Bumped when the replica set changes: a deploy, so maybe new documents. */
const REPLICAS_TAG = 'replicas';

/**
 * The public API reference, merged from the gateway's own document and every service's `/openapi.json`. Merging
 * asks five services and walks every schema (about 33 ms of CPU across the processes), so it is built once per change
 * in the rendered-document cache (compressed once, ETag and 304; a crowd arriving together waits on one build) and
 * rebuilt when the services' replicas change or after `maxAgeMs`. The anonymous document requests are limited per
 * client (the kit's rate limit, keyed by `clientKey`: IPv6 by /64).
 */
export const apiDocsPlugin = fp(
  async (app: FastifyInstance, opts: ApiDocsOptions) => {
    const documents = app.renderedDocuments;
    const maxAgeMs = opts.maxAgeMs ?? API_DOCS_MAX_AGE_MS;
    /** The last merge, for swagger-ui's YAML (it converts the object it is given). */
    let current: OpenApiDoc | null = null;

    const build = async (): Promise<DocumentDraft> => {
      const docs = await Promise.all(
        [...app.upstreams.keys()].map(async (service) => {
          try {
            const { response } = await app.callService(service, { path: '/openapi.json' });
            return response.ok ? ((await response.json()) as OpenApiDoc) : null;
          } catch {
            return null;
          }
        }),
      );
      const found = docs.filter((d): d is OpenApiDoc => d !== null);
      const doc = mergeOpenApi([app.swagger() as unknown as OpenApiDoc, ...found], `${opts.siteName} API`);
      current = doc;
      return {
        status: 200,
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify(doc),
        // Revalidated on every use: a 304 costs nothing here, and a deploy shows at once.
        cacheControl: 'no-cache',
        keepMs: found.length === docs.length ? maxAgeMs : INCOMPLETE_MAX_AGE_MS,
      };
    };
    const recipe = { tags: [REPLICAS_TAG], build };
    const serveDocument = (request: FastifyRequest, reply: FastifyReply) => documents.serve(request, reply, DOCUMENT_KEY, recipe);

    // The pools re-resolve their services' names: a changed replica set is a deploy, and the document is merged again.
    const replicaSet = () => [...app.upstreams].map(([name, pool]) => `${name}=${pool.members.join(',')}`).join(';');
    let replicas = replicaSet();
    const watch = new PollingWorker({
      name: 'API reference replica watch',
      log: app.log,
      pollIntervalMs: opts.replicaCheckMs ?? 2000,
      waitBeforeFirstRound: true,
      tick: async () => {
        const now = replicaSet();
        if (now !== replicas) documents.cache.invalidate(REPLICAS_TAG);
        replicas = now;
        return 0;
      },
    });
    app.addHook('onReady', async () => watch.start());
    app.addHook('onClose', async () => watch.stop());

    const ipv6Prefix = ipv6PrefixFromEnv();
    // One budget for the three document URLs together (the key's prefix keeps it apart from every other limit).
    const limit = app.rateLimit({
      max: opts.rateLimitPerMinute ?? API_DOCS_RATE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `api-docs|${clientKey(request.clientIp || request.ip, ipv6Prefix)}`,
    });
    const isDocument = (url: string) => /^\/api\/docs\/(json|yaml)(\?|$)/.test(url);
    const isJson = (url: string) => /^\/api\/docs\/json(\?|$)/.test(url);

    app.get('/api/openapi.json', { schema: { hide: true }, onRequest: limit, config: { writesOwnHead: true } }, async (request, reply) => {
      await serveDocument(request, reply);
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      // swagger-ui asks synchronously: the preHandler below has the merged document ready for /yaml.
      transformSpecification: (own) => current ?? (own as object),
      transformSpecificationClone: false,
      uiHooks: {
        // Callback style (swagger-ui's types): a rejection, the 429 included, goes to the error handler through done.
        // /json is the same document as /api/openapi.json: answered here from the cache (done is then not called).
        onRequest: function (request, reply, done) {
          if (!isDocument(request.url)) return done();
          limit.call(this, request, reply).then(() => {
            if (!isJson(request.url)) return done();
            serveDocument(request, reply).catch(done);
          }, done);
        },
        preHandler: (request, _reply, done) => {
          if (!isDocument(request.url)) return done();
          documents.cache.get(DOCUMENT_KEY, recipe).then(() => done(), done);
        },
      },
    });
  },
  { name: 'gateway-api-docs', dependencies: ['gateway-proxy', 'gateway-rendered-documents'] },
);
