import { createCheckoutSessionResponseSchema, type CreateCheckoutSessionRequest } from '@pixel-atlas/contracts/payments';
import { api, dataOf } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import type { ToastOptions } from '../../hooks/use-toast.ts';
import { browserNavigation } from '../../lib/browser-navigation.ts';
import { CLAIM_TOASTS } from './claim-messages.ts';

/** A checkout that started without holding the spot (too much land is held right now): the buyer decides first. */
export interface UnheldCheckout {
  url: string;
  sessionId: string;
}

export type StartCheckoutOutcome = { problem: ToastOptions } | { unheld: UnheldCheckout } | null;

/**
 * Asks for a checkout session (the server prices the tier and holds the footprint) and sends the browser to its
 * page. Resolves with the toast to show when that did not happen, or with the checkout when the spot is not held
 * (the buyer is told before paying: `goToCheckout` or `dropCheckout`).
 */
export async function startCheckout(request: CreateCheckoutSessionRequest): Promise<StartCheckoutOutcome> {
  try {
    const response = createCheckoutSessionResponseSchema.parse(await dataOf(api.POST('/api/create-checkout-session', { body: request })));
    if (response.held === false) return { unheld: { url: response.url, sessionId: response.sessionId } };
    goToCheckout(response);
    return null;
  } catch (error) {
    // Someone took or started buying the spot since the check, or it is not land after all.
    const code = errorCode(error);
    if (code === 'TILE_UNAVAILABLE') return { problem: CLAIM_TOASTS.tileUnavailable };
    if (code === 'INVALID_LOCATION') return { problem: CLAIM_TOASTS.invalidLocation };
    return { problem: CLAIM_TOASTS.paymentError };
  }
}

export function goToCheckout(checkout: { url: string }): void {
  browserNavigation.assign(checkout.url);
}

/** The buyer chose another spot: the unpaid session is ended now rather than left open until it expires. */
export function dropCheckout(checkout: UnheldCheckout): void {
  // The cancel URL answers with a redirect meant for a page load: only the request matters here.
  void fetch(`/api/payments/checkout-cancel?session_id=${encodeURIComponent(checkout.sessionId)}`, { redirect: 'manual' }).catch(
    () => undefined,
  );
}
