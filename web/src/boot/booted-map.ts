import type { AtlasPlot } from '../map/components/atlas-plot.ts';
import type { MapEngine, MapEngineOptions, MapLayoutInput, ReservedFootprint } from '../map/engine/engine.ts';

/** The engine's events the app answers; before it has loaded, none is answered (the map pans and zooms on its own). */
export type BootedMapHandlers = Pick<
  MapEngineOptions,
  'onTileClick' | 'onPlotHover' | 'onReservedHover' | 'onRegionLabelHover' | 'onInteraction'
>;

/**
 * The home map drawn by the boot (home-map-boot.ts) before the app loaded, waiting for the app's map component to take
 * it over: its canvases (with their pixels) and its engine, so the app makes neither a second engine nor a second fetch.
 */
/** What the booted engine was given (undefined: not yet). */
export interface BootedMapData {
  layout?: MapLayoutInput | null;
  plots?: readonly AtlasPlot[];
  reserved?: readonly ReservedFootprint[];
}

export interface BootedMap {
  engine: MapEngine;
  /** What the engine shows now. */
  shown: BootedMapData;
  /** Ends the boot's data feeding: the app's from now on (its queries get the same answers, from the same requests). */
  stopFeeding(): void;
  canvas: HTMLCanvasElement;
  overlay: HTMLCanvasElement;
  /** Hands the engine's events to the app, and ends the boot's own sizing (the app's from now on). */
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

/**
 * For the app's first render of the map: what the booted map shows, so that render shows it too (the queries are still
 * pending then, to hydrate the page as it was prerendered). From this call on the boot feeds the engine nothing more.
 */
export function bootedMapData(): BootedMapData | null {
  if (!waiting) return null;
  waiting.stopFeeding();
  return { ...waiting.shown };
}

/** The booted map, once: a later mount of the map makes its own engine, as without a boot. */
export function takeBootedMap(): BootedMap | null {
  const map = waiting;
  waiting = null;
  return map;
}
