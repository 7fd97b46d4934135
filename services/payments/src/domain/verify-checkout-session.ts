import type { PaymentStatus, VerifySessionResponse } from '@pixel-atlas/contracts/payments';
import type { Tier } from '@pixel-atlas/contracts/tiers';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { fulfilCheckoutSession, type FulfilCheckoutSessionOptions, type FulfilmentOutcome } from './fulfil-checkout-session.ts';

export const SESSION_NOT_FOUND_MESSAGE = 'Your payment session is invalid or has expired.';

/**
 * GET /api/verify-session/:id: fulfils if needed and says whether the session is paid, for which tier and
 * position, and whether it already bought a plot (the used session `plots.plot.claimed` recorded here).
 */
export async function verifyCheckoutSession(options: FulfilCheckoutSessionOptions): Promise<VerifySessionResponse> {
  const outcome = await fulfilCheckoutSession(options);
  if (outcome.state === 'unknown') throw new AppError('SESSION_NOT_FOUND', SESSION_NOT_FOUND_MESSAGE);
  const { payment } = outcome;
  const used = await options.db.usedSession.findUnique({ where: { sessionId: options.sessionId }, select: { plotId: true } });
  return {
    verified: outcome.state === 'paid',
    tier: payment.tier as Tier,
    sessionId: options.sessionId,
    x: payment.x,
    y: payment.y,
    used: used !== null,
    // The payment's link, not the used session's: removal unlinks it, and a link to a removed plot would lead nowhere.
    plotId: used ? payment.plotId : null,
    paymentStatus: paymentStatusOf(outcome),
    checkoutUrl: outcome.state === 'unpaid' ? (outcome.session?.url ?? null) : null,
  };
}

/** An unpaid session still open can be finished; one completed without the money is waiting for it (a delayed method). */
function paymentStatusOf(outcome: Exclude<FulfilmentOutcome, { state: 'unknown' }>): PaymentStatus {
  if (outcome.state === 'paid') return 'paid';
  if (outcome.state === 'expired') return 'expired';
  if (outcome.state === 'mismatch') return 'refused';
  if (outcome.session?.status === 'open') return 'open';
  if (outcome.session?.status === 'complete') return 'processing';
  return 'expired';
}
