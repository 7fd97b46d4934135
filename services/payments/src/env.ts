import { SERVICES } from '@pixel-atlas/contracts/services';
import { DEFAULT_TIER_PRICE_CENTS, TIERS, type Tier } from '@pixel-atlas/contracts/tiers';
import { baseEnvShape, envField, envLoader, requireOutsideDevelopment } from '@pixel-atlas/service-kit/env';
import { z } from 'zod';

const cents = z.number().int('must be whole cents').min(50, 'must be at least 50 cents (the card processor minimum)').max(99_999_999);

/** `{"prime":10000,"premium":20000}`: any tier left out keeps its default price. */
const tierPriceOverrides = z
  .string()
  .optional()
  .transform((text, ctx): Partial<Record<Tier, number>> => {
    if (!text?.trim()) return {};
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON such as {"prime":10000,"premium":20000}' });
      return z.NEVER;
    }
  })
  .pipe(z.strictObject(Object.fromEntries(TIERS.map((t) => [t, cents.optional()])) as Record<Tier, z.ZodOptional<typeof cents>>));

export const envSchema = z
  .object({
    // NODE_ENV comes from the kit: unset means production, so only an explicit development or test runs the test checkout.
    ...baseEnvShape,
    PORT: envField.port(SERVICES.payments.port),
    /** The address buyers use (the gateway's); Stripe sends them back to `${PUBLIC_ORIGIN}/claim?session_id=...`. */
    PUBLIC_ORIGIN: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://atlas.example.com' })
      .default('http://localhost:8080')
      .transform((s) => s.replace(/\/+$/, '')),
    SITE_NAME: z.string().min(1).default('Pixel Atlas'),
    /** Price overrides in US cents per tier; defaults $25 / $50 / $75 / $100 (ARCHITECTURE.md section 7). */
    TIER_PRICES_CENTS: tierPriceOverrides,
    /** With a key, real Stripe Checkout; without one, the built-in test checkout (refused in production). */
    STRIPE_SECRET_KEY: z.string().trim().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().trim().min(1).optional(),
    /** Point the SDK somewhere else (a local fake in tests); defaults are Stripe's own API. */
    STRIPE_API_HOST: z.string().min(1).optional(),
    STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
    /** Extra life of the footprint hold beyond the checkout session's, so a payment made in the last second still finds it. */
    HOLD_MARGIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
    /**
     * Checkout sessions one client address (an IPv6 /64) may start per window. Generous: a carrier's NAT puts many
     * buyers behind one address, and what one address may hold is bounded apart (CHECKOUT_HOLDS_PER_CLIENT_MAX).
     */
    CHECKOUT_RATE_LIMIT_MAX: envField.positiveInt(60),
    CHECKOUT_RATE_LIMIT_WINDOW_MS: envField.positiveInt(10 * 60 * 1000),
    /** How often pending checkouts past their expiry are settled (marked expired, hold released). 0 turns it off. */
    EXPIRY_SWEEP_INTERVAL_MS: envField.nonNegativeInt(15_000),
    /**
     * Unpaid checkouts one client address (an IPv6 /64) may hold land for at once; its further checkouts go on
     * without a hold. Each browser keeps its own checkout whatever its address (the signed checkout cookie).
     */
    CHECKOUT_HOLDS_PER_CLIENT_MAX: envField.nonNegativeInt(10),
    /**
     * Signs the checkout cookie that tells one browser's checkouts from another's on the same address (at least 32
     * characters). Unset: derived from INTERNAL_TOKEN, a secret every deployment already has.
     */
    CHECKOUT_COOKIE_SECRET: envField.emptyAsUnset(
      z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (!env.STRIPE_SECRET_KEY && env.NODE_ENV === 'production') {
      requireOutsideDevelopment(
        ctx,
        'STRIPE_SECRET_KEY',
        'the built-in test checkout takes no real money. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or NODE_ENV=development for a trial',
      );
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_WEBHOOK_SECRET'],
        message:
          "is required with STRIPE_SECRET_KEY: fulfilment must not depend on the buyer's browser coming back (set the signing secret of the webhook endpoint /api/payments/stripe-webhook)",
      });
    }
  });
export type PaymentsEnv = z.infer<typeof envSchema>;

export const loadEnv = envLoader(envSchema);

export interface PriceTable {
  currency: 'usd';
  cents: Record<Tier, number>;
}

/** The server-side price table: the contracts' defaults with the operator's overrides. */
export function priceTable(env: PaymentsEnv): PriceTable {
  return { currency: 'usd', cents: { ...DEFAULT_TIER_PRICE_CENTS, ...env.TIER_PRICES_CENTS } };
}
