import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type OpenApiDoc = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
  tags?: Array<{ name: string }>;
};

/** Joins the gateway's document with every service's `/openapi.json` into one API reference. */
export function mergeOpenApi(own: OpenApiDoc, others: OpenApiDoc[], title: string): OpenApiDoc {
  const merged: OpenApiDoc = {
    openapi: own.openapi,
    info: { title, version: '1.0.0', description: 'Every public endpoint of the site, as served through the gateway.' },
    paths: { ...own.paths },
    components: { schemas: { ...(own.components?.schemas ?? {}) } },
  };
  for (const doc of others) {
    Object.assign(merged.paths, doc.paths);
    Object.assign(merged.components!.schemas!, doc.components?.schemas ?? {});
  }
  return merged;
}

export const apiDocsPlugin = fp(
  async (app: FastifyInstance, opts: { siteName: string }) => {
    let cached: OpenApiDoc | null = null;
    const refresh = async (): Promise<OpenApiDoc> => {
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
      cached = mergeOpenApi(app.swagger() as unknown as OpenApiDoc, docs.filter((d): d is OpenApiDoc => d !== null), `${opts.siteName} API`);
      return cached;
    };
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => refresh());
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      // swagger-ui asks synchronously; serve the last merged document (refreshed on every /api/openapi.json).
      transformSpecification: (own) => cached ?? (own as object),
      transformSpecificationClone: false,
    });
    app.addHook('onRequest', async (request) => {
      if (request.url === '/api/docs' || request.url.startsWith('/api/docs/json')) await refresh();
    });
  },
  { name: 'gateway-api-docs', dependencies: ['gateway-proxy'] },
);
