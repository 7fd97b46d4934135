import { pricesResponseSchema, type PricesResponse } from '@pixel-atlas/contracts/payments';
import { encodeJson, sendEncodedJson } from '@pixel-atlas/service-kit/cached-json';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PriceTable } from '../env.ts';

/** Prices change only with the configuration, so browsers and proxies may reuse them briefly and revalidate cheaply. */
export const PRICES_CACHE_CONTROL = 'public, max-age=60, must-revalidate';

export async function pricesRoutes(app: FastifyInstance, opts: { prices: PriceTable }) {
  // Fixed for the life of the process: serialised and tagged once.
  const prices: PricesResponse = pricesResponseSchema.parse({ currency: opts.prices.currency, cents: opts.prices.cents });
  const body = await encodeJson(prices);

  // Untyped on purpose: it answers pre-serialised JSON or a bare 304, which the typed reply cannot express.
  app.get(
    '/api/prices',
    {
      schema: {
        summary: 'What a checkout charges per tier (the server-side price table; the web shows these)',
        operationId: 'getPrices',
        tags: ['payments'],
        response: { 200: pricesResponseSchema },
      },
    },
    async (request, reply: FastifyReply) => sendEncodedJson(request, reply, body, { cacheControl: PRICES_CACHE_CONTROL }),
  );
}
