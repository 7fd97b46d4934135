import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { reservedFootprintListSchema } from '@pixel-atlas/contracts/plots';
import { encodeOncePerDocument, sendEncodedJson } from '@pixel-atlas/service-kit/cached-json';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ReservedFootprintsCache } from '../reserved-footprints-cache.ts';

export async function reservedFootprintRoutes(app: FastifyInstance, opts: { cache: ReservedFootprintsCache }) {
  const encode = encodeOncePerDocument();
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/reserved-footprints',
    {
      schema: {
        summary:
          'Land reserved although no visible plot stands there: checkout holds (held) and plots under review (review). Position, size and reason only',
        operationId: 'listReservedFootprints',
        tags: ['plots'],
        response: { 200: reservedFootprintListSchema, 500: errorBodySchema },
      },
    },
    async (request, reply) => {
      // Revalidated every time (a poll right after a live plot change must not get the old list), and
      // cheaply: the replica keeps the list for a moment, encoded once, and its ETag makes a repeat a 304.
      return sendEncodedJson(request, reply, await encode(await opts.cache.get()), { cacheControl: 'no-cache' });
    },
  );
}
