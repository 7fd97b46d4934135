import { lazy, Suspense } from 'react';
import { MAP_PREVIEW_BOX_CLASS } from './map-preview-box.ts';
import type { MapPreviewProps } from './MapPreview.tsx';

/** The engine is most of the map's code: screens that show a preview fetch it only when they render one. */
const MapPreviewChunk = lazy(() => import('./MapPreview.tsx').then((module) => ({ default: module.MapPreview })));

/** MapPreview in its own chunk; until it arrives its box (same size) stands empty. */
export function LazyMapPreview(props: MapPreviewProps) {
  return (
    <Suspense fallback={<div aria-hidden="true" className={`${MAP_PREVIEW_BOX_CLASS} ${props.className ?? ''}`} />}>
      <MapPreviewChunk {...props} />
    </Suspense>
  );
}
