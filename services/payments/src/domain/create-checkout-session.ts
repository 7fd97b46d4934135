import { randomUUID } from 'node:crypto';
import { CHECKOUT_SESSION_LIFETIME_SECONDS, type CreateCheckoutSessionRequest } from '@pixel-atlas/contracts/payments';
import { attachHoldCommand, holdFootprintCommand, releaseHoldCommand } from '@pixel-atlas/contracts/queries';
import { TIER_SIZE, tierPlotLabel } from '@pixel-atlas/contracts/tiers';
import { AppError, isAppError } from '@pixel-atlas/service-kit/errors';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from '../db.ts';
import type { PriceTable } from '../env.ts';
import type { PaymentsMetrics } from '../metrics.ts';
import type { CheckoutProvider } from '../providers/provider.ts';
import { cancelClientCheckouts } from './cancel-checkout-session.ts';

export const PAYMENT_START_FAILED = 'Failed to start payment process. Please try again.';
export const SUPERSEDED_MESSAGE =
  'Another checkout was started from your connection at the same time. Please use that one, or start again.';

/** Where the provider sends a buyer who gives up: payments cancels the session and frees the spot at once. */
export const CANCEL_PATH = '/api/payments/checkout-cancel';

/** Stripe wants expires_at at least 30 minutes ahead when it receives the request: leave a minute for the trip. */
const SESSION_EXPIRY_SLACK_SECONDS = 60;

export interface CreateCheckoutSessionOptions {
  db: PrismaClient;
  bus: EventBus;
  provider: CheckoutProvider;
  prices: PriceTable;
  siteName: string;
  holdMarginSeconds: number;
  request: CreateCheckoutSessionRequest;
  /** The buyer's address as the gateway saw it: one open hold per client. */
  clientIp: string | null;
  requestId?: string;
  log: FastifyBaseLogger;
  metrics: PaymentsMetrics;
}

async function releaseHold(bus: EventBus, holdId: string, log: FastifyBaseLogger): Promise<void> {
  try {
    await query(bus, releaseHoldCommand, { holdId });
  } catch (error) {
    // The hold expires by itself; this only frees the spot sooner.
    log.warn({ err: error, holdId }, 'could not release a footprint hold; it will expire on its own');
  }
}

/**
 * Starts a checkout for one plot: plots holds the footprint first (a taken, held, water or out-of-grid
 * footprint fails here, before any provider session exists), then the provider session is created at the
 * server's price, then the pending payment is stored and the hold is tied to the session.
 */
export async function createCheckoutSession(options: CreateCheckoutSessionOptions): Promise<{ url: string; sessionId: string }> {
  const { db, bus, provider, prices, request, log } = options;
  const { tier, x, y } = request;
  const size = TIER_SIZE[tier];
  const amountCents = prices.cents[tier];
  const holdId = `hold_${randomUUID()}`;
  const now = Date.now();
  const sessionExpiresAt = new Date(now + (CHECKOUT_SESSION_LIFETIME_SECONDS + SESSION_EXPIRY_SLACK_SECONDS) * 1000);
  const holdExpiresAt = new Date(sessionExpiresAt.getTime() + options.holdMarginSeconds * 1000);
  const clientIp = options.clientIp || null;
  const cancelOptions = { db, bus, provider, log, metrics: options.metrics, requestId: options.requestId };

  // One open hold per client: a new checkout ends this client's unpaid ones first (their spot may be the one
  // chosen again). Paid ones are never touched.
  if (clientIp) await cancelClientCheckouts({ ...cancelOptions, clientIp, keepNewest: false });

  try {
    await query(bus, holdFootprintCommand, { holdId, tier, x, y, expiresAt: holdExpiresAt.toISOString() });
  } catch (error) {
    // No answer in time: plots may still have taken the hold, so give it back.
    if (isAppError(error) && error.code === 'TIMEOUT') await releaseHold(bus, holdId, log);
    throw error;
  }

  let session: { id: string; url: string };
  try {
    session = await provider.createSession({
      tier,
      size,
      x,
      y,
      amountCents,
      currency: prices.currency,
      idempotencyKey: holdId,
      expiresAt: sessionExpiresAt,
      successPath: '/claim?session_id={CHECKOUT_SESSION_ID}',
      cancelPath: `${CANCEL_PATH}?session_id={CHECKOUT_SESSION_ID}`,
      productName: `${options.siteName}: ${tierPlotLabel(tier)}`,
      metadata: { tier, x: String(x), y: String(y), size: String(size), holdId, amountCents: String(amountCents) },
    });
  } catch (error) {
    log.error({ err: error, provider: provider.name, tier }, 'payment provider refused to create a checkout session');
    await releaseHold(bus, holdId, log);
    throw new AppError('UPSTREAM_UNAVAILABLE', PAYMENT_START_FAILED);
  }

  try {
    await db.payment.create({
      data: {
        stripeSessionId: session.id,
        provider: provider.name,
        tier,
        amount: amountCents,
        currency: prices.currency,
        x,
        y,
        size,
        holdId,
        clientIp,
        expiresAt: sessionExpiresAt,
      },
    });
    const { attached } = await query(bus, attachHoldCommand, { holdId, sessionId: session.id });
    if (!attached) throw new Error(`hold ${holdId} was gone before it could be attached`);
  } catch (error) {
    // Without a stored payment or an attached hold the buyer could pay for a spot nobody keeps for them:
    // give the spot back and let them start again (the unused provider session just expires).
    log.error({ err: error, sessionId: session.id, holdId }, 'could not record the checkout session');
    await releaseHold(bus, holdId, log);
    await db.payment
      .updateMany({ where: { stripeSessionId: session.id, status: 'pending' }, data: { status: 'expired', expiredAt: new Date() } })
      .catch(() => 0);
    throw new AppError('UPSTREAM_UNAVAILABLE', PAYMENT_START_FAILED);
  }

  if (clientIp) {
    // Two checkouts racing from one client both got here: the newest stays, the others end (ours included).
    const cancelled = await cancelClientCheckouts({ ...cancelOptions, clientIp, keepNewest: true });
    if (cancelled.includes(session.id)) throw new AppError('CONFLICT', SUPERSEDED_MESSAGE);
  }

  options.metrics.checkoutSessionsCreated.inc({ tier });
  log.info({ sessionId: session.id, tier, x, y, provider: provider.name }, 'checkout session created');
  return { url: session.url, sessionId: session.id };
}
