import type { ToastOptions } from '../../hooks/use-toast.ts';
import { errorMessageForDisplay } from '../../api/errors.ts';

/** The claim flow's toasts, worded as spec section 8 has them (popup and /claim share them). */
export const CLAIM_TOASTS = {
  missingTile: { title: 'Missing Tile Selection', description: 'Please select a tile location for your plot.', variant: 'destructive' },
  missingAvatar: { title: 'Missing Avatar', description: 'Please upload and save an avatar for your plot.', variant: 'destructive' },
  invalidLocation: {
    title: 'Invalid Location',
    description: 'You can only claim plots on land, not in water. Please choose another location.',
    variant: 'destructive',
  },
  tileUnavailable: {
    title: 'Tile Unavailable',
    description: 'This tile is already claimed. Please choose another.',
    variant: 'destructive',
  },
  paymentError: {
    title: 'Payment Error',
    description: 'Failed to start payment process. Please try again.',
    variant: 'destructive',
    duration: 3000,
  },
  checkoutCancelled: { title: 'Checkout Cancelled', description: 'No payment was taken. The tile is free again.' },
  avatarSaved: { title: 'Avatar Saved', description: 'Your avatar has been saved successfully.' },
  avatarSaveFailed: { title: 'Upload Failed', description: 'Failed to save avatar. Please try again.', variant: 'destructive' },
} satisfies Record<string, ToastOptions>;

export const CLAIM_FAILED_FALLBACK = 'Failed to claim plot. Please try again.';
export const AUTO_CLAIM_FAILED_FALLBACK = 'Failed to create plot. Please try again.';
export const UNDER_REVIEW_TITLE = 'Plot Created - Under Review';

/**
 * The text for a refused claim. A 400 names the refused field in `details.fields` (e.g. an avatar that is
 * not a JPG, PNG or GIF): show that field's own sentence, not the message prefixed with the field's key
 * ('avatar_url: …'); anything else keeps the server's message or the fallback.
 */
export function claimFailureMessage(error: unknown, fallback: string): string {
  const fields = /^400: /.test(error instanceof Error ? error.message : '') ? refusedFields(error as Error) : undefined;
  const first = fields ? Object.values(fields).find((message) => typeof message === 'string' && message.trim()) : undefined;
  return typeof first === 'string' ? first : errorMessageForDisplay(error, fallback);
}

function refusedFields(error: Error): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(error.message.slice('400: '.length)) as { error?: { details?: { fields?: unknown } } } | null;
    const fields = body?.error?.details?.fields;
    return fields && typeof fields === 'object' ? (fields as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
