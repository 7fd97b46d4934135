import { Suspense, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { lazyComponent } from '../lib/lazy-component.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { useRunPendingTierGuidance } from '../hooks/use-tier-guidance-navigation.ts';
import { SITE_NAME } from '../lib/site.ts';
import { MAP_ELEMENT_ID, TIER_GUIDANCE_EVENT, dispatchTierGuidance, type TierGuidanceDetail } from '../lib/tier-guidance.ts';
import { AtlasStrip } from './home/atlas-strip.tsx';
import { ClaimSection } from './home/claim-section.tsx';
import { MapPlaceholder } from './home/map-placeholder.tsx';

/** The map engine and the dialogs it opens are most of the app's code: they load after the first paint. */
export const HomeMap = lazyComponent(() => import('./home/home-map.tsx'), 'HomeMap');

/** Spec section 2: the product name followed by this. */
const HOME_TITLE_SUFFIX = ' - An Interactive Fantasy Map of the Internet';
const HOME_DESCRIPTION = `${SITE_NAME} is a pixel-art fantasy map of the internet. Explore creators' plots, then claim your own tile with an avatar, a message and a link to your site.`;

export function HomePage() {
  usePageMeta(`${SITE_NAME}${HOME_TITLE_SUFFIX}`, HOME_DESCRIPTION);
  useRunPendingTierGuidance();
  useScrollToHashTarget();
  const mapMounted = useGuidanceKeptUntilMapMounts();

  return (
    <>
      <section id={MAP_ELEMENT_ID} aria-label="Atlas map" className="relative flex h-dvh flex-col pt-16">
        <AtlasStrip />
        {/* The map takes what the strip leaves: the strip sits above it, never over it. */}
        <div className="relative min-h-0 flex-1">
          <Suspense fallback={<MapPlaceholder />}>
            <HomeMap />
            <OnMount run={mapMounted} />
          </Suspense>
        </div>
      </section>
      <ClaimSection />
    </>
  );
}

/**
 * Tier cards and 'Claim Your Tile' raise the guidance event at once, but the dialog that answers it lives in the lazy
 * map chunk: a click made before that chunk has mounted (a fast tap on a slow phone) is kept and raised again as soon
 * as it has, instead of doing nothing. Returns what to call once the map is mounted.
 */
function useGuidanceKeptUntilMapMounts(): () => void {
  const mapMounted = useRef(false);
  const missed = useRef<TierGuidanceDetail | null>(null);
  // A layout effect: listening from the commit that shows the cards, before any (replayed) click can reach them.
  useLayoutEffect(() => {
    const onGuidance = (event: Event) => {
      if (!mapMounted.current) missed.current = (event as CustomEvent<TierGuidanceDetail | undefined>).detail ?? {};
    };
    window.addEventListener(TIER_GUIDANCE_EVENT, onGuidance);
    return () => window.removeEventListener(TIER_GUIDANCE_EVENT, onGuidance);
  }, []);
  return useCallback(() => {
    mapMounted.current = true;
    const detail = missed.current;
    missed.current = null;
    if (detail) dispatchTierGuidance(detail);
  }, []);
}

/** Rendered after HomeMap inside its Suspense boundary: its effect runs once the map's own listeners are in place. */
function OnMount({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/** Links such as /#claim-tile land on the section: the router does not scroll to hashes itself. */
function useScrollToHashTarget(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ behavior: 'smooth' });
  }, [hash]);
}
