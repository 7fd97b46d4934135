import { GRID_SIZE, TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import type { MapTile } from '@pixel-atlas/contracts/map';
import type { Region } from '@pixel-atlas/contracts/regions';
import { TIER_COLOR, type Tier } from '@pixel-atlas/contracts/tiers';
import {
  cameraOnTile,
  camerasEqual,
  clampCamera,
  detectTouchDevice,
  initialCamera,
  panBy,
  pinchStep,
  screenToTile,
  worldToScreen,
  WORLD_SIZE_PX,
  zoomAbout,
  zoomLimitsFor,
  type Camera,
  type ScreenPoint,
  type Viewport,
  type ZoomLimits,
} from './camera.ts';
import { browserCanvasFactory, type CanvasFactory, type Surface } from './canvas-factory.ts';
import { cameraAlongFlight, planFlight, type Flight } from './fly-to.ts';
import { browserFrameDeps, createFrameScheduler, type FrameSchedulerDeps } from './frame-scheduler.ts';
import { createImageCache, type ImageLoader } from './image-cache.ts';
import { attachMapInput, type MapInputTarget } from './input.ts';
import { chooseLevelOfDetail, tileScreenSize, type LevelOfDetail } from './level-of-detail.ts';
import { drawMapPin, PIN_BOUNCE_MS, pinBounceOffset, pinRadius } from './map-pin.ts';
import { createPlotIndex, type MapPlot, type PlotIndex } from './plot-index.ts';
import { drawPlots, paintPlotMarkers } from './plot-layer.ts';
import { drawRegionLabels, LABEL_FONT_FAMILY, labelAt, layoutRegionLabels, type PlacedLabel } from './region-labels.ts';
import { classifyTerrain } from './terrain-classify.ts';
import { SEA } from './terrain-palette.ts';
import { createTerrainRenderer, OVERVIEW_TILE_PX, type TerrainRenderer } from './terrain-renderer.ts';

export type { MapPlot } from './plot-index.ts';

/** Zoom factor of one zoom-in / zoom-out step (buttons, keys, double-click). */
export const ZOOM_STEP = 1.5;
const STEP_FLIGHT_MS = 220;

export interface MapLayoutInput {
  tiles: readonly MapTile[];
  regions: readonly Region[];
}

export interface TileClick {
  x: number;
  y: number;
  isLand: boolean;
  plot: MapPlot | null;
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
  onRegionLabelHover?: (region: Region | null, screen: ScreenPoint) => void;
  onViewChange?: (view: MapView) => void;
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
}

export interface MapEngine {
  setLayout(layout: MapLayoutInput | null): void;
  setPlots(plots: readonly MapPlot[]): void;
  setSelectedTile(tile: { x: number; y: number } | null, tier?: Tier): void;
  zoomIn(): void;
  zoomOut(): void;
  resetView(): void;
  /** Animated move that centres tile (x, y) at `zoom`. */
  flyTo(x: number, y: number, zoom: number): void;
  /** Re-reads the canvas's CSS size and the device pixel ratio. */
  resize(): void;
  tileAt(clientX: number, clientY: number): { x: number; y: number } | null;
  plotAt(tileX: number, tileY: number): MapPlot | null;
  getView(): MapView;
  readonly limits: ZoomLimits;
  destroy(): void;
}

interface LoadedLayout {
  regions: readonly Region[];
  land: Uint8Array;
  terrain: TerrainRenderer;
}

export function createMapEngine(canvas: HTMLCanvasElement, options: MapEngineOptions = {}): MapEngine {
  const limits = zoomLimitsFor(options.isTouch ?? detectTouchDevice());
  const createSurface = options.createSurface ?? browserCanvasFactory;
  const frames = options.frames ?? browserFrameDeps();
  const devicePixelRatio = options.devicePixelRatio ?? (() => window.devicePixelRatio || 1);
  const prefersReducedMotion =
    options.prefersReducedMotion ?? (() => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false);
  const scheduleIdle = options.scheduleIdle ?? defaultScheduleIdle;

  let viewport: Viewport = { width: 0, height: 0 };
  let dpr = 1;
  let camera: Camera = initialCamera(limits);
  let flight: Flight | null = null;
  let layout: LoadedLayout | null = null;
  let plotIndex: PlotIndex = createPlotIndex([]);
  let farComposite: (Surface & CanvasImageSource) | null = null;
  let selected: { x: number; y: number; colour: string; since: number } | null = null;
  let hoveredPlot: MapPlot | null = null;
  let hoveredRegion: Region | null = null;
  let placedLabels: PlacedLabel[] = [];
  let keyboardFocus = false;
  let lastEmittedView: Camera | null = null;
  let cancelWarmUp: (() => void) | null = null;
  let destroyed = false;
  const textWidths = new Map<string, number>();

  const ctx = canvas.getContext('2d');
  const images = createImageCache({ load: options.loadImage, onLoad: () => scheduler.invalidate() });
  const scheduler = createFrameScheduler(draw, frames);

  canvas.style.touchAction = 'none';
  if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = 0;

  options.fonts
    ?.load(`10px ${LABEL_FONT_FAMILY}`)
    .then(() => {
      textWidths.clear();
      scheduler.invalidate();
    })
    .catch(() => {});

  function measureText(text: string, fontPx: number): number {
    const key = `${fontPx}:${text}`;
    const cached = textWidths.get(key);
    if (cached !== undefined) return cached;
    let width = text.length * fontPx;
    if (ctx) {
      ctx.font = `${fontPx}px ${LABEL_FONT_FAMILY}`;
      width = ctx.measureText(text).width || width;
    }
    textWidths.set(key, width);
    return width;
  }

  /** Where the camera is heading: zoom steps compose with a flight still under way. */
  const destination = () => flight?.to ?? camera;

  function setCamera(next: Camera): void {
    const clamped = clampCamera(next, limits);
    if (camerasEqual(clamped, camera)) return;
    camera = clamped;
    scheduler.invalidate();
  }

  function startFlight(to: Camera, durationMs?: number): void {
    const target = clampCamera(to, limits);
    if (prefersReducedMotion() || viewport.width === 0) {
      flight = null;
      setCamera(target);
      return;
    }
    flight = planFlight(camera, target, viewport, frames.now(), durationMs);
    scheduler.invalidate();
  }

  function zoomStep(direction: 1 | -1, at?: ScreenPoint): void {
    const point = at ?? { x: viewport.width / 2, y: viewport.height / 2 };
    const factor = direction > 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
    startFlight(zoomAbout(destination(), viewport, limits, factor, point.x, point.y), STEP_FLIGHT_MS);
  }

  function resetView(): void {
    startFlight(initialCamera(limits), STEP_FLIGHT_MS * 1.5);
  }

  function emitHoverPlot(plot: MapPlot | null, point: ScreenPoint): void {
    if (plot?.id === hoveredPlot?.id) return;
    hoveredPlot = plot;
    options.onPlotHover?.(plot, toClient(point));
  }

  function emitHoverRegion(region: Region | null, point: ScreenPoint): void {
    if (region?.value === hoveredRegion?.value) return;
    hoveredRegion = region;
    options.onRegionLabelHover?.(region, toClient(point));
    scheduler.invalidate();
  }

  function toClient(point: ScreenPoint): ScreenPoint {
    const rect = canvas.getBoundingClientRect();
    return { x: rect.left + point.x, y: rect.top + point.y };
  }

  function tileUnder(point: ScreenPoint): TileClick | null {
    const tile = screenToTile(camera, viewport, point.x, point.y);
    if (!tile || !layout) return null;
    return { x: tile.x, y: tile.y, isLand: layout.land[tile.y * GRID_SIZE + tile.x] === 1, plot: plotIndex.plotAt(tile.x, tile.y) };
  }

  function clickAt(point: ScreenPoint): void {
    const label = labelAt(placedLabels, point.x, point.y);
    if (label) {
      // A tap on a label opens its card: nothing on the map needs hover to be reachable.
      hoveredRegion = null;
      emitHoverRegion(label.region, { x: label.x + label.width / 2, y: label.y + label.height });
      return;
    }
    const hit = tileUnder(point);
    if (hit) options.onTileClick?.(hit);
  }

  const inputTarget: MapInputTarget = {
    panBy(dx, dy) {
      flight = null;
      setCamera(panBy(camera, limits, dx, dy));
    },
    zoomAt(factor, x, y) {
      flight = null;
      setCamera(zoomAbout(camera, viewport, limits, factor, x, y));
    },
    pinch(previous, next) {
      flight = null;
      setCamera(pinchStep(camera, viewport, limits, previous, next));
    },
    zoomStep,
    resetView,
    tap: (x, y) => clickAt({ x, y }),
    hover(x, y) {
      const point = { x, y };
      const label = labelAt(placedLabels, x, y);
      emitHoverRegion(label?.region ?? null, label ? { x: label.x + label.width / 2, y: label.y + label.height } : point);
      const hit = label ? null : tileUnder(point);
      emitHoverPlot(hit?.plot ?? null, point);
      canvas.style.cursor = label || hit?.plot || hit?.isLand ? 'pointer' : 'grab';
    },
    leave() {
      emitHoverPlot(null, { x: 0, y: 0 });
      emitHoverRegion(null, { x: 0, y: 0 });
    },
    activateCenter: () => clickAt({ x: viewport.width / 2, y: viewport.height / 2 }),
    interactionStarted() {
      flight = null;
    },
    setKeyboardFocus(visible) {
      keyboardFocus = visible;
      scheduler.invalidate();
    },
  };
  const detachInput = attachMapInput(canvas, inputTarget);

  function ensureFarComposite(): (Surface & CanvasImageSource) | null {
    if (!layout) return null;
    if (farComposite) return farComposite;
    const overview = layout.terrain.overview();
    const surface = createSurface(overview.width, overview.height);
    const surfaceCtx = surface.getContext('2d');
    if (surfaceCtx) {
      surfaceCtx.drawImage(overview, 0, 0);
      paintPlotMarkers(surfaceCtx, plotIndex.plots, OVERVIEW_TILE_PX);
    }
    farComposite = surface;
    return surface;
  }

  function draw(time: number): boolean {
    if (!ctx || destroyed) return false;
    const started = options.onFrameDrawn ? performance.now() : 0;
    let animating = false;
    if (flight) {
      const step = cameraAlongFlight(flight, time);
      camera = clampCamera(step.camera, limits);
      if (step.done) flight = null;
      else animating = true;
    }

    const backingWidth = Math.max(1, Math.round(viewport.width * dpr));
    const backingHeight = Math.max(1, Math.round(viewport.height * dpr));
    if (canvas.width !== backingWidth) canvas.width = backingWidth;
    if (canvas.height !== backingHeight) canvas.height = backingHeight;

    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.fillStyle = SEA.abyss;
    ctx.fillRect(0, 0, backingWidth, backingHeight);

    const lod = chooseLevelOfDetail(camera.zoom);
    if (layout) {
      if (lod === 'far') {
        const composite = ensureFarComposite();
        if (composite) {
          const topLeft = worldToScreen(camera, viewport, 0, 0);
          const size = Math.round(WORLD_SIZE_PX * camera.zoom * dpr);
          ctx.drawImage(composite, Math.round(topLeft.x * dpr), Math.round(topLeft.y * dpr), size, size);
        }
      } else {
        layout.terrain.drawChunks(ctx, camera, viewport, dpr);
        drawPlots(ctx, plotIndex.plots, camera, viewport, dpr, images);
      }
    }

    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (selected) {
      const tilePx = tileScreenSize(camera.zoom);
      const tip = worldToScreen(camera, viewport, (selected.x + 0.5) * TILE_SIZE_PX, (selected.y + 0.75) * TILE_SIZE_PX);
      const radius = pinRadius(tilePx);
      const elapsed = time - selected.since;
      drawMapPin(ctx, tip.x, tip.y, radius, selected.colour, pinBounceOffset(elapsed, radius, prefersReducedMotion()));
      if (elapsed < PIN_BOUNCE_MS && !prefersReducedMotion()) animating = true;
    }
    if (layout) {
      placedLabels = layoutRegionLabels(layout.regions, camera, viewport, measureText);
      drawRegionLabels(ctx, placedLabels, hoveredRegion);
    }
    if (keyboardFocus) drawKeyboardReticle(ctx, camera, viewport);

    if (!lastEmittedView || !camerasEqual(lastEmittedView, camera)) {
      lastEmittedView = camera;
      options.onViewChange?.(viewOf(camera));
    }
    options.onFrameDrawn?.(performance.now() - started);
    return animating;
  }

  function warmUpTerrain(): void {
    cancelWarmUp?.();
    const step = () => {
      cancelWarmUp = null;
      if (!layout || destroyed) return;
      if (layout.terrain.prerenderNext()) cancelWarmUp = scheduleIdle(step);
    };
    cancelWarmUp = scheduleIdle(step);
  }

  const engine: MapEngine = {
    limits,
    setLayout(next) {
      farComposite = null;
      cancelWarmUp?.();
      cancelWarmUp = null;
      if (!next) {
        layout = null;
        placedLabels = [];
        scheduler.invalidate();
        return;
      }
      const land = new Uint8Array(GRID_SIZE * GRID_SIZE);
      for (const tile of next.tiles) if (tile.is_land) land[tile.y * GRID_SIZE + tile.x] = 1;
      const grid = classifyTerrain(next.tiles, GRID_SIZE, next.regions.map((region) => region.focus));
      layout = { regions: next.regions, land, terrain: createTerrainRenderer(grid, createSurface) };
      warmUpTerrain();
      scheduler.invalidate();
    },
    setPlots(plots) {
      plotIndex = createPlotIndex(plots);
      farComposite = null;
      scheduler.invalidate();
    },
    setSelectedTile(tile, tier = 'basic') {
      selected = tile ? { x: tile.x, y: tile.y, colour: TIER_COLOR[tier].hex, since: frames.now() } : null;
      scheduler.invalidate();
    },
    zoomIn: () => zoomStep(1),
    zoomOut: () => zoomStep(-1),
    resetView,
    flyTo(x, y, zoom) {
      startFlight(cameraOnTile(x, y, zoom, limits));
    },
    resize() {
      const rect = canvas.getBoundingClientRect();
      const width = rect.width || canvas.clientWidth;
      const height = rect.height || canvas.clientHeight;
      const ratio = Math.min(3, Math.max(1, devicePixelRatio()));
      if (width === viewport.width && height === viewport.height && ratio === dpr) return;
      viewport = { width, height };
      dpr = ratio;
      scheduler.invalidate();
      // Resizing the backing store clears it: redraw now rather than show a blank frame.
      scheduler.flush();
    },
    tileAt(clientX, clientY) {
      const rect = canvas.getBoundingClientRect();
      return screenToTile(camera, viewport, clientX - rect.left, clientY - rect.top);
    },
    plotAt: (tileX, tileY) => plotIndex.plotAt(tileX, tileY),
    getView: () => viewOf(camera),
    destroy() {
      destroyed = true;
      detachInput();
      scheduler.destroy();
      cancelWarmUp?.();
      images.clear();
    },
  };
  return engine;
}

function viewOf(camera: Camera): MapView {
  return {
    centerX: camera.centerX / TILE_SIZE_PX,
    centerY: camera.centerY / TILE_SIZE_PX,
    zoom: camera.zoom,
    lod: chooseLevelOfDetail(camera.zoom),
  };
}

/** Shown while the canvas has keyboard focus: Enter acts on the tile under the cross. */
function drawKeyboardReticle(ctx: CanvasRenderingContext2D, camera: Camera, viewport: Viewport): void {
  const tile = screenToTile(camera, viewport, viewport.width / 2, viewport.height / 2);
  ctx.save();
  if (tile) {
    const topLeft = worldToScreen(camera, viewport, tile.x * TILE_SIZE_PX, tile.y * TILE_SIZE_PX);
    const size = tileScreenSize(camera.zoom);
    ctx.strokeStyle = '#7dd3fc';
    ctx.lineWidth = 2;
    ctx.strokeRect(topLeft.x, topLeft.y, size, size);
  }
  const cx = viewport.width / 2;
  const cy = viewport.height / 2;
  ctx.strokeStyle = '#120f1f';
  ctx.lineWidth = 4;
  ctx.beginPath();
  ctx.moveTo(cx - 10, cy);
  ctx.lineTo(cx + 10, cy);
  ctx.moveTo(cx, cy - 10);
  ctx.lineTo(cx, cy + 10);
  ctx.stroke();
  ctx.strokeStyle = '#7dd3fc';
  ctx.lineWidth = 2;
  ctx.stroke();
  ctx.restore();
}

function defaultScheduleIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: 500 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(work, 30);
  return () => window.clearTimeout(handle);
}
