import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { clearMapResponseSchema, generateMapResponseSchema, mapLayoutResponseSchema } from '@pixel-atlas/contracts/map';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { requireAdmin } from '@pixel-atlas/service-kit/internal-auth';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clearMap } from '../domain/clear-map.ts';
import { generateMap } from '../domain/generate-map.ts';
import type { LayoutCache } from '../domain/layout-cache.ts';

export const MAP_NOT_AVAILABLE_MESSAGE = 'The map is not available right now.';

export async function mapLayoutRoutes(app: FastifyInstance, opts: { cache: LayoutCache; seed: string }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Untyped on purpose: it answers a pre-serialised Buffer or a bare 304, which the typed reply cannot express.
  app.get(
    '/api/map-layout',
    {
      schema: {
        summary: 'The whole map: every tile and the regions',
        tags: ['map'],
        response: { 200: mapLayoutResponseSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const layout = await opts.cache.get();
      if (!layout) throw new AppError('MAP_NOT_AVAILABLE', MAP_NOT_AVAILABLE_MESSAGE);
      reply.header('etag', layout.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      // A 304 has no body and must not announce one (no content-length of a serialised null).
      if (request.headers['if-none-match'] === layout.etag) return (reply as FastifyReply).status(304).send();
      const accepts = String(request.headers['accept-encoding'] ?? '');
      const [encoding, body] = /\bbr\b/.test(accepts)
        ? ['br', layout.brotli]
        : /\bgzip\b/.test(accepts)
          ? ['gzip', layout.gzip]
          : [null, layout.identity];
      if (encoding) reply.header('content-encoding', encoding);
      // A Buffer skips the per-request serialiser: the body was serialised and compressed once per layout.
      return reply.type('application/json').send(body);
    },
  );

  routes.post(
    '/api/admin/generate-map',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Generate the map (only when none exists)',
        tags: ['admin', 'map'],
        response: { 201: generateMapResponseSchema, 401: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const result = await generateMap({ db: app.db, seed: opts.seed, requestId: request.id });
      opts.cache.invalidate();
      app.outbox.kick();
      request.log.info({ admin: request.adminUser, seed: opts.seed }, 'map generated');
      return reply.status(201).send(result);
    },
  );

  routes.delete(
    '/api/admin/map-layout',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Remove all tile data',
        tags: ['admin', 'map'],
        response: { 200: clearMapResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const result = await clearMap({ db: app.db, requestId: request.id });
      opts.cache.invalidate();
      app.outbox.kick();
      request.log.info({ admin: request.adminUser }, 'map cleared');
      return result;
    },
  );
}
