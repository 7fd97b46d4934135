import { Suspense, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { lazyComponent } from '../lib/lazy-component.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { useRunPendingTierGuidance } from '../hooks/use-tier-guidance-navigation.ts';
import { SITE_NAME } from '../lib/site.ts';
import { MAP_ELEMENT_ID } from '../lib/tier-guidance.ts';
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

  return (
    <>
      <section id={MAP_ELEMENT_ID} aria-label="Atlas map" className="relative flex h-dvh flex-col pt-16">
        <AtlasStrip />
        {/* The map takes what the strip leaves: the strip sits above it, never over it. */}
        <div className="relative min-h-0 flex-1">
          <Suspense fallback={<MapPlaceholder />}>
            <HomeMap />
          </Suspense>
        </div>
      </section>
      <ClaimSection />
    </>
  );
}

/** Links such as /#claim-tile land on the section: the router does not scroll to hashes itself. */
function useScrollToHashTarget(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ behavior: 'smooth' });
  }, [hash]);
}
