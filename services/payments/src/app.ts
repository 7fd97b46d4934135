import type { EventData } from '@pixel-atlas/contracts/events';
import path from 'node:path';
import { sessionEntitlementQuery } from '@pixel-atlas/contracts/queries';
import { inboxPlugin } from '@pixel-atlas/service-kit/inbox';
import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import { answer, queriesPlugin } from '@pixel-atlas/service-kit/rpc';
import { createBackendService, type BackendService } from '@pixel-atlas/service-kit/backend-service';
import { defaultCheckoutCookieSecret } from './checkout-browser.ts';
import { PrismaClient, SCHEMA } from './db.ts';
import { getSessionEntitlement } from './domain/get-session-entitlement.ts';
import { recordUsedSessions, type UsedSession } from './domain/record-used-session.ts';
import { settleExpiredCheckouts } from './domain/settle-expired-checkouts.ts';
import { unlinkRemovedPlot } from './domain/unlink-removed-plot.ts';
import { priceTable, type PaymentsEnv } from './env.ts';
import { paymentsMetrics, type PaymentsMetrics } from './metrics.ts';
import type { CheckoutProvider } from './providers/provider.ts';
import { StripeCheckoutProvider, createStripeClient } from './providers/stripe-provider.ts';
import { TestCheckoutProvider } from './providers/test-checkout-provider.ts';
import { checkoutRoutes } from './routes/checkout.ts';
import { pricesRoutes } from './routes/prices.ts';
import { stripeWebhookRoutes } from './routes/stripe-webhook.ts';
import { testCheckoutRoutes } from './routes/test-checkout.ts';

const migrationsDir = path.resolve(import.meta.dirname, '../prisma/migrations');

declare module 'fastify' {
  interface FastifyInstance {
    checkoutProvider: CheckoutProvider;
  }
}

/** The payments service as an app, ready for `listen` (server.ts) or `inject` (tests). */
export async function buildApp(env: PaymentsEnv): Promise<BackendService<PrismaClient, PaymentsMetrics>> {
  const app = await createBackendService({
    name: 'payments',
    description: 'Checkout sessions, verification, the Stripe webhook, payment records, used sessions',
    env,
    schema: SCHEMA,
    migrationsDir,
    createClient: (adapter) => new PrismaClient({ adapter }),
    metrics: paymentsMetrics,
  });
  const metrics = app.serviceMetrics;

  const prices = priceTable(env);
  const stripe = env.STRIPE_SECRET_KEY
    ? createStripeClient({
        secretKey: env.STRIPE_SECRET_KEY,
        host: env.STRIPE_API_HOST,
        port: env.STRIPE_API_PORT,
        protocol: env.STRIPE_API_PROTOCOL,
      })
    : null;
  const testCheckout = stripe ? null : new TestCheckoutProvider(app.db);
  const provider: CheckoutProvider = stripe ? new StripeCheckoutProvider(stripe, env.PUBLIC_ORIGIN) : testCheckout!;
  app.decorate('checkoutProvider', provider);
  if (testCheckout) app.log.warn('no STRIPE_SECRET_KEY: using the built-in TEST checkout (no real money)');

  await app.register(
    inboxPlugin({
      db: () => app.db,
      consumers: [
        {
          durable: 'payments',
          schema: SCHEMA,
          handlers: {
            'plots.plot.claimed': async (event, tx) => recordUsedSessions({ tx, uses: [usedSession(event.data)] }),
            'plots.plot.removed': async (event, tx) => unlinkRemovedPlot({ tx, plotId: event.data.plotId }),
          },
          batchHandlers: {
            'plots.plot.claimed': async (events, tx) => recordUsedSessions({ tx, uses: events.map((event) => usedSession(event.data)) }),
          },
        },
      ],
    }),
  );
  await app.register(queriesPlugin, {
    queue: 'payments',
    handlers: [
      answer(sessionEntitlementQuery, async ({ sessionId }) => {
        const entitlement = await getSessionEntitlement({ db: app.db, provider, sessionId, log: app.log, metrics });
        app.outbox.kick();
        return entitlement;
      }),
    ],
  });

  await app.register(checkoutRoutes, {
    db: app.db,
    provider,
    prices,
    siteName: env.SITE_NAME,
    holdMarginSeconds: env.HOLD_MARGIN_SECONDS,
    rateLimit: { max: env.CHECKOUT_RATE_LIMIT_MAX, timeWindow: env.CHECKOUT_RATE_LIMIT_WINDOW_MS },
    metrics,
    cookieSecret: env.CHECKOUT_COOKIE_SECRET ?? defaultCheckoutCookieSecret(env.INTERNAL_TOKEN),
    secureCookie: env.PUBLIC_ORIGIN.startsWith('https://'),
    maxHoldsPerClient: env.CHECKOUT_HOLDS_PER_CLIENT_MAX,
  });
  await app.register(pricesRoutes, { prices });
  await app.register(stripeWebhookRoutes, { db: app.db, stripe, webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null, provider, metrics });
  if (testCheckout) await app.register(testCheckoutRoutes, { db: app.db, provider: testCheckout, siteName: env.SITE_NAME, metrics });

  if (env.EXPIRY_SWEEP_INTERVAL_MS > 0) {
    const sweep = new PollingWorker({
      name: 'expiry sweep',
      pollIntervalMs: env.EXPIRY_SWEEP_INTERVAL_MS,
      waitBeforeFirstRound: true,
      log: app.log,
      tick: async () => {
        const settled = await settleExpiredCheckouts({ db: app.db, provider, log: app.log, metrics });
        if (settled) app.outbox.kick();
        // One batch per interval, settled or not: the provider is asked about a bounded number of sessions each time.
        return 0;
      },
    });
    app.addHook('onReady', async () => sweep.start());
    app.addHook('preClose', async () => sweep.stop());
  }
  return app;
}

function usedSession(claim: EventData<'plots.plot.claimed'>): UsedSession {
  return { sessionId: claim.sessionId, plotId: claim.plotId, usedAt: new Date(claim.createdAt), ipAddress: claim.clientIp };
}
