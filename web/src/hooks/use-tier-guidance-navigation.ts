import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { startTierGuidance, type TierGuidanceDetail } from '../lib/tier-guidance.ts';

/** Router state key that carries a guidance request from another screen to the home page. */
const PENDING_GUIDANCE_STATE = 'pendingTierGuidance';

/**
 * The 'Claim Your Tile' action from anywhere: on '/' it runs at once; elsewhere it navigates home
 * first and the home page runs it after mounting, so the map's listener exists when the event fires.
 */
export function useStartTierGuidance(): (detail?: TierGuidanceDetail) => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(
    (detail: TierGuidanceDetail = {}) => {
      if (pathname === '/') {
        startTierGuidance(detail);
        return;
      }
      void navigate('/', { state: { [PENDING_GUIDANCE_STATE]: detail } });
    },
    [navigate, pathname],
  );
}

/** Used once by the home page: runs a guidance request carried over from another screen. */
export function useRunPendingTierGuidance(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const pending = (location.state as Record<string, TierGuidanceDetail> | null)?.[PENDING_GUIDANCE_STATE];
  // Effects may run twice for one navigation (StrictMode); the guidance must fire once.
  const handledNavigationKey = useRef<string | null>(null);
  useEffect(() => {
    if (!pending || handledNavigationKey.current === location.key) return;
    handledNavigationKey.current = location.key;
    startTierGuidance(pending);
    // Forget it so going back/forward does not reopen the guidance.
    void navigate({ pathname: location.pathname, hash: location.hash }, { replace: true, state: null });
  }, [pending, navigate, location.key, location.pathname, location.hash]);
}
