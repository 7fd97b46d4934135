import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import type { MapTile } from '@pixel-atlas/contracts/map';
import type { Region } from '@pixel-atlas/contracts/regions';
import { initialCamera, type Camera, type ScreenRect, type Viewport, type ZoomLimits } from './camera.ts';
import type { CanvasFactory } from './canvas-factory.ts';
import type { Flight } from './fly-to.ts';
import { createPlotIndex, type PlotIndex } from './plot-index.ts';
import type { PlacedLabel } from './region-labels.ts';
import { createReservedIndex, type ReservedIndex } from './reserved-layer.ts';
import { terrainMasks } from './terrain-classify.ts';
import { createTerrainRenderer, type TerrainRenderer } from './terrain-renderer.ts';
import type { TerrainWorkerFactory } from './terrain-worker-client.ts';

export interface MapLayoutInput {
  tiles: readonly MapTile[];
  regions: readonly Region[];
}

/** What the static layers are made of: it changes only when data arrives (layout, plots, fonts). */
export interface LoadedLayout {
  regions: readonly Region[];
  land: Uint8Array;
  terrain: TerrainRenderer;
}

/**
 * The engine's whole state in one place. Two kinds of change, two kinds of redraw:
 * - static: layout, plots, reserved land, camera, viewport → the cached layers are re-blitted (and rebuilt only when
 *   data or the zoom they were rendered at change);
 * - overlay: selection pin, hovered label, keyboard reticle → only the overlay canvas is repainted.
 */
export interface SceneState {
  viewport: Viewport;
  dpr: number;
  camera: Camera;
  flight: Flight | null;
  layout: LoadedLayout | null;
  plots: PlotIndex;
  /** Land held while someone pays or under review: hatched, and refused at the click. */
  reserved: ReservedIndex;
  /** Where the region labels were placed in the last frame (CSS px): hit testing reads it. */
  placedLabels: PlacedLabel[];
  selected: { x: number; y: number; colour: string; since: number } | null;
  hoveredRegion: Region | null;
  keyboardFocus: boolean;
  /** Screen rects (CSS px) the page's chrome covers: labels are left out from under them, flights land clear of them. */
  occluded: readonly ScreenRect[];
}

export function createSceneState(limits: ZoomLimits): SceneState {
  return {
    viewport: { width: 0, height: 0 },
    dpr: 1,
    camera: initialCamera(limits),
    flight: null,
    layout: null,
    plots: createPlotIndex([]),
    reserved: createReservedIndex([]),
    placedLabels: [],
    selected: null,
    hoveredRegion: null,
    keyboardFocus: false,
    occluded: [],
  };
}

export interface LayoutLoading {
  createSurface: CanvasFactory;
  /** Null: terrain on the main thread. */
  terrainWorker: TerrainWorkerFactory;
  /** A terrain chunk a frame waited for has come from the worker. */
  onTerrainArrived: () => void;
}

export function loadLayout(input: MapLayoutInput, loading: LayoutLoading): LoadedLayout {
  const masks = terrainMasks(input.tiles, GRID_SIZE);
  const terrain = createTerrainRenderer(
    {
      // The worker gets copies: hit testing keeps reading this land mask.
      masks,
      labelPoints: input.regions.map((region) => region.focus),
      worker: loading.terrainWorker(),
      onChunkArrived: loading.onTerrainArrived,
    },
    loading.createSurface,
  );
  return { regions: input.regions, land: masks.land, terrain };
}
