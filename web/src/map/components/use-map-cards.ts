import type { Region } from '@pixel-atlas/contracts/regions';
import { useEffect, useState } from 'react';
import type { ReservedFootprint } from '../engine/engine.ts';
import type { AtlasPlot } from './atlas-plot.ts';

/** A card and the point (client px) it hangs from; null: no card. */
export type Anchored<T> = { item: T; anchor: { x: number; y: number } } | null;

/** The cards over the map: a region's (hovered or tapped label), a hovered plot's and hovered reserved land's. Escape closes the first two. */
export function useMapCards() {
  const [regionCard, setRegionCard] = useState<Anchored<Region>>(null);
  const [plotCard, setPlotCard] = useState<Anchored<AtlasPlot>>(null);
  const [reservedCard, setReservedCard] = useState<Anchored<ReservedFootprint>>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setRegionCard(null);
      setPlotCard(null);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return { regionCard, setRegionCard, plotCard, setPlotCard, reservedCard, setReservedCard };
}
