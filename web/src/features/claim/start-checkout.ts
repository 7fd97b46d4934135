import { createCheckoutSessionResponseSchema, type CreateCheckoutSessionRequest } from '@pixel-atlas/contracts/payments';
import type { ToastOptions } from '../../hooks/use-toast.ts';
import { apiJson } from '../../lib/api.ts';
import { errorCode } from '../../lib/api-errors.ts';
import { browserNavigation } from '../../lib/browser-navigation.ts';
import { CLAIM_TOASTS } from './claim-messages.ts';
import type { ApiResponse, ApiRequestBody } from '../../lib/api-types.ts';

/**
 * Asks for a checkout session (the server prices the tier and holds the footprint) and sends the
 * browser to its page. Resolves with the toast to show when that did not happen.
 */
export async function startCheckout(request: CreateCheckoutSessionRequest): Promise<ToastOptions | null> {
  try {
    const response = createCheckoutSessionResponseSchema.parse(await apiJson<ApiResponse<'/api/create-checkout-session', 'post'>>('POST', '/api/create-checkout-session', request satisfies ApiRequestBody<'/api/create-checkout-session', 'post'>));
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
