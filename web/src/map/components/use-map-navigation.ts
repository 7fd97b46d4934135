import { NAVIGATE_TO_REGION_EVENT, REGION_FOCUS_ZOOM } from '@pixel-atlas/contracts/region-catalog';
import { useEffect, useEffectEvent, type RefObject } from 'react';
import type { MapEngine } from '../engine/engine.ts';
import { isRevealMapTileDetail, REVEAL_MAP_TILE_EVENT } from './map-reveal.ts';
import { flightFootprintSize, isNavigateToRegionDetail } from './region-navigation.ts';
import type { useMapOccluders } from './use-map-occluders.ts';

/**
 * Moves the map for the rest of the page: a region chosen elsewhere (the map flies there) and a tile a dialog
 * is about (the map pans it into view beside the dialog). Both land clear of the map's chrome as it is then.
 */
export function useMapNavigation(
  engineRef: RefObject<MapEngine | null>,
  occluders: ReturnType<typeof useMapOccluders>,
  onNavigateToRegion: () => void,
): void {
  const navigating = useEffectEvent(onNavigateToRegion);

  useEffect(() => {
    const onNavigate = (event: Event) => {
      const detail = (event as CustomEvent).detail;
      if (!isNavigateToRegionDetail(detail)) return;
      navigating();
      // Lands clear of the panels as they are now (a menu that just closed, a card that just went).
      occluders.measure();
      engineRef.current?.flyTo(detail.x, detail.y, detail.zoom ?? REGION_FOCUS_ZOOM, { size: flightFootprintSize(detail) });
    };
    window.addEventListener(NAVIGATE_TO_REGION_EVENT, onNavigate);
    return () => window.removeEventListener(NAVIGATE_TO_REGION_EVENT, onNavigate);
  }, [engineRef, occluders]);

  useEffect(() => {
    const onReveal = (event: Event) => {
      const detail = (event as CustomEvent).detail;
      if (!isRevealMapTileDetail(detail)) return;
      const besides = detail.besides ?? null;
      if (besides) occluders.keepClearOf(besides);
      // A dialog still sliding or fading in is measured where it comes to rest.
      void settled(besides).then(() => {
        occluders.measure();
        engineRef.current?.revealTile(detail.x, detail.y, detail.size ?? 1);
      });
    };
    window.addEventListener(REVEAL_MAP_TILE_EVENT, onReveal);
    return () => window.removeEventListener(REVEAL_MAP_TILE_EVENT, onReveal);
  }, [engineRef, occluders]);
}

/** Resolves once the element's running animations (a dialog's entrance) have finished. */
async function settled(element: Element | null): Promise<void> {
  const animations = element?.getAnimations?.({ subtree: true }) ?? [];
  await Promise.all(animations.map((animation) => animation.finished.catch(() => undefined)));
}
