import type { Region } from '@pixel-atlas/contracts/regions';
import { TIER_COLOR, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { detectTouchDevice, screenToTile, zoomLimitsFor, type ScreenPoint, type ScreenRect, type ZoomLimits } from './camera.ts';
import { createCameraControl, viewOf } from './camera-control.ts';
import { browserCanvasFactory, type CanvasFactory } from './canvas-factory.ts';
import { createFrameDrawer } from './frame-drawer.ts';
import { browserFrameDeps, createFrameScheduler, type FrameSchedulerDeps } from './frame-scheduler.ts';
import { createHitTesting } from './hit-testing.ts';
import { createIdlePrerender } from './idle-prerender.ts';
import type { ImageLoader } from './image-cache.ts';
import { attachMapInput } from './input.ts';
import { createLabelPlacement, whenLabelFontLoads } from './label-placement.ts';
import { createLayerCache } from './layer-cache.ts';
import { layoutBox } from './layout-box.ts';
import type { LevelOfDetail } from './level-of-detail.ts';
import { createMapInputTarget } from './map-input-target.ts';
import { createMapPainter } from './map-painter.ts';
import { createOverlayLayer } from './overlay.ts';
import { createOverlayPainter } from './overlay-painter.ts';
import type { MapPlot } from './plot-index.ts';
import type { ReservedFootprint } from './reserved-layer.ts';
import { createSceneData } from './scene-data.ts';
import { createSceneState, type MapLayoutInput } from './scene.ts';
import { browserTerrainWorker, type TerrainWorkerFactory } from './terrain-worker-client.ts';
import { createWorldSource } from './world-source.ts';

export { ZOOM_STEP } from './camera-control.ts';

export type { MapPlot } from './plot-index.ts';
export type { ScreenRect } from './camera.ts';
export type { ReservedFootprint } from './reserved-layer.ts';

export type { MapLayoutInput } from './scene.ts';

export interface TileClick {
  x: number;
  y: number;
  isLand: boolean;
  plot: MapPlot | null;
  /** Land held while someone pays, or under review: not for sale now (the reason says why). Null or absent: not reserved. */
  reserved?: ReservedFootprint | null;
}

export interface MapView {
  /** Tile coordinates (fractional) at the centre of the view. */
  centerX: number;
  centerY: number;
  zoom: number;
  lod: LevelOfDetail;
}

export interface MapEngineOptions {
  /** Touch devices get the spec's touch zoom limits; detected from the window when omitted. */
  isTouch?: boolean;
  onTileClick?: (click: TileClick) => void;
  /** Screen positions are client (viewport) coordinates, ready for a fixed-position card. */
  onPlotHover?: (plot: MapPlot | null, screen: ScreenPoint) => void;
  /** The pointer entered (or left, with null) reserved land; client coordinates like onPlotHover. */
  onReservedHover?: (footprint: ReservedFootprint | null, screen: ScreenPoint) => void;
  onRegionLabelHover?: (region: Region | null, screen: ScreenPoint) => void;
  onViewChange?: (view: MapView) => void;
  /** The user started something on the map: a drag, pinch, tap, wheel or key (e.g. to retire a gesture guide). */
  onInteraction?: () => void;
  /**
   * A transparent canvas stacked exactly over the map canvas (pointer-events: none): the pin, the
   * hovered label and the keyboard reticle are drawn there, so they never repaint the map. Without
   * one they are drawn on the map canvas, which then repaints for them too.
   */
  overlay?: HTMLCanvasElement | null;
  devicePixelRatio?: () => number;
  createSurface?: CanvasFactory;
  loadImage?: ImageLoader;
  frames?: FrameSchedulerDeps;
  prefersReducedMotion?: () => boolean;
  /** Where the label font comes from; its load triggers a redraw with the pixel font. */
  fonts?: Pick<FontFaceSet, 'load'> | null;
  /** Called after every draw with its duration in ms (benchmarks, diagnostics). */
  onFrameDrawn?: (drawMs: number) => void;
  /** Runs background work (pre-rendering the remaining terrain chunks) when the page is idle. */
  scheduleIdle?: (work: () => void) => () => void;
  /**
   * Starts the worker that classifies and rasterises the terrain (browserTerrainWorker by default); a factory that
   * returns null keeps that work on the main thread, in short slices (tests, browsers without Worker).
   */
  terrainWorker?: TerrainWorkerFactory;
}

export interface MapEngine {
  setLayout(layout: MapLayoutInput | null): void;
  setPlots(plots: readonly MapPlot[]): void;
  /** Land held while someone pays or under review: hatched on the map, and `reserved` in tile clicks. */
  setReservedFootprints(footprints: readonly ReservedFootprint[]): void;
  setSelectedTile(tile: { x: number; y: number } | null, tier?: Tier): void;
  zoomIn(): void;
  zoomOut(): void;
  resetView(): void;
  /**
   * Animated move to tile (x, y) (the centre of a `size`×`size` footprint, fractional allowed) at `zoom`:
   * centred, or in the largest part of the map no occluded rect covers when the centre is under one.
   */
  flyTo(x: number, y: number, zoom: number, options?: { size?: number }): void;
  /**
   * Screen rects (CSS px, relative to the canvas) that the page's chrome covers: panels, controls,
   * dialogs. Region labels are not drawn under them, and flights land clear of them.
   */
  setOccludedRects(rects: readonly ScreenRect[]): void;
  /** Pans (at the current zoom) so the footprint with top-left (x, y) and its pin are on screen and clear of the occluded rects; nothing when they already are. */
  revealTile(x: number, y: number, size?: number): void;
  /** Re-reads the canvas's CSS size and the device pixel ratio. */
  resize(): void;
  tileAt(clientX: number, clientY: number): { x: number; y: number } | null;
  plotAt(tileX: number, tileY: number): MapPlot | null;
  getView(): MapView;
  readonly limits: ZoomLimits;
  destroy(): void;
}

/**
 * The map engine: orchestration only. It owns the scene state (scene.ts), turns input and setters into
 * state changes, and runs at most one draw per animation frame (frame-drawer.ts), none when nothing changed:
 * - the map canvas shows the cached static layers (map-painter.ts over layer-cache.ts, painted by
 *   static-layers.ts): a camera move re-blits them, a data or zoom-bucket change rebuilds the tiles concerned;
 * - the overlay canvas (overlay-painter.ts) shows the pin, the hovered label and the keyboard reticle, and is
 *   the only thing repainted when only they change.
 * The camera and its flights are camera-control.ts's; what lies under the pointer, hit-testing.ts's.
 */
export function createMapEngine(canvas: HTMLCanvasElement, options: MapEngineOptions = {}): MapEngine {
  const limits = zoomLimitsFor(options.isTouch ?? detectTouchDevice());
  const createSurface = options.createSurface ?? browserCanvasFactory;
  const frames = options.frames ?? browserFrameDeps();
  const devicePixelRatio = options.devicePixelRatio ?? (() => window.devicePixelRatio || 1);
  const prefersReducedMotion =
    options.prefersReducedMotion ?? (() => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false);

  const scene = createSceneState(limits);
  const layers = createLayerCache(createSurface);
  const overlayLayer = options.overlay ? createOverlayLayer(options.overlay) : null;
  // Opaque: the layers cover every pixel, and the browser composites an opaque canvas without blending.
  const ctx = canvas.getContext('2d', { alpha: false });
  // Every part asks for frames here; the frame itself is drawn by drawFrame, made once the parts exist.
  const scheduler = createFrameScheduler((time) => drawFrame(time), frames);
  const requestFrame = () => scheduler.invalidate();
  const now = () => frames.now();

  const world = createWorldSource({
    scene,
    createSurface,
    loadImage: options.loadImage,
    onImageLoad: () => {
      layers.imagesLoaded();
      map.invalidate();
    },
  });
  const idle = createIdlePrerender({ scene, layers, world: world.current, scheduleIdle: options.scheduleIdle });
  const labels = createLabelPlacement(scene, ctx);
  const overlay = createOverlayPainter({ scene, layer: overlayLayer, prefersReducedMotion, requestFrame });
  const map = createMapPainter({ canvas, scene, layers, world, labels, overlay, idle, now, requestFrame });
  const camera = createCameraControl({ scene, limits, now, prefersReducedMotion, requestFrame });
  const drawFrame = createFrameDrawer({ ctx, scene, camera, map, overlay, events: options });
  const loading = { createSurface, terrainWorker: options.terrainWorker ?? browserTerrainWorker, onTerrainArrived: requestFrame };
  const data = createSceneData({ scene, loading, layers, world, map, idle });

  prepareCanvas(canvas);
  whenLabelFontLoads(options.fonts, () => {
    labels.fontLoaded();
    layers.invalidateLabels();
    layers.invalidate();
    map.invalidate();
  });
  const hits = createHitTesting({ canvas, scene, events: options, hoveredRegionChanged: overlay.invalidate });
  const onInteraction = () => options.onInteraction?.();
  const detachInput = attachMapInput(canvas, createMapInputTarget({ scene, camera, hits, overlay, onInteraction }));

  return {
    limits,
    ...data,
    setSelectedTile(tile, tier = 'basic') {
      scene.selected = tile ? { x: tile.x, y: tile.y, colour: TIER_COLOR[tier].hex, since: frames.now() } : null;
      overlay.invalidate();
    },
    zoomIn: () => camera.zoomStep(1),
    zoomOut: () => camera.zoomStep(-1),
    resetView: camera.resetView,
    flyTo: camera.flyTo,
    revealTile: camera.revealTile,
    resize() {
      const box = layoutBox(canvas);
      const width = box.width || canvas.clientWidth;
      const height = box.height || canvas.clientHeight;
      const ratio = Math.min(3, Math.max(1, devicePixelRatio()));
      if (width === scene.viewport.width && height === scene.viewport.height && ratio === scene.dpr) return;
      scene.viewport = { width, height };
      scene.dpr = ratio;
      scheduler.invalidate();
      // Resizing the backing store clears it: redraw now rather than show a blank frame.
      scheduler.flush();
    },
    tileAt(clientX, clientY) {
      const box = layoutBox(canvas);
      return screenToTile(scene.camera, scene.viewport, clientX - box.left, clientY - box.top);
    },
    plotAt: (tileX, tileY) => scene.plots.plotAt(tileX, tileY),
    getView: () => viewOf(scene.camera),
    destroy() {
      detachInput();
      scheduler.destroy();
      idle.stop();
      scene.layout?.terrain.dispose();
      world.clear();
      layers.clear();
    },
  };
}

function prepareCanvas(canvas: HTMLCanvasElement): void {
  canvas.style.touchAction = 'none';
  // The compositor's scale of a moving zoom keeps the pixel art's hard edges (at rest the canvas is never scaled).
  canvas.style.imageRendering = 'pixelated';
  if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = 0;
}
