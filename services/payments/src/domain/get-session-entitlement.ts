import type { Tier } from '@pixel-atlas/contracts/tiers';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { fulfilCheckoutSession, type FulfilCheckoutSessionOptions } from './fulfil-checkout-session.ts';
import { SESSION_NOT_FOUND_MESSAGE } from './verify-checkout-session.ts';

export interface SessionEntitlement {
  sessionId: string;
  paid: boolean;
  tier: Tier | null;
  footprint: { x: number; y: number; size: number } | null;
}

/**
 * Answers plots' sessionEntitlementQuery. A pending payment is fulfilled first, so a lost webhook and a
 * browser that never came back still end in a plot.
 */
export async function getSessionEntitlement(options: FulfilCheckoutSessionOptions): Promise<SessionEntitlement> {
  const outcome = await fulfilCheckoutSession(options);
  if (outcome.state === 'unknown') throw new AppError('SESSION_NOT_FOUND', SESSION_NOT_FOUND_MESSAGE);
  const { payment } = outcome;
  return {
    sessionId: options.sessionId,
    paid: outcome.state === 'paid',
    tier: payment.tier as Tier,
    footprint: { x: payment.x, y: payment.y, size: payment.size },
  };
}
