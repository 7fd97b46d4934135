import type { VerifySessionResponse } from '@pixel-atlas/contracts/payments';
import type { Tier } from '@pixel-atlas/contracts/tiers';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { fulfilCheckoutSession, type FulfilCheckoutSessionOptions } from './fulfil-checkout-session.ts';

export const SESSION_NOT_FOUND_MESSAGE = 'Your payment session is invalid or has expired.';

/** GET /api/verify-session/:id: fulfils if needed and says whether the session is paid, for which tier. */
export async function verifyCheckoutSession(options: FulfilCheckoutSessionOptions): Promise<VerifySessionResponse> {
  const outcome = await fulfilCheckoutSession(options);
  if (outcome.state === 'unknown') throw new AppError('SESSION_NOT_FOUND', SESSION_NOT_FOUND_MESSAGE);
  return { verified: outcome.state === 'paid', tier: outcome.payment.tier as Tier, sessionId: options.sessionId };
}
