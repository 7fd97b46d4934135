import { MapStatusOverlay } from '../../map/components/MapStatusOverlay.tsx';

const noRetry = () => {};

/**
 * What fills the map's box until the map's code arrives. It is also part of the HTML prerendered at build time;
 * the strip above it (atlas-strip.tsx) already carries the promise and the way to the claim section.
 */
export function MapPlaceholder() {
  return (
    // data-map-boot: where the home page's boot (src/boot/home-map-boot.ts) draws the map before the app loads.
    <div className="relative h-full w-full bg-night" data-map-boot="">
      <MapStatusOverlay state="loading" onRetry={noRetry} />
    </div>
  );
}
