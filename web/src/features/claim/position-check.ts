import { positionAvailableResponseSchema } from '@pixel-atlas/contracts/plots';
import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { api, dataOf } from '../../api/client.ts';
import type { ToastOptions } from '../../hooks/use-toast.ts';
import { CLAIM_TOASTS } from './claim-messages.ts';
import { occupiedPositionToast, ownPendingHold } from './reserved-land.ts';

export interface PositionCheckOptions {
  /**
   * After payment the buyer's own checkout holds the footprint, which the check reports as 'held';
   * /claim lets that through and leaves the last word to the server.
   */
  allowHeld?: boolean;
}

/**
 * Spec section 5: the tile must be land and the footprint free; a failed check counts as unavailable.
 * Returns the toast to show, or null when the plot may go there. It tells the true reason: reserved
 * while someone pays, under review, or the visible neighbour the footprint would overlap.
 */
export async function checkPosition(x: number, y: number, tier: Tier, options: PositionCheckOptions = {}): Promise<ToastOptions | null> {
  try {
    const parsed = positionAvailableResponseSchema.safeParse(
      await dataOf(api.GET('/api/position-available', { params: { query: { x, y, tier } } })),
    );
    if (!parsed.success) return CLAIM_TOASTS.tileUnavailable;
    const { available, reason } = parsed.data;
    if (available) return null;
    if (reason === 'water') return CLAIM_TOASTS.invalidLocation;
    if (reason === 'held' && (options.allowHeld || ownPendingHold({ x, y, size: TIER_SIZE[tier], reason }))) return null;
    return occupiedPositionToast(parsed.data, tier) ?? CLAIM_TOASTS.tileUnavailable;
  } catch {
    return CLAIM_TOASTS.tileUnavailable;
  }
}
