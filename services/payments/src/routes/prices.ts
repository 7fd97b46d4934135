import { createHash } from 'node:crypto';
import { pricesResponseSchema, type PricesResponse } from '@pixel-atlas/contracts/payments';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PriceTable } from '../env.ts';

/** Prices change only with the configuration, so browsers and proxies may reuse them briefly and revalidate cheaply. */
export const PRICES_CACHE_CONTROL = 'public, max-age=60, must-revalidate';

export async function pricesRoutes(app: FastifyInstance, opts: { prices: PriceTable }) {
  // Fixed for the life of the process: serialised and tagged once.
  const body: PricesResponse = pricesResponseSchema.parse({ currency: opts.prices.currency, cents: opts.prices.cents });
  const json = JSON.stringify(body);
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;

  // Untyped on purpose: it answers pre-serialised JSON or a bare 304, which the typed reply cannot express.
  app.get(
    '/api/prices',
    {
      schema: {
        summary: 'What a checkout charges per tier (the server-side price table; the web shows these)',
        tags: ['payments'],
        response: { 200: pricesResponseSchema },
      },
    },
    async (request, reply: FastifyReply) => {
      reply.header('etag', etag).header('cache-control', PRICES_CACHE_CONTROL);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('application/json').send(json);
    },
  );
}
