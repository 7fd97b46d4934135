import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { clearMapResponseSchema, generateMapResponseSchema, mapLayoutResponseSchema } from '@pixel-atlas/contracts/map';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { requireAdmin } from '@pixel-atlas/service-kit/internal-auth';
import { ADMIN_SESSION_SECURITY } from '@pixel-atlas/service-kit/openapi';
import { sendEncodedJson } from '@pixel-atlas/service-kit/cached-json';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clearMap } from '../domain/clear-map.ts';
import { generateMap } from '../domain/generate-map.ts';
import type { LayoutCache } from '../domain/layout-cache.ts';
import type { PrismaClient } from '../db.ts';

export const MAP_NOT_AVAILABLE_MESSAGE = 'The map is not available right now.';

export async function mapLayoutRoutes(app: FastifyInstance, opts: { db: PrismaClient; cache: LayoutCache; seed: string }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Untyped on purpose: it answers a pre-serialised Buffer or a bare 304, which the typed reply cannot express.
  app.get(
    '/api/map-layout',
    {
      schema: {
        summary: 'The whole map: every tile and the regions',
        operationId: 'getMapLayout',
        tags: ['map'],
        response: { 200: mapLayoutResponseSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const layout = await opts.cache.get();
      if (!layout) throw new AppError('MAP_NOT_AVAILABLE', MAP_NOT_AVAILABLE_MESSAGE);
      return sendEncodedJson(request, reply, layout.body, { cacheControl: 'no-cache' });
    },
  );

  routes.post(
    '/api/admin/generate-map',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Generate the map (only when none exists)',
        operationId: 'generateMap',
        tags: ['admin', 'map'],
        security: ADMIN_SESSION_SECURITY,
        response: { 201: generateMapResponseSchema, 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const result = await generateMap({ db: opts.db, seed: opts.seed, requestId: request.id });
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
        operationId: 'clearMap',
        tags: ['admin', 'map'],
        security: ADMIN_SESSION_SECURITY,
        response: { 200: clearMapResponseSchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const result = await clearMap({ db: opts.db, requestId: request.id });
      opts.cache.invalidate();
      app.outbox.kick();
      request.log.info({ admin: request.adminUser }, 'map cleared');
      return result;
    },
  );
}
