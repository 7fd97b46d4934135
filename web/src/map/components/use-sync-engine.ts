import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useDeferredValue, useEffect, useEffectEvent, type RefObject } from 'react';
import type { MapEngine, MapLayoutInput, MapPlot, ReservedFootprint } from '../engine/engine.ts';

type Tile = { x: number; y: number };

export interface SyncEngineOptions {
  engineRef: RefObject<MapEngine | null>;
  layout: MapLayoutInput | null | undefined;
  plots: readonly MapPlot[];
  reservedFootprints: readonly ReservedFootprint[];
  selectedTier: Tier;
  /** Undefined: the map's own clicks place the pin; else the pin stands here (null: no pin). */
  selectedTile: Tile | null | undefined;
  /** What the engine's pin shows, to repaint it in a new tier's colour. */
  pinnedTileRef: RefObject<Tile | null>;
  selectTile: (tile: Tile | null, tier?: Tier) => void;
}

/** Hands the engine, through its setters, the data and the pin the component's props and queries describe. */
export function useSyncEngine({
  engineRef,
  layout,
  plots,
  reservedFootprints,
  selectedTier,
  selectedTile,
  pinnedTileRef,
  selectTile,
}: SyncEngineOptions): void {
  // The engine takes new data in a render of its own, after the one that shows it in the page's text: a query's
  // answer re-renders synchronously, and the engine's work on a layout (classifying 8,100 tiles) in that same task
  // made it one of the longest of the first load on a phone.
  const engineLayout = useDeferredValue(layout);
  const enginePlots = useDeferredValue(plots);

  useEffect(() => {
    engineRef.current?.setLayout(engineLayout ?? null);
    // A cleared map takes its selection with it.
    if (!engineLayout) selectTile(null);
  }, [engineRef, engineLayout, selectTile]);

  useEffect(() => {
    engineRef.current?.setPlots(enginePlots);
  }, [engineRef, enginePlots]);

  useEffect(() => {
    engineRef.current?.setReservedFootprints(reservedFootprints);
  }, [engineRef, reservedFootprints]);

  useEffect(() => {
    engineRef.current?.setSelectedTile(pinnedTileRef.current, selectedTier);
  }, [engineRef, pinnedTileRef, selectedTier]);

  const pinControlled = selectedTile !== undefined;
  const pinX = selectedTile?.x;
  const pinY = selectedTile?.y;
  // The pin's colour is the tier of the moment; the pin moves only when the coordinates do, not the object's identity.
  const pinTier = useEffectEvent(() => selectedTier);
  useEffect(() => {
    if (!pinControlled) return;
    selectTile(pinX === undefined || pinY === undefined ? null : { x: pinX, y: pinY }, pinTier());
  }, [pinControlled, pinX, pinY, selectTile]);
}
