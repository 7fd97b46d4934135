import { randomUUID } from 'node:crypto';
import { CHECKOUT_SESSION_LIFETIME_SECONDS, type CreateCheckoutSessionRequest } from '@pixel-atlas/contracts/payments';
import { attachHoldCommand, holdFootprintCommand, releaseHoldCommand } from '@pixel-atlas/contracts/queries';
import { TIER_SIZE, tierPlotLabel } from '@pixel-atlas/contracts/tiers';
import { AppError, isAppError } from '@pixel-atlas/service-kit/errors';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { clientKey } from '@pixel-atlas/service-kit/client-key';
import { query } from '@pixel-atlas/service-kit/rpc';
import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from '../db.ts';
import type { PriceTable } from '../env.ts';
import type { PaymentsMetrics } from '../metrics.ts';
import type { CheckoutProvider } from '../providers/provider.ts';
import { cancelBrowserCheckouts } from './cancel-checkout-session.ts';

export const PAYMENT_START_FAILED = 'Failed to start payment process. Please try again.';
export const SUPERSEDED_MESSAGE = 'Another checkout was started from this browser at the same time. Please use that one, or start again.';

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
  /** The buyer's address as the gateway saw it: kept, and counted (by its clientKey) for the holds per address. */
  clientIp: string | null;
  /** The browser's checkout cookie (hashed): its own unpaid checkouts are the only ones a new checkout replaces. */
  browserHash: string;
  /** Unpaid checkouts one address may hold land for at once; past it the checkout goes on unheld. */
  maxHoldsPerClient: number;
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
 * server's price, then the pending payment is stored and the hold is tied to the session. `held: false`: the
 * footprint was free but is not kept (too much land held at once, or by this address).
 */
export async function createCheckoutSession(
  options: CreateCheckoutSessionOptions,
): Promise<{ url: string; sessionId: string; held: boolean }> {
  const { db, bus, provider, prices, request, log } = options;
  const { tier, x, y } = request;
  const size = TIER_SIZE[tier];
  const amountCents = prices.cents[tier];
  const holdId = `hold_${randomUUID()}`;
  const now = Date.now();
  const sessionExpiresAt = new Date(now + (CHECKOUT_SESSION_LIFETIME_SECONDS + SESSION_EXPIRY_SLACK_SECONDS) * 1000);
  const holdExpiresAt = new Date(sessionExpiresAt.getTime() + options.holdMarginSeconds * 1000);
  const clientIp = options.clientIp || null;
  const client = clientIp ? clientKey(clientIp) : null;
  const { browserHash } = options;
  const cancelOptions = { db, bus, provider, log, metrics: options.metrics, requestId: options.requestId, browserHash };

  // One open checkout per browser: a new checkout ends this browser's unpaid ones first (their spot may be the one
  // chosen again). Another browser's, even on the same address, is never touched; paid ones never are.
  await cancelBrowserCheckouts({ ...cancelOptions, keepNewest: false });

  // Past the ceiling on held land (plots counts it across every client), or past this address's share, the checkout
  // goes on without a hold rather than refusing the sale: the buyer is told, and keeps the payment if the spot goes.
  const mode = client && (await openHoldsOfClient(db, client)) >= options.maxHoldsPerClient ? 'none' : 'if-room';
  let held: boolean;
  try {
    ({ held } = await query(bus, holdFootprintCommand, { holdId, tier, x, y, expiresAt: holdExpiresAt.toISOString(), mode }));
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
        clientKey: client,
        browserHash,
        held,
        expiresAt: sessionExpiresAt,
      },
    });
    if (held) {
      const { attached } = await query(bus, attachHoldCommand, { holdId, sessionId: session.id });
      if (!attached) throw new Error(`hold ${holdId} was gone before it could be attached`);
    }
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

  // Two checkouts racing from one browser both got here: the newest stays, the others end (ours included).
  const cancelled = await cancelBrowserCheckouts({ ...cancelOptions, keepNewest: true });
  if (cancelled.includes(session.id)) throw new AppError('CONFLICT', SUPERSEDED_MESSAGE);

  options.metrics.checkoutSessionsCreated.inc({ tier });
  log.info({ sessionId: session.id, tier, x, y, provider: provider.name, held }, 'checkout session created');
  return { url: session.url, sessionId: session.id, held };
}

/**
 * Unpaid checkouts of one address that hold land now. Advisory: checkouts racing from one address may pass it
 * together (the rate limit bounds how many); the ceiling on held land, counted by plots under a lock, is exact.
 */
async function openHoldsOfClient(db: PrismaClient, client: string): Promise<number> {
  return db.payment.count({ where: { clientKey: client, status: 'pending', held: true, expiresAt: { gt: new Date() } } });
}
