import { DEFAULT_TIER_PRICE_CENTS } from '@pixel-atlas/contracts/tiers';
import { describeRoutes, usedOnlyByHandlers } from '@pixel-atlas/service-kit/describe-routes';
import type { OpenApiDocument } from '@pixel-atlas/service-kit/openapi';
import type { PaymentsMetrics } from './metrics.ts';
import type { CheckoutProvider } from './providers/provider.ts';
import type { TestCheckoutProvider } from './providers/test-checkout-provider.ts';
import { checkoutRoutes } from './routes/checkout.ts';
import { pricesRoutes } from './routes/prices.ts';
import { stripeWebhookRoutes } from './routes/stripe-webhook.ts';
import { testCheckoutRoutes } from './routes/test-checkout.ts';
import type { PrismaClient } from './db.ts';

/**
 * The payments service's OpenAPI document, from its route schemas (nothing connects). It lists the test checkout's
 * pages, which a deployment with a Stripe key does not serve.
 */
export function describeApi(): Promise<OpenApiDocument> {
  return describeRoutes('payments', async (app) => {
    const db = usedOnlyByHandlers<PrismaClient>('db');
    const provider = usedOnlyByHandlers<CheckoutProvider>('provider');
    const metrics = usedOnlyByHandlers<PaymentsMetrics>('metrics');
    const prices = { currency: 'usd' as const, cents: DEFAULT_TIER_PRICE_CENTS };
    await app.register(checkoutRoutes, {
      db,
      provider,
      prices,
      siteName: 'unused',
      holdMarginSeconds: 0,
      rateLimit: { max: 1, timeWindow: 1 },
      metrics,
      cookieSecret: 'unused-checkout-cookie-secret-0123456789',
      secureCookie: false,
      maxHoldsPerClient: 1,
    });
    await app.register(pricesRoutes, { prices });
    await app.register(stripeWebhookRoutes, { db, stripe: null, webhookSecret: null, provider, metrics });
    await app.register(testCheckoutRoutes, {
      db,
      provider: usedOnlyByHandlers<TestCheckoutProvider>('provider'),
      siteName: 'unused',
      metrics,
    });
  });
}
