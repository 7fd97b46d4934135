import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionStepOptions } from '../domain/fulfil-checkout-session.ts';
import { payTestCheckout } from '../domain/pay-test-checkout.ts';
import type { PaymentsMetrics } from '../metrics.ts';
import { TEST_CHECKOUT_PATH, type TestCheckoutProvider } from '../providers/test-checkout-provider.ts';
import { TEST_CHECKOUT_CSP, renderTestCheckoutExpired, renderTestCheckoutNotFound, renderTestCheckoutPage } from './test-checkout-page.ts';
import type { PrismaClient } from '../db.ts';

const params = z.object({ sessionId: z.string().min(1).max(255) });
/** The pay form: the receipt address, optional like a Stripe field left for later (Stripe itself requires one). */
// nullish: a POST with no body at all (a script, the e2e helpers) reaches the schema as null.
const payFormSchema = z.object({ email: z.string().max(254).optional() }).nullish();
const receiptEmailSchema = z.email().max(254);
const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';
const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', TEST_CHECKOUT_CSP)
    .header('x-robots-tag', 'noindex')
    .send(body);
}

/**
 * The built-in test checkout (only registered without STRIPE_SECRET_KEY, never in production): an order
 * page clearly marked as test mode and a plain form that "pays" and sends the buyer to /claim.
 */
export async function testCheckoutRoutes(
  app: FastifyInstance,
  opts: { db: PrismaClient; provider: TestCheckoutProvider; siteName: string; metrics: PaymentsMetrics },
) {
  // The pay form posts one urlencoded field, the receipt address (optional): parsed in this scope only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    `${TEST_CHECKOUT_PATH}/:sessionId`,
    {
      schema: {
        summary: 'Test checkout page (TEST MODE, no real money)',
        operationId: 'showTestCheckout',
        tags: ['payments'],
        params,
        response: { 200: page('The order page'), 400: errorBodySchema, 404: page('No such session') },
      },
    },
    async (request, reply) => {
      const session = await opts.provider.get(request.params.sessionId);
      if (!session) return html(reply, 404, renderTestCheckoutNotFound(opts.siteName));
      return html(reply, 200, renderTestCheckoutPage(opts.siteName, session));
    },
  );

  routes.post(
    `${TEST_CHECKOUT_PATH}/:sessionId/pay`,
    {
      schema: {
        summary: 'Pay a test checkout session (TEST MODE) and continue to /claim',
        operationId: 'payTestCheckout',
        tags: ['payments'],
        params,
        body: payFormSchema,
        response: {
          303: z.null().describe('To /claim?session_id='),
          400: page('The e-mail address is not valid: the order page again, with the error'),
          404: page('No such session'),
          410: page('The session expired before it was paid'),
        },
      },
    },
    async (request, reply) => {
      const typed = (request.body?.email ?? '').trim();
      const email = typed ? receiptEmailSchema.safeParse(typed) : null;
      if (email && !email.success) {
        // Nothing is paid: the same order page, the address kept in the field and the error beside it.
        const session = await opts.provider.get(request.params.sessionId);
        if (!session) return html(reply, 404, renderTestCheckoutNotFound(opts.siteName));
        return html(reply, 400, renderTestCheckoutPage(opts.siteName, session, { email: typed, error: INVALID_EMAIL_MESSAGE }));
      }
      const result = await payTestCheckout({
        ...sessionStepOptions(opts, request, request.params.sessionId),
        customerEmail: email?.data ?? null,
      });
      app.outbox.kick();
      if (result.state === 'not_found') return html(reply, 404, renderTestCheckoutNotFound(opts.siteName));
      if (result.state === 'expired') return html(reply, 410, renderTestCheckoutExpired(opts.siteName, result.session));
      return reply.status(303).header('cache-control', 'no-store').redirect(result.redirectTo, 303);
    },
  );
}
