import { lazy, Suspense, useSyncExternalStore } from 'react';
import { MAP_PREVIEW_BOX_CLASS } from './map-preview-box.ts';
import type { MapPreviewProps } from './MapPreview.tsx';

/** The engine is most of the map's code: screens that show a preview fetch it only when they render one. */
const MapPreviewChunk = lazy(() => import('./MapPreview.tsx').then((module) => ({ default: module.MapPreview })));

interface LazyMapPreviewProps extends MapPreviewProps {
  /**
   * A picture of the same place for browsers without JavaScript (a server-rendered page read by a crawler or with
   * scripts off), shown in the box in a <noscript>: no map would ever come to fill it.
   */
  noScriptImage?: { src: string; alt: string };
}

const subscribeToNothing = () => () => {};

/**
 * True once the app runs in a browser and has hydrated: on the server, and in the hydrating render, false. The map is
 * a canvas the server cannot draw, and whether React.lazy's chunk happens to be loaded on the server must not change
 * the page it sends (the first render of a process would send the empty box, later ones a blank canvas).
 */
function useInBrowser(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/** MapPreview in its own chunk; until it arrives (and on the server) its box, the same size, stands in. */
export function LazyMapPreview({ noScriptImage, ...props }: LazyMapPreviewProps) {
  const inBrowser = useInBrowser();
  const box = `${MAP_PREVIEW_BOX_CLASS} ${props.className ?? ''}`;
  const placeholder = noScriptImage ? (
    <div className={box}>
      <noscript>
        <img src={noScriptImage.src} alt={noScriptImage.alt} className="h-full w-full object-cover" />
      </noscript>
    </div>
  ) : (
    <div aria-hidden="true" className={box} />
  );
  if (!inBrowser) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <MapPreviewChunk {...props} />
    </Suspense>
  );
}
