import cookie from '@fastify/cookie';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import {
  createCheckoutSessionRequestSchema,
  createCheckoutSessionResponseSchema,
  verifySessionResponseSchema,
} from '@pixel-atlas/contracts/payments';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAppError } from '@pixel-atlas/service-kit/errors';
import { checkoutBrowser } from '../checkout-browser.ts';
import { cancelCheckoutSession } from '../domain/cancel-checkout-session.ts';
import { CANCEL_PATH, PAYMENT_START_FAILED, createCheckoutSession } from '../domain/create-checkout-session.ts';
import { sessionStepOptions } from '../domain/fulfil-checkout-session.ts';
import { verifyCheckoutSession } from '../domain/verify-checkout-session.ts';
import type { PriceTable } from '../env.ts';
import type { PaymentsMetrics } from '../metrics.ts';
import type { CheckoutProvider } from '../providers/provider.ts';
import type { PrismaClient } from '../db.ts';

export interface CheckoutRoutesOptions {
  /** The service's own client (the app's `db`). */
  db: PrismaClient;
  provider: CheckoutProvider;
  prices: PriceTable;
  siteName: string;
  holdMarginSeconds: number;
  rateLimit: { max: number; timeWindow: number };
  metrics: PaymentsMetrics;
  /** Signs the checkout cookie (one browser's checkouts apart from another's on the same address). */
  cookieSecret: string;
  /** Served over https: the checkout cookie is Secure. */
  secureCookie: boolean;
  /** Unpaid checkouts one address may hold land for at once. */
  maxHoldsPerClient: number;
}

export async function checkoutRoutes(app: FastifyInstance, opts: CheckoutRoutesOptions) {
  await app.register(cookie, { secret: opts.cookieSecret });
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/create-checkout-session',
    {
      config: { rateLimit: opts.rateLimit },
      schema: {
        summary:
          "Hold the footprint and start a checkout for one plot (price from the server-side tier table). The checkout belongs to this browser (the signed pa_checkout cookie, set on first use): it replaces only this browser's own unpaid checkout. held: false when too much land is held right now: the checkout goes on without a hold",
        operationId: 'createCheckoutSession',
        tags: ['payments'],
        body: createCheckoutSessionRequestSchema,
        response: {
          200: createCheckoutSessionResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      try {
        return await createCheckoutSession({
          db: opts.db,
          bus: app.bus,
          provider: opts.provider,
          prices: opts.prices,
          siteName: opts.siteName,
          holdMarginSeconds: opts.holdMarginSeconds,
          request: request.body,
          clientIp: request.clientIp || null,
          browserHash: checkoutBrowser(request, reply, opts.secureCookie),
          maxHoldsPerClient: opts.maxHoldsPerClient,
          requestId: request.id,
          log: request.log,
          metrics: opts.metrics,
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
    CANCEL_PATH,
    {
      schema: {
        summary:
          "The checkout's cancel URL (Stripe's cancel_url, the test checkout's Cancel): ends the unpaid session, frees the held spot at once, and sends the buyer back to the map (303). A paid session is never touched.",
        operationId: 'cancelCheckout',
        tags: ['payments'],
        querystring: z.object({ session_id: z.string().min(1).max(255).optional() }),
        response: {
          303: z.null().describe('To /?checkout=cancelled&tier=&x=&y= (or /claim?session_id= when the session was paid)'),
          400: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const sessionId = request.query.session_id;
      let to = '/?checkout=cancelled';
      if (sessionId) {
        try {
          const outcome = await cancelCheckoutSession({ ...sessionStepOptions(opts, request, sessionId), bus: app.bus, reason: 'buyer' });
          app.outbox.kick();
          if (outcome.state === 'kept') {
            // Paid before the cancel arrived: the buyer's plot is waiting to be claimed.
            to = `/claim?session_id=${encodeURIComponent(sessionId)}`;
          } else if (outcome.state !== 'unknown') {
            const { tier, x, y } = outcome.payment;
            to = `/?${new URLSearchParams({ checkout: 'cancelled', tier, x: String(x), y: String(y) })}`;
          }
        } catch (error) {
          // The provider could not be reached: the hold still ends with the session; the buyer gets the map back.
          request.log.warn({ err: error, sessionId }, 'could not cancel the checkout session now');
        }
      }
      return reply.header('cache-control', 'no-store').redirect(to, 303);
    },
  );

  routes.get(
    '/api/verify-session/:sessionId',
    {
      schema: {
        summary: 'Whether a checkout session is paid (fulfils it on the way if the provider says so)',
        operationId: 'verifyCheckoutSession',
        tags: ['payments'],
        params: z.object({ sessionId: z.string().min(1).max(255) }),
        response: { 200: verifySessionResponseSchema, 400: errorBodySchema, 404: errorBodySchema, 502: errorBodySchema },
      },
    },
    async (request) => {
      const result = await verifyCheckoutSession(sessionStepOptions(opts, request, request.params.sessionId));
      app.outbox.kick();
      return result;
    },
  );
}
