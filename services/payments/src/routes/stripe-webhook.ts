import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import { fulfilCheckoutSession } from '../domain/fulfil-checkout-session.ts';
import type { PaymentsMetrics } from '../metrics.ts';
import type { CheckoutProvider } from '../providers/provider.ts';
import type { PrismaClient } from '../db.ts';

/** Notices that can change a checkout session's fate; fulfilment then asks Stripe for the current state. */
const HANDLED = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.expired']);

export interface StripeWebhookOptions {
  /** The service's own client (the app's `db`). */
  db: PrismaClient;
  stripe: Stripe | null;
  webhookSecret: string | null;
  provider: CheckoutProvider;
  metrics: PaymentsMetrics;
}

/**
 * POST /api/payments/stripe-webhook. Registered in its own scope: here, and only here, JSON bodies stay raw
 * bytes, because the signature covers the exact bytes Stripe sent.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, opts: StripeWebhookOptions) {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

  app.post(
    '/api/payments/stripe-webhook',
    {
      schema: {
        summary: 'Stripe webhook (signed): checkout.session.completed / async_payment_succeeded / expired',
        operationId: 'receiveStripeWebhook',
        tags: ['payments'],
        response: { 200: z.object({ received: z.literal(true), ignored: z.boolean() }), 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      if (!opts.stripe || !opts.webhookSecret) throw new AppError('NOT_FOUND', 'Stripe is not configured on this deployment');
      const signature = request.headers['stripe-signature'];
      if (!Buffer.isBuffer(request.body) || typeof signature !== 'string') {
        throw new AppError('BAD_REQUEST', 'Missing webhook body or Stripe-Signature header');
      }
      let event: Stripe.Event;
      try {
        event = opts.stripe.webhooks.constructEvent(request.body, signature, opts.webhookSecret);
      } catch (error) {
        request.log.warn({ err: error }, 'webhook signature check failed');
        throw new AppError('BAD_REQUEST', 'Webhook signature verification failed');
      }
      if (!HANDLED.has(event.type)) return { received: true as const, ignored: true };
      const sessionId = (event.data.object as { id?: unknown }).id;
      if (typeof sessionId !== 'string') throw new AppError('BAD_REQUEST', 'Webhook event without a checkout session id');
      const outcome = await fulfilCheckoutSession({
        db: opts.db,
        provider: opts.provider,
        sessionId,
        log: request.log.child({ stripeEvent: event.id, stripeEventType: event.type }),
        metrics: opts.metrics,
        requestId: request.id,
      });
      app.outbox.kick();
      request.log.info({ stripeEvent: event.id, type: event.type, sessionId, outcome: outcome.state }, 'webhook handled');
      return { received: true as const, ignored: outcome.state === 'unknown' };
    },
  );
}
