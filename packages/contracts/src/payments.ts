import { z } from 'zod';
import { tileIndexSchema } from './plots.ts';
import { PRICE_CURRENCY, tierSchema } from './tiers.ts';

export const createCheckoutSessionRequestSchema = z
  .object({
    tier: tierSchema,
    x: tileIndexSchema,
    y: tileIndexSchema,
  })
  .meta({ id: 'CreateCheckoutSessionRequest' });
export type CreateCheckoutSessionRequest = z.infer<typeof createCheckoutSessionRequestSchema>;

export const createCheckoutSessionResponseSchema = z
  .object({
    url: z.string(),
    sessionId: z.string(),
    // Optional so an answer from an older payments replica still parses (it always held).
    held: z
      .boolean()
      .optional()
      .describe(
        'Whether the footprint is kept for this buyer while they pay. false: too much land is held right now, so the checkout goes on without a hold; if someone claims the spot first, the payment stays good for another spot',
      ),
  })
  .meta({ id: 'CreateCheckoutSessionResponse' });

/** What became of a checkout session, as /claim tells the buyer. */
export const PAYMENT_STATUSES = ['paid', 'open', 'processing', 'expired', 'refused'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const verifySessionResponseSchema = z
  .object({
    verified: z.boolean(),
    tier: tierSchema,
    sessionId: z.string(),
    // Beyond the spec's three fields: what a browser without the pending claim (another device, Back after the
    // claim) needs to show the truth rather than an empty form.
    x: z.number().int().describe('Top-left tile of the footprint held for this checkout (the paid position)'),
    y: z.number().int(),
    used: z.boolean().describe('The session already bought a plot: it cannot claim another'),
    plotId: z.uuid().nullable().describe('The plot the session bought, while it exists (null when unused or the plot was removed)'),
    // Optional so an answer from an older payments replica still parses; /claim then says what it can.
    paymentStatus: z
      .enum(PAYMENT_STATUSES)
      .optional()
      .describe(
        'paid; open: not paid yet and the checkout can still be finished; processing: completed, the money has not arrived yet; expired: ended without payment (expired or cancelled); refused: paid with another amount or currency than asked, never honoured',
      ),
    checkoutUrl: z.string().nullable().optional().describe('Where the buyer can finish paying, while the checkout is open'),
  })
  .meta({ id: 'VerifySessionResponse' });
export type VerifySessionResponse = z.infer<typeof verifySessionResponseSchema>;

const priceCentsSchema = z.number().int().positive();

/**
 * GET /api/prices: what a checkout charges per tier (ARCHITECTURE.md section 7, prices shown), so the
 * web shows the configured price rather than the defaults it was built with.
 */
export const pricesResponseSchema = z
  .object({
    currency: z.literal(PRICE_CURRENCY),
    cents: z
      .object({ basic: priceCentsSchema, featured: priceCentsSchema, prime: priceCentsSchema, premium: priceCentsSchema })
      .describe('Price per tier in the smallest unit of the currency (US cents)'),
  })
  .meta({ id: 'PricesResponse' });
export type PricesResponse = z.infer<typeof pricesResponseSchema>;

/** How long a checkout session (and the footprint hold it carries) lives: Stripe's minimum expires_at. */
export const CHECKOUT_SESSION_LIFETIME_SECONDS = 30 * 60;

/** What the buyer is told before paying for a spot the checkout could not hold (the web shows it; tests look for it). */
export const NOT_HELD_NOTICE =
  "This spot isn't reserved for you while you pay: if someone claims it first, you keep your payment and pick another spot.";
