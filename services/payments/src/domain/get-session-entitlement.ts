import type { Tier } from '@pixel-atlas/contracts/tiers';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { fulfilCheckoutSession, type FulfilCheckoutSessionOptions } from './fulfil-checkout-session.ts';
import { SESSION_NOT_FOUND_MESSAGE } from './verify-checkout-session.ts';

export interface SessionEntitlement {
  sessionId: string;
  paid: boolean;
  tier: Tier | null;
  footprint: { x: number; y: number; size: number } | null;
  buyerEmail: string | null;
  amountCents: number;
  currency: string;
  paidAt: string | null;
}

/**
 * Answers plots' sessionEntitlementQuery. A pending payment is fulfilled first, so a lost webhook and a
 * browser that never came back still end in a plot.
 */
export async function getSessionEntitlement(options: FulfilCheckoutSessionOptions): Promise<SessionEntitlement> {
  const outcome = await fulfilCheckoutSession(options);
  if (outcome.state === 'unknown') throw new AppError('SESSION_NOT_FOUND', SESSION_NOT_FOUND_MESSAGE);
  const { payment } = outcome;
  const paid = outcome.state === 'paid';
  return {
    sessionId: options.sessionId,
    paid,
    tier: payment.tier as Tier,
    footprint: { x: payment.x, y: payment.y, size: payment.size },
    buyerEmail: paid ? await buyerEmail(options, outcome.customerEmail) : null,
    amountCents: payment.amount,
    currency: payment.currency,
    paidAt: payment.paidAt?.toISOString() ?? null,
  };
}

/**
 * The address for the receipt: from the fulfilment that just read the session, else read again from the provider
 * (payments keeps no copy). A nicety: a provider that does not answer costs the receipt, never the claim.
 */
async function buyerEmail(options: FulfilCheckoutSessionOptions, known: string | null | undefined): Promise<string | null> {
  if (known !== undefined) return known;
  try {
    return (await options.provider.retrieveSession(options.sessionId))?.customerEmail ?? null;
  } catch (error) {
    options.log.warn({ err: error, sessionId: options.sessionId }, 'the buyer address could not be read for the receipt');
    return null;
  }
}
