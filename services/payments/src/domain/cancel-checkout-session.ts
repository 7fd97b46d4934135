import { releaseHoldCommand } from '@pixel-atlas/contracts/queries';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import type { FastifyBaseLogger } from 'fastify';
import { SCHEMA } from '../db.ts';
import type { Payment } from '../generated/prisma/client.ts';
import { fulfilCheckoutSession, type FulfilCheckoutSessionOptions } from './fulfil-checkout-session.ts';

export type CancelReason = 'buyer' | 'superseded';

export type CancelOutcome =
  /** Was pending: the provider session is expired, the payment cancelled, the hold released. */
  | { state: 'cancelled'; payment: Payment }
  /** The buyer paid (or finished paying) first: nothing changed. */
  | { state: 'kept'; payment: Payment }
  /** Already expired or cancelled before. */
  | { state: 'ended'; payment: Payment }
  | { state: 'unknown' };

/** A fulfilment's options (a cancel may find the session paid and record it), with the bus to release the hold on. */
export interface CancelCheckoutSessionOptions extends FulfilCheckoutSessionOptions {
  bus: EventBus;
  reason: CancelReason;
}

/** Frees the spot now rather than when the hold expires; plots also frees it on payments.checkout.expired. */
export async function releaseHoldNow(bus: EventBus, holdId: string, log: FastifyBaseLogger): Promise<void> {
  try {
    await query(bus, releaseHoldCommand, { holdId });
  } catch (error) {
    log.warn({ err: error, holdId }, "could not release a footprint hold now; the expiry event or the hold's own expiry frees it");
  }
}

/**
 * Ends an unpaid checkout early (the buyer's Cancel, or a newer checkout from the same browser). The
 * provider session is expired FIRST, so no payment can arrive once the hold is gone: if the buyer paid in
 * the meantime, the provider refuses and everything is kept (a paid hold is never released). Then the
 * payment moves pending → cancelled with payments.checkout.expired in the same transaction (plots drops
 * the hold on it, durably), and plots is asked to drop the hold at once.
 */
export async function cancelCheckoutSession(options: CancelCheckoutSessionOptions): Promise<CancelOutcome> {
  const { db, bus, provider, sessionId, log } = options;
  const payment = await db.payment.findUnique({ where: { stripeSessionId: sessionId } });
  if (!payment) return { state: 'unknown' };
  if (payment.status === 'paid') return { state: 'kept', payment };
  if (payment.status !== 'pending') return { state: 'ended', payment };

  const ended = await provider.expireSession(sessionId);
  if (ended === 'complete') {
    // Paid (or paying) first: record it if nobody has yet, and keep the hold for the claim.
    const outcome = await fulfilCheckoutSession({ db, provider, sessionId, log, metrics: options.metrics, requestId: options.requestId });
    return { state: 'kept', payment: 'payment' in outcome ? outcome.payment : payment };
  }

  const cancelled = await db.$transaction(async (tx) => {
    const { count } = await tx.payment.updateMany({
      where: { id: payment.id, status: 'pending' },
      data: { status: 'cancelled', cancelledAt: new Date() },
    });
    if (count === 0) return false;
    await enqueueEvent({ tx, schema: SCHEMA, type: 'payments.checkout.expired', requestId: options.requestId, data: { sessionId } });
    return true;
  });
  const fresh = (await db.payment.findUnique({ where: { id: payment.id } }))!;
  if (!cancelled) return fresh.status === 'paid' ? { state: 'kept', payment: fresh } : { state: 'ended', payment: fresh };
  await releaseHoldNow(bus, payment.holdId, log);
  options.metrics.checkoutsCancelled.inc({ reason: options.reason });
  log.info(
    { sessionId, reason: options.reason, x: payment.x, y: payment.y, tier: payment.tier },
    'checkout cancelled and its hold released',
  );
  return { state: 'cancelled', payment: fresh };
}

export interface CancelBrowserCheckoutsOptions extends Omit<CancelCheckoutSessionOptions, 'sessionId' | 'reason'> {
  /** The browser's checkout cookie, hashed (`checkoutBrowser`). */
  browserHash: string;
  /** Keep the newest pending checkout of the browser (after creating one); false cancels them all (before). */
  keepNewest: boolean;
}

/**
 * One open checkout per browser: the browser's pending checkouts are cancelled (all of them before a new one
 * holds land, so re-choosing the same spot works; all but the newest after, which settles two checkouts
 * racing from one browser: whichever stored its payment last sees both and keeps only the newest). Never by
 * address: two browsers behind one address are two buyers. Returns the session ids that were cancelled.
 */
export async function cancelBrowserCheckouts(options: CancelBrowserCheckoutsOptions): Promise<string[]> {
  const pending = await options.db.payment.findMany({
    where: { browserHash: options.browserHash, status: 'pending' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { stripeSessionId: true },
  });
  const cancelled: string[] = [];
  for (const { stripeSessionId } of options.keepNewest ? pending.slice(1) : pending) {
    try {
      const outcome = await cancelCheckoutSession({ ...options, sessionId: stripeSessionId, reason: 'superseded' });
      if (outcome.state === 'cancelled') cancelled.push(stripeSessionId);
    } catch (error) {
      // The provider could not be reached: that hold lives until it expires; the new checkout goes on.
      options.log.warn({ err: error, sessionId: stripeSessionId }, 'could not cancel an older checkout of this browser');
    }
  }
  return cancelled;
}
