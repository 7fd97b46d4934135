import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { createCheckoutSessionRequestSchema, createCheckoutSessionResponseSchema, verifySessionResponseSchema } from '@pixel-atlas/contracts/payments';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAppError } from '@pixel-atlas/service-kit/errors';
import { PAYMENT_START_FAILED, createCheckoutSession } from '../domain/create-checkout-session.ts';
import { verifyCheckoutSession } from '../domain/verify-checkout-session.ts';
import type { PriceTable } from '../env.ts';
import type { CheckoutProvider } from '../providers/provider.ts';

export interface CheckoutRoutesOptions {
  provider: CheckoutProvider;
  prices: PriceTable;
  siteName: string;
  holdMarginSeconds: number;
  rateLimit: { max: number; timeWindow: number };
}

export async function checkoutRoutes(app: FastifyInstance, opts: CheckoutRoutesOptions) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/create-checkout-session',
    {
      config: { rateLimit: opts.rateLimit },
      schema: {
        summary: 'Hold the footprint and start a checkout for one plot (price from the server-side tier table)',
        tags: ['payments'],
        body: createCheckoutSessionRequestSchema,
        response: {
          200: createCheckoutSessionResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      try {
        return await createCheckoutSession({
          db: app.db,
          bus: app.bus,
          provider: opts.provider,
          prices: opts.prices,
          siteName: opts.siteName,
          holdMarginSeconds: opts.holdMarginSeconds,
          request: request.body,
          log: request.log,
          metrics: app.paymentsMetrics,
        });
      } catch (error) {
        // The one 5xx whose text is meant for people (spec section 8, 'Payment Error'): the error handler
        // masks every 5xx message, so this one is answered here. The cause was logged where it happened.
        if (isAppError(error) && error.message === PAYMENT_START_FAILED) {
          return reply.status(502).send({ error: { code: 'UPSTREAM_UNAVAILABLE', message: PAYMENT_START_FAILED } });
        }
        throw error;
      }
    },
  );

  routes.get(
    '/api/verify-session/:sessionId',
    {
      schema: {
        summary: 'Whether a checkout session is paid (fulfils it on the way if the provider says so)',
        tags: ['payments'],
        params: z.object({ sessionId: z.string().min(1).max(255) }),
        response: { 200: verifySessionResponseSchema, 404: errorBodySchema, 502: errorBodySchema },
      },
    },
    async (request) => {
      const result = await verifyCheckoutSession({
        db: app.db,
        provider: opts.provider,
        sessionId: request.params.sessionId,
        log: request.log,
        metrics: app.paymentsMetrics,
        requestId: request.id,
      });
      app.outbox.kick();
      return result;
    },
  );
}
