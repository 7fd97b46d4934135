import type { MapEngine, MapEngineOptions } from '../map/engine/engine.ts';

/** The engine's events the app answers; before it has loaded, none is answered (the map pans and zooms on its own). */
export type BootedMapHandlers = Pick<
  MapEngineOptions,
  'onTileClick' | 'onPlotHover' | 'onReservedHover' | 'onRegionLabelHover' | 'onInteraction'
>;

/**
 * The home map drawn by the boot (home-map-boot.ts) before the app loaded, waiting for the app's map component to take
 * it over: its canvases (with their pixels) and its engine, so the app makes neither a second engine nor a second fetch.
 */
export interface BootedMap {
  engine: MapEngine;
  canvas: HTMLCanvasElement;
  overlay: HTMLCanvasElement;
  /** Hands the engine's events to the app, and ends the boot's own sizing and data feeding (the app's from now on). */
  adopt(handlers: BootedMapHandlers): void;
}

/** The map canvas's name for assistive technology: the app's canvas and the boot's carry the same. */
export const MAP_CANVAS_LABEL =
  'Interactive pixel map of the atlas. Drag or use the arrow keys to explore, plus and minus to zoom, 0 to reset, Enter to choose the tile under the cross.';

let waiting: BootedMap | null = null;

export function offerBootedMap(map: BootedMap): void {
  waiting = map;
}

/** Whether a booted map waits to be taken (the home screen is then hydrated only once the map's code is in). */
export function hasBootedMap(): boolean {
  return waiting !== null;
}

/** The booted map, once: a later mount of the map makes its own engine, as without a boot. */
export function takeBootedMap(): BootedMap | null {
  const map = waiting;
  waiting = null;
  return map;
}
