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

/** Closing the page forgets the choices; returns a function that removes the listeners. */
export function installUnloadCleanup(target: Window = window): () => void {
  const forgetAll = () => {
    localStorage.removeItem(SELECTED_TIER_KEY);
    localStorage.removeItem(TEMP_CLAIM_DATA_KEY);
  };
  const forgetTier = () => localStorage.removeItem(SELECTED_TIER_KEY);
  target.addEventListener('pagehide', forgetAll);
  target.addEventListener('beforeunload', forgetTier);
  target.addEventListener('unload', forgetTier);
  return () => {
    target.removeEventListener('pagehide', forgetAll);
    target.removeEventListener('beforeunload', forgetTier);
    target.removeEventListener('unload', forgetTier);
  };
}
