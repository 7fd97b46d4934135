import { MapStatusOverlay } from '../../map/components/MapStatusOverlay.tsx';

const noRetry = () => {};

/**
 * What fills the map's box until the map's code arrives. It is also part of the HTML prerendered at build time;
 * the strip above it (atlas-strip.tsx) already carries the promise and the way to the claim section.
 */
export function MapPlaceholder() {
  return (
    <div className="relative h-full w-full bg-night">
      <MapStatusOverlay state="loading" onRetry={noRetry} />
    </div>
  );
}
