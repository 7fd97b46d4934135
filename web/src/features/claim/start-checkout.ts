import { createCheckoutSessionResponseSchema, type CreateCheckoutSessionRequest } from '@pixel-atlas/contracts/payments';
import { api, dataOf } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import type { ToastOptions } from '../../hooks/use-toast.ts';
import { browserNavigation } from '../../lib/browser-navigation.ts';
import { CLAIM_TOASTS } from './claim-messages.ts';

/**
 * Asks for a checkout session (the server prices the tier and holds the footprint) and sends the
 * browser to its page. Resolves with the toast to show when that did not happen.
 */
export async function startCheckout(request: CreateCheckoutSessionRequest): Promise<ToastOptions | null> {
  try {
    const response = createCheckoutSessionResponseSchema.parse(await dataOf(api.POST('/api/create-checkout-session', { body: request })));
    browserNavigation.assign(response.url);
    return null;
  } catch (error) {
    // Someone took or started buying the spot since the check, or it is not land after all.
    const code = errorCode(error);
    if (code === 'TILE_UNAVAILABLE') return CLAIM_TOASTS.tileUnavailable;
    if (code === 'INVALID_LOCATION') return CLAIM_TOASTS.invalidLocation;
    return CLAIM_TOASTS.paymentError;
  }
}
