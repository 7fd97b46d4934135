import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { reservedFootprintListSchema } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ReservedFootprintsCache } from '../reserved-footprints-cache.ts';

export async function reservedFootprintRoutes(app: FastifyInstance, opts: { cache: ReservedFootprintsCache }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/reserved-footprints',
    {
      schema: {
        summary: 'Land reserved although no visible plot stands there: checkout holds (held) and plots under review (review). Position, size and reason only',
        tags: ['plots'],
        response: { 200: reservedFootprintListSchema, 500: errorBodySchema },
      },
    },
    async (_request, reply) => {
      // Revalidated every time (a poll right after a live plot change must not get the old list), and
      // cheaply: the replica keeps the list for a moment, and the ETag (@fastify/etag) makes a repeat a 304.
      reply.header('cache-control', 'no-cache');
      return opts.cache.get();
    },
  );
}
