import { isTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { SELECTED_TIER_KEY } from '../../lib/storage-keys.ts';

/** Spec section 4: the popup starts at selectedTier when it is one of the four tiers, else basic. */
export function storedTier(): Tier {
  return chosenTier() ?? 'basic';
}

/** The tier the visitor chose with SELECT, or null when none was chosen (words must then name no tier). */
export function chosenTier(): Tier | null {
  const value = localStorage.getItem(SELECTED_TIER_KEY);
  return isTier(value) ? value : null;
}
