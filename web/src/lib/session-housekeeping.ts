import type { QueryClient } from '@tanstack/react-query';
import { APP_INITIALIZED_KEY, SELECTED_TIER_KEY, TEMP_CLAIM_DATA_KEY } from './storage-keys.ts';

/**
 * Spec section 4: a tier or draft claim left over from an earlier visit must not steer a new one.
 * The first load of a browser session forgets both and drops any cached server data.
 */
export function resetOnFirstLoadOfSession(queryClient: QueryClient): void {
  if (sessionStorage.getItem(APP_INITIALIZED_KEY) !== null) return;
  sessionStorage.setItem(APP_INITIALIZED_KEY, 'true');
  localStorage.removeItem(SELECTED_TIER_KEY);
  localStorage.removeItem(TEMP_CLAIM_DATA_KEY);
  queryClient.clear();
}

/**
 * Leaving the page forgets the choices; returns a function that removes the listener.
 *
 * The spec's rule has two events: page closing forgets the tier and the draft claim, unload forgets the tier.
 * `pagehide` fires on every way of leaving (closing, navigating, reloading, entering the back/forward cache)
 * and always before `unload`, so it alone does both: the tier is gone whichever event the rule names. No
 * `unload`/`beforeunload` listener: `unload` keeps the page out of the back/forward cache and is being
 * removed from browsers. Not `visibilitychange` either: a hidden tab (switching apps mid-claim) is not a
 * closed page, and forgetting the tier there would lose a choice the spec keeps for the visit.
 */
export function installPageHideCleanup(target: Window = window): () => void {
  const forgetAll = () => {
    localStorage.removeItem(SELECTED_TIER_KEY);
    localStorage.removeItem(TEMP_CLAIM_DATA_KEY);
  };
  target.addEventListener('pagehide', forgetAll);
  return () => target.removeEventListener('pagehide', forgetAll);
}
