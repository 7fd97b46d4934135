import { MapStatusOverlay } from '../../map/components/MapStatusOverlay.tsx';
import { SITE_NAME } from '../../lib/site.ts';
import { CLAIM_SECTION_ID } from '../../lib/tier-guidance.ts';

const noRetry = () => {};

/**
 * What fills the first screen until the map's code arrives. It is also part of the HTML prerendered at build
 * time, so a phone shows the strip and a way to the claim section before any script runs.
 */
export function MapPlaceholder() {
  return (
    <div className="relative h-full w-full bg-night">
      <div className="absolute inset-x-0 top-0 z-20 flex flex-wrap items-center justify-center gap-x-4 gap-y-2 border-b-2 border-border bg-panel px-4 py-3 text-center">
        <p className="text-sm text-ink">{SITE_NAME} is a pixel-art fantasy map of the internet.</p>
        <a href={`#${CLAIM_SECTION_ID}`} className="font-pixel text-xs text-gold underline underline-offset-4">
          Claim your place
        </a>
      </div>
      <MapStatusOverlay state="loading" onRetry={noRetry} />
    </div>
  );
}
