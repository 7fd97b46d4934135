import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { mergeOpenApi, type OpenApiDocument as OpenApiDoc } from '@pixel-atlas/service-kit/openapi';

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
      cached = mergeOpenApi(
        [app.swagger() as unknown as OpenApiDoc, ...docs.filter((d): d is OpenApiDoc => d !== null)],
        `${opts.siteName} API`,
      );
      return cached;
    };
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => refresh());
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      // swagger-ui asks synchronously; serve the last merged document (refreshed on every /api/openapi.json).
      transformSpecification: (own) => cached ?? (own as object),
      transformSpecificationClone: false,
    });
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.url === '/api/docs' || request.url.startsWith('/api/docs/json')) refresh().then(() => done(), done);
      else done();
    });
  },
  { name: 'gateway-api-docs', dependencies: ['gateway-proxy'] },
);
