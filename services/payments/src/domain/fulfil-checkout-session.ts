import { isTier, TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tiers';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import type { FastifyBaseLogger } from 'fastify';
import { SCHEMA, type PrismaClient } from '../db.ts';
import type { Payment } from '../generated/prisma/client.ts';
import type { PaymentsMetrics } from '../metrics.ts';
import type { CheckoutProvider, ProviderSession } from '../providers/provider.ts';

export type FulfilmentOutcome =
  /** Paid, amount and currency matched: the payment is recorded and payments.payment.verified was emitted (once). */
  | { state: 'paid'; payment: Payment; newlyPaid: boolean; customerEmail?: string | null }
  /**
   * Still open, or completed without the money having arrived (e.g. a delayed payment method). `session`: the
   * provider's view (null when the provider no longer knows it), which tells the two apart.
   */
  | { state: 'unpaid'; payment: Payment; session: ProviderSession | null }
  | { state: 'expired'; payment: Payment }
  /** The provider says paid, but not the amount or currency we asked for: never honoured. */
  | { state: 'mismatch'; payment: Payment }
  /** Neither we nor the provider know this session. */
  | { state: 'unknown' };

export interface FulfilCheckoutSessionOptions {
  db: PrismaClient;
  provider: CheckoutProvider;
  sessionId: string;
  log: FastifyBaseLogger;
  metrics: PaymentsMetrics;
  requestId?: string;
}

/** The options of a step on one session for a route: its database, provider and metrics, the request's log and id. */
export function sessionStepOptions<P extends CheckoutProvider>(
  route: { db: PrismaClient; provider: P; metrics: PaymentsMetrics },
  request: { log: FastifyBaseLogger; id: string },
  sessionId: string,
): Omit<FulfilCheckoutSessionOptions, 'provider'> & { provider: P } {
  return { db: route.db, provider: route.provider, metrics: route.metrics, log: request.log, requestId: request.id, sessionId };
}

async function retrieve(provider: CheckoutProvider, sessionId: string): Promise<ProviderSession | null> {
  try {
    return await provider.retrieveSession(sessionId);
  } catch (error) {
    throw new AppError('UPSTREAM_UNAVAILABLE', 'Could not reach the payment provider to check this payment. Please try again.', {
      cause: String((error as Error)?.message ?? error),
    });
  }
}

/**
 * A session the provider knows but we have no row for (we crashed between creating it and storing the
 * payment): adopt it if it is one of ours, i.e. it carries the metadata we put on every session.
 */
async function adopt(db: PrismaClient, provider: CheckoutProvider, session: ProviderSession): Promise<Payment | null> {
  const { tier, x, y, holdId, amountCents } = session.metadata;
  if (!isTier(tier) || !holdId || !/^\d+$/.test(x ?? '') || !/^\d+$/.test(y ?? '') || !/^\d+$/.test(amountCents ?? '')) return null;
  await db.payment.createMany({
    data: [
      {
        stripeSessionId: session.id,
        provider: provider.name,
        tier,
        amount: Number(amountCents),
        currency: session.currency ?? 'usd',
        x: Number(x),
        y: Number(y),
        size: TIER_SIZE[tier],
        holdId,
        expiresAt: new Date(),
      },
    ],
    skipDuplicates: true,
  });
  return db.payment.findUnique({ where: { stripeSessionId: session.id } });
}

/**
 * The one fulfilment path, for the browser (verify), the webhook, the entitlement query and the expiry
 * sweep. Idempotent and order-proof: the state comes from the provider, not from the notice that woke us;
 * the transition to paid (with its event) is a conditional update, so duplicates change nothing twice,
 * and nothing ever turns a paid payment back into anything else.
 */
export async function fulfilCheckoutSession(options: FulfilCheckoutSessionOptions): Promise<FulfilmentOutcome> {
  const { db, provider, sessionId, log } = options;
  let payment = await db.payment.findUnique({ where: { stripeSessionId: sessionId } });
  if (payment?.status === 'paid') return { state: 'paid', payment, newlyPaid: false };

  const session = await retrieve(provider, sessionId);
  if (!session) return payment ? { state: 'unpaid', payment, session: null } : { state: 'unknown' };
  if (!payment) {
    payment = await adopt(db, provider, session);
    if (!payment) return { state: 'unknown' };
    log.warn({ sessionId }, 'adopted a checkout session that had no payment record');
    if (payment.status === 'paid') return { state: 'paid', payment, newlyPaid: false };
  }

  if (session.status === 'complete' && session.paymentStatus === 'paid') {
    const metadataTier = session.metadata.tier;
    if (
      session.amountTotal !== payment.amount ||
      session.currency?.toLowerCase() !== payment.currency ||
      (metadataTier && metadataTier !== payment.tier)
    ) {
      log.error(
        {
          sessionId,
          expected: { amount: payment.amount, currency: payment.currency, tier: payment.tier },
          got: { amount: session.amountTotal, currency: session.currency, tier: metadataTier },
        },
        'checkout session paid with the wrong amount, currency or tier: not honoured',
      );
      return { state: 'mismatch', payment };
    }
    const paid = payment;
    const newlyPaid = await db.$transaction(async (tx) => {
      // Conditional: of two concurrent fulfilments only one moves the row, so only one event is written.
      const { count } = await tx.payment.updateMany({
        // A cancelled session cannot normally be paid (it was expired at the provider first), but money that
        // arrives anyway is honoured: the buyer keeps an entitlement and claims wherever is free.
        where: { id: paid.id, status: { in: ['pending', 'expired', 'cancelled'] } },
        data: { status: 'paid', paidAt: new Date() },
      });
      if (count === 0) return false;
      await enqueueEvent({
        tx,
        schema: SCHEMA,
        type: 'payments.payment.verified',
        requestId: options.requestId,
        data: {
          sessionId,
          tier: paid.tier as Tier,
          amountCents: paid.amount,
          currency: paid.currency,
          footprint: { x: paid.x, y: paid.y, size: paid.size },
          // For the receipt: carried to plots, never stored by payments (the provider keeps it).
          buyerEmail: session.customerEmail,
        },
      });
      return true;
    });
    if (newlyPaid) {
      options.metrics.paymentsVerified.inc({ tier: paid.tier });
      log.info({ sessionId, tier: paid.tier, amount: paid.amount }, 'payment verified');
    }
    const fresh = (await db.payment.findUnique({ where: { id: paid.id } }))!;
    return { state: 'paid', payment: fresh, newlyPaid, customerEmail: session.customerEmail };
  }

  if (session.status === 'expired') {
    const expiring = payment;
    await db.$transaction(async (tx) => {
      // Only a pending payment expires: a late or repeated "expired" never undoes a payment.
      const { count } = await tx.payment.updateMany({
        where: { id: expiring.id, status: 'pending' },
        data: { status: 'expired', expiredAt: new Date() },
      });
      if (count === 0) return;
      await enqueueEvent({ tx, schema: SCHEMA, type: 'payments.checkout.expired', requestId: options.requestId, data: { sessionId } });
    });
    const fresh = (await db.payment.findUnique({ where: { id: expiring.id } }))!;
    if (fresh.status === 'paid') return { state: 'paid', payment: fresh, newlyPaid: false };
    return { state: 'expired', payment: fresh };
  }

  return { state: 'unpaid', payment, session };
}
