import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from '../db.ts';
import type { PaymentsMetrics } from '../metrics.ts';
import type { CheckoutProvider } from '../providers/provider.ts';
import { fulfilCheckoutSession } from './fulfil-checkout-session.ts';

const GIVE_UP_AFTER_MS = 2 * 24 * 60 * 60 * 1000;

export interface SettleExpiredCheckoutsOptions {
  db: PrismaClient;
  provider: CheckoutProvider;
  log: FastifyBaseLogger;
  metrics: PaymentsMetrics;
  /** Grace after the session's expiry before we ask (the provider's own expiry notice usually comes first). */
  graceMs?: number;
  batchSize?: number;
}

/**
 * Pending payments whose checkout session has passed its expiry go through fulfilment once more: the
 * provider's answer decides (expired → payments.checkout.expired frees the hold; paid after all → verified).
 * Covers the test checkout (no provider webhooks) and lost Stripe notices. Safe on every replica.
 */
export async function settleExpiredCheckouts(options: SettleExpiredCheckoutsOptions): Promise<number> {
  const { db, graceMs = 60_000, batchSize = 50 } = options;
  const now = Date.now();
  const stale = await db.payment.findMany({
    // Bounded look-back: a session the provider still calls unpaid days later (or a mismatch) is left to people.
    where: { status: 'pending', expiresAt: { lt: new Date(now - graceMs), gt: new Date(now - GIVE_UP_AFTER_MS) } },
    orderBy: { expiresAt: 'asc' },
    take: batchSize,
    select: { stripeSessionId: true },
  });
  let settled = 0;
  for (const { stripeSessionId } of stale) {
    try {
      const outcome = await fulfilCheckoutSession({ ...options, sessionId: stripeSessionId });
      if (outcome.state !== 'unpaid') settled += 1;
    } catch (error) {
      options.log.warn({ err: error, sessionId: stripeSessionId }, 'could not settle an expired checkout; will retry');
    }
  }
  return settled;
}
