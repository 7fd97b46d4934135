import type { TestCheckoutSession } from '../generated/prisma/client.ts';
import type { TestCheckoutProvider } from '../providers/test-checkout-provider.ts';
import { fulfilCheckoutSession, type FulfilCheckoutSessionOptions } from './fulfil-checkout-session.ts';

export type PayTestCheckoutResult =
  | { state: 'paid'; session: TestCheckoutSession; redirectTo: string }
  | { state: 'expired'; session: TestCheckoutSession }
  | { state: 'not_found' };

/**
 * The test checkout's "Pay (test mode)" button: marks the session paid, then fulfils it straight away
 * (what Stripe's checkout.session.completed webhook does for real sessions), and sends the buyer to /claim.
 */
export async function payTestCheckout(
  options: Omit<FulfilCheckoutSessionOptions, 'provider'> & { provider: TestCheckoutProvider; customerEmail?: string | null },
): Promise<PayTestCheckoutResult> {
  const session = await options.provider.pay(options.sessionId, options.customerEmail ?? null);
  if (!session) return { state: 'not_found' };
  try {
    // Paid: record it and emit payments.payment.verified. Expired: record that, and plots frees the hold.
    await fulfilCheckoutSession(options);
  } catch (error) {
    // /claim verifies again, and plots asks again when the buyer claims: nothing is lost.
    options.log.warn({ err: error, sessionId: session.id }, 'test checkout session not settled yet');
  }
  if (session.status !== 'complete') return { state: 'expired', session };
  return { state: 'paid', session, redirectTo: session.successUrl.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id)) };
}
