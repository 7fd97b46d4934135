import { GRID_SIZE, TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import type { Region } from '@pixel-atlas/contracts/regions';
import { TIER_COLOR, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import {
  cameraOnTile,
  cameraShowingAt,
  camerasEqual,
  clampCamera,
  clearFocusPoint,
  detectTouchDevice,
  initialCamera,
  panBy,
  pinchStep,
  rectsOverlap,
  screenToTile,
  worldToScreen,
  zoomAbout,
  zoomLimitsFor,
  type Camera,
  type ScreenPoint,
  type ScreenRect,
  type Viewport,
  type ZoomLimits,
} from './camera.ts';
import { browserCanvasFactory, type CanvasFactory } from './canvas-factory.ts';
import { cameraAlongFlight, planFlight } from './fly-to.ts';
import { browserFrameDeps, createFrameScheduler, type FrameSchedulerDeps } from './frame-scheduler.ts';
import { LARGE_AVATARS_KEPT, MEDIUM_AVATARS_KEPT, renditionImageCache, type RenditionCaps } from './avatar-rendition.ts';
import { createImageCache, type ImageLoader } from './image-cache.ts';
import { attachMapInput, type MapInputTarget } from './input.ts';
import { layoutBox } from './layout-box.ts';
import { chooseRenderZoom, createLayerCache, TILE_DEVICE_PX, TILES_BUILT_PER_PAN_FRAME } from './layer-cache.ts';
import { chooseLevelOfDetail, tileScreenSize, type LevelOfDetail } from './level-of-detail.ts';
import { pinRadius } from './map-pin.ts';
import { createOverlayLayer, overlayHasContent, paintOverlay, type OverlayState } from './overlay.ts';
import { avatarRenditionCaps } from './plot-layer.ts';
import { createPlotIndex, type MapPlot } from './plot-index.ts';
import { keepLabelsOffPlots } from './label-clearance.ts';
import { LABEL_FONT_FAMILY, labelAt, layoutRegionLabels } from './region-labels.ts';
import { createHatchSource, createReservedIndex, type ReservedFootprint } from './reserved-layer.ts';
import { createSceneState, loadLayout, type MapLayoutInput } from './scene.ts';
import { renderFarComposite, type StaticWorld, type SurfaceImage } from './static-layers.ts';
import { whenIdle } from '../../lib/when-idle.ts';

export type { MapPlot } from './plot-index.ts';
export type { ScreenRect } from './camera.ts';
export type { ReservedFootprint } from './reserved-layer.ts';

/** Zoom factor of one zoom-in / zoom-out step (buttons, keys, double-click). */
export const ZOOM_STEP = 1.5;
/**
 * The first paint of a layout is sliced into frames: each frame rasterises terrain chunks, then builds layer
 * tiles, until this much of it has gone (at least one unit per frame), and asks for another frame. A phone
 * with a slow CPU then never blocks input for the whole world at once (Lighthouse's TBT counted 440 ms).
 */
const FIRST_PAINT_SLICE_MS = 5;
const STEP_FLIGHT_MS = 220;

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

/** How long the zoom must rest before the layers are re-rendered at the exact zoom (pixel-exact still frames). */
const ZOOM_REST_MS = 150;

/**
 * The map engine: orchestration only. It owns the scene state (scene.ts), turns input and setters into
 * state changes, and runs at most one draw per animation frame, none when nothing changed:
 * - the map canvas shows the cached static layers (layer-cache.ts, painted by static-layers.ts): a
 *   camera move re-blits them, a data or zoom-bucket change rebuilds the tiles concerned;
 * - the overlay canvas (overlay.ts) shows the pin, the hovered label and the keyboard reticle, and is
 *   the only thing repainted when only they change.
 */
export function createMapEngine(canvas: HTMLCanvasElement, options: MapEngineOptions = {}): MapEngine {
  const limits = zoomLimitsFor(options.isTouch ?? detectTouchDevice());
  const createSurface = options.createSurface ?? browserCanvasFactory;
  const frames = options.frames ?? browserFrameDeps();
  const devicePixelRatio = options.devicePixelRatio ?? (() => window.devicePixelRatio || 1);
  const prefersReducedMotion =
    options.prefersReducedMotion ?? (() => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false);
  const scheduleIdle = options.scheduleIdle ?? defaultScheduleIdle;

  const scene = createSceneState(limits);
  const layers = createLayerCache(createSurface);
  const overlay = options.overlay ? createOverlayLayer(options.overlay) : null;
  let world: StaticWorld | null = null;
  let farComposite: SurfaceImage | null = null;
  /** Data changed since the map canvas was last painted. */
  let staticDirty = true;
  /** The map canvas shows terrain where some tiles are not built yet (a fast pan outran the budget). */
  let tilesPending = false;
  /** Overlay items changed since the overlay was last painted. */
  let overlayDirty = false;
  /** What the map canvas shows: a frame whose camera, size and render zoom match it repaints nothing. */
  let shown: { camera: Camera; width: number; height: number; dpr: number; renderZoom: number } | null = null;
  let renderZoom: number | null = null;
  /** The CSS scale the map canvas carries: the camera's zoom over the zoom its frame was drawn at. */
  let compositorScale = 1;
  /** The camera of the last frame (the overlay follows it exactly, whatever the map canvas was drawn at). */
  let lastFrameCamera: Camera | null = null;
  /** The current layout has been painted in full once: later frames need no first-paint slicing. */
  let painting = false;
  let lastZoom = scene.camera.zoom;
  let zoomMovedAt = Number.NEGATIVE_INFINITY;
  let hoveredPlot: MapPlot | null = null;
  let hoveredReserved: ReservedFootprint | null = null;
  const hatch = createHatchSource(createSurface);
  let lastEmittedView: Camera | null = null;
  let cancelIdleWork: (() => void) | null = null;
  let destroyed = false;
  let occluded: readonly ScreenRect[] = [];
  const textWidths = new Map<string, number>();

  // Opaque: the layers cover every pixel, and the browser composites an opaque canvas without blending.
  const ctx = canvas.getContext('2d', { alpha: false });
  const onImageLoad = () => {
    layers.imagesLoaded();
    invalidateStatic();
  };
  const images = renditionImageCache(
    createImageCache({ load: options.loadImage, onLoad: onImageLoad }),
    createImageCache({ load: options.loadImage, onLoad: onImageLoad, maxEntries: MEDIUM_AVATARS_KEPT }),
    createImageCache({ load: options.loadImage, onLoad: onImageLoad, maxEntries: LARGE_AVATARS_KEPT }),
  );
  /** The avatar renditions the view's plots may draw at, for the camera and plots they were counted for. */
  let avatarCaps: { key: string; plots: readonly MapPlot[]; caps: RenditionCaps } | null = null;
  const scheduler = createFrameScheduler(draw, frames);

  canvas.style.touchAction = 'none';
  // The compositor's scale of a moving zoom keeps the pixel art's hard edges (at rest the canvas is never scaled).
  canvas.style.imageRendering = 'pixelated';
  if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = 0;

  options.fonts
    ?.load(`10px ${LABEL_FONT_FAMILY}`)
    .then(() => {
      textWidths.clear();
      // Label plates and plot initials were drawn with the fallback font.
      layers.invalidateLabels();
      layers.invalidate();
      invalidateStatic();
    })
    .catch(() => {});

  function invalidateStatic(): void {
    staticDirty = true;
    scheduler.invalidate();
  }

  function invalidateOverlay(): void {
    overlayDirty = true;
    scheduler.invalidate();
  }

  function dataChanged(): void {
    farComposite = null;
    layers.invalidate();
    world = scene.layout
      ? {
          terrain: scene.layout.terrain,
          plots: scene.plots.plots,
          reserved: scene.reserved.footprints,
          hatch,
          farComposite: () =>
            (farComposite ??= renderFarComposite(scene.layout!.terrain, scene.plots.plots, createSurface, scene.reserved.footprints)),
          images,
          avatarCaps: () => avatarCaps?.caps ?? (() => 'large'),
        }
      : null;
    invalidateStatic();
  }

  /**
   * Counts the plots around the view once per render zoom and view position (in half layer tiles), not every frame:
   * the caps only keep a view from wanting more big renditions than the image caches hold.
   */
  function countAvatarCaps(plots: readonly MapPlot[], camera: Camera, viewport: Viewport, dpr: number): void {
    const step = TILE_DEVICE_PX / 2 / (camera.zoom * dpr);
    const key = `${camera.zoom}|${dpr}|${viewport.width}x${viewport.height}|${Math.round(camera.centerX / step)}|${Math.round(camera.centerY / step)}`;
    if (avatarCaps?.key === key && avatarCaps.plots === plots) return;
    avatarCaps = { key, plots, caps: avatarRenditionCaps(plots, camera, viewport, dpr, TILE_DEVICE_PX / 2 / dpr) };
  }

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
  const destination = () => scene.flight?.to ?? scene.camera;

  function setCamera(next: Camera): void {
    const clamped = clampCamera(next, limits);
    if (camerasEqual(clamped, scene.camera)) return;
    scene.camera = clamped;
    scheduler.invalidate();
  }

  function startFlight(to: Camera, durationMs?: number): void {
    const target = clampCamera(to, limits);
    if (prefersReducedMotion() || scene.viewport.width === 0) {
      scene.flight = null;
      setCamera(target);
      return;
    }
    scene.flight = planFlight(scene.camera, target, scene.viewport, frames.now(), durationMs);
    scheduler.invalidate();
  }

  function zoomStep(direction: 1 | -1, at?: ScreenPoint): void {
    const point = at ?? { x: scene.viewport.width / 2, y: scene.viewport.height / 2 };
    const factor = direction > 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
    startFlight(zoomAbout(destination(), scene.viewport, limits, factor, point.x, point.y), STEP_FLIGHT_MS);
  }

  function resetView(): void {
    startFlight(initialCamera(limits), STEP_FLIGHT_MS * 1.5);
  }

  function emitHoverPlot(plot: MapPlot | null, point: ScreenPoint): void {
    if (plot?.id === hoveredPlot?.id) return;
    hoveredPlot = plot;
    options.onPlotHover?.(plot, toClient(point));
  }

  function emitHoverReserved(footprint: ReservedFootprint | null, point: ScreenPoint): void {
    if (footprint === hoveredReserved) return;
    hoveredReserved = footprint;
    options.onReservedHover?.(footprint, toClient(point));
  }

  function emitHoverRegion(region: Region | null, point: ScreenPoint): void {
    if (region?.value === scene.hoveredRegion?.value) return;
    scene.hoveredRegion = region;
    options.onRegionLabelHover?.(region, toClient(point));
    invalidateOverlay();
  }

  function toClient(point: ScreenPoint): ScreenPoint {
    const box = layoutBox(canvas);
    return { x: box.left + point.x, y: box.top + point.y };
  }

  function tileUnder(point: ScreenPoint): TileClick | null {
    const tile = screenToTile(scene.camera, scene.viewport, point.x, point.y);
    if (!tile || !scene.layout) return null;
    return {
      x: tile.x,
      y: tile.y,
      isLand: scene.layout.land[tile.y * GRID_SIZE + tile.x] === 1,
      plot: scene.plots.plotAt(tile.x, tile.y),
      reserved: scene.reserved.at(tile.x, tile.y) ?? undefined,
    };
  }

  function clickAt(point: ScreenPoint): void {
    const hit = tileUnder(point);
    // Land (or a plot) under a label wins: labels sit on land, and a buyer tapping the tile there means the tile.
    if (hit && (hit.isLand || hit.plot)) {
      options.onTileClick?.(hit);
      return;
    }
    const label = labelAt(scene.placedLabels, point.x, point.y);
    if (label) {
      // A tap on a label over water opens its card (the regions menu reaches every card too).
      scene.hoveredRegion = null;
      emitHoverRegion(label.region, { x: label.x + label.width / 2, y: label.y + label.height });
      return;
    }
    if (hit) options.onTileClick?.(hit);
  }

  const inputTarget: MapInputTarget = {
    panBy(dx, dy) {
      scene.flight = null;
      setCamera(panBy(scene.camera, limits, dx, dy));
    },
    zoomAt(factor, x, y) {
      scene.flight = null;
      setCamera(zoomAbout(scene.camera, scene.viewport, limits, factor, x, y));
    },
    pinch(previous, next) {
      scene.flight = null;
      setCamera(pinchStep(scene.camera, scene.viewport, limits, previous, next));
    },
    zoomStep,
    resetView,
    tap: (x, y) => clickAt({ x, y }),
    hover(x, y) {
      const point = { x, y };
      const label = labelAt(scene.placedLabels, x, y);
      emitHoverRegion(label?.region ?? null, label ? { x: label.x + label.width / 2, y: label.y + label.height } : point);
      const hit = label ? null : tileUnder(point);
      emitHoverPlot(hit?.plot ?? null, point);
      const reserved = hit && !hit.plot ? (hit.reserved ?? null) : null;
      emitHoverReserved(reserved, point);
      canvas.style.cursor = reserved ? 'not-allowed' : label || hit?.plot || hit?.isLand ? 'pointer' : 'grab';
    },
    leave() {
      emitHoverPlot(null, { x: 0, y: 0 });
      emitHoverReserved(null, { x: 0, y: 0 });
      emitHoverRegion(null, { x: 0, y: 0 });
    },
    activateCenter: () => clickAt({ x: scene.viewport.width / 2, y: scene.viewport.height / 2 }),
    interactionStarted() {
      scene.flight = null;
      options.onInteraction?.();
    },
    setKeyboardFocus(visible) {
      scene.keyboardFocus = visible;
      invalidateOverlay();
    },
  };
  const detachInput = attachMapInput(canvas, inputTarget);

  function overlayState(time: number, camera: Camera = scene.camera): OverlayState {
    return {
      camera,
      viewport: scene.viewport,
      dpr: scene.dpr,
      selected: scene.selected,
      hoveredRegion: scene.hoveredRegion,
      placedLabels: scene.placedLabels,
      keyboardFocus: scene.keyboardFocus,
      time,
      reducedMotion: prefersReducedMotion(),
    };
  }

  function draw(time: number): boolean {
    if (!ctx || destroyed) return false;
    const started = options.onFrameDrawn ? performance.now() : 0;
    let animating = false;
    if (scene.flight) {
      const step = cameraAlongFlight(scene.flight, time);
      scene.camera = clampCamera(step.camera, limits);
      if (step.done) scene.flight = null;
      else animating = true;
    }
    const { camera, viewport, dpr } = scene;
    if (camera.zoom !== lastZoom) {
      lastZoom = camera.zoom;
      zoomMovedAt = time;
    }
    const zoomResting = time - zoomMovedAt >= ZOOM_REST_MS;
    const wantedZoom = chooseRenderZoom(camera.zoom, zoomResting, renderZoom);
    // While the zoom moves, the world is drawn at the render zoom (at or below the camera's: chooseRenderZoom), which
    // makes it 1:1 copies of the cached tiles, and the compositor scales the canvas up to the camera's zoom about its
    // centre. A zoom gesture costs the main thread one copy of the view per frame at most, and nothing while only the
    // zoom changes; once the zoom rests the frame is drawn exactly again and the scale is 1.
    const drawnCamera = wantedZoom === camera.zoom ? camera : { ...camera, zoom: wantedZoom };
    const cameraMoved = !lastFrameCamera || !camerasEqual(lastFrameCamera, camera);
    lastFrameCamera = camera;

    const width = Math.max(1, Math.round(viewport.width * dpr));
    const height = Math.max(1, Math.round(viewport.height * dpr));
    const moved =
      !shown || !camerasEqual(shown.camera, drawnCamera) || shown.width !== width || shown.height !== height || shown.dpr !== dpr;
    let painted = false;

    if (moved || staticDirty || tilesPending || wantedZoom !== shown?.renderZoom || (!overlay && overlayDirty)) {
      // Resizing the backing store clears it: only ever together with a full repaint.
      if (canvas.width !== width) canvas.width = width;
      if (canvas.height !== height) canvas.height = height;
      const firstPaint = !painting;
      const frameStarted = frames.now();
      const sliceOver = () => frames.now() - frameStarted >= FIRST_PAINT_SLICE_MS;
      if (firstPaint && world && terrainMissingFor(camera, wantedZoom, sliceOver)) {
        // The sea until the terrain under the view is ready (a few frames); the next frame goes on.
        layers.drawWorld({ ctx, camera, viewport, dpr, width, height }, null, wantedZoom, () => false);
        return true;
      }
      // A pan at an unchanged render zoom over unchanged data builds one missing tile per frame; so does the
      // first paint, within its time slice; a data or zoom change builds them all (no plot blinks out).
      const mayBuild =
        firstPaint && world
          ? (built: number) => built === 0 || !sliceOver()
          : !staticDirty && renderZoom === wantedZoom
            ? (built: number) => built < TILES_BUILT_PER_PAN_FRAME
            : () => true;
      renderZoom = wantedZoom;
      staticDirty = false;
      const target = { ctx, camera: drawnCamera, viewport, dpr, width, height };
      if (world) countAvatarCaps(world.plots, drawnCamera, viewport, dpr);
      tilesPending = !layers.drawWorld(target, world, renderZoom, mayBuild);
      if (world && !tilesPending) painting = true;
      // Tiles left for later frames: the next frame builds more.
      if (tilesPending) animating = true;
      scene.placedLabels = scene.layout
        ? unoccluded(
            keepLabelsOffPlots(
              layoutRegionLabels(scene.layout.regions, drawnCamera, viewport, measureText),
              drawnCamera,
              viewport,
              isTakenTile,
            ),
          )
        : [];
      layers.drawLabels(target, scene.placedLabels);
      if (!overlay) {
        if (paintOverlay(ctx, overlayState(time, drawnCamera)).animating) animating = true;
        overlayDirty = false;
      }
      shown = { camera: drawnCamera, width, height, dpr, renderZoom };
      painted = true;
      scheduleIdleWork();
    }
    // Until the zoom rests the tiles may be a zoom bucket's: one more frame then re-renders them exactly.
    if (renderZoom !== null && renderZoom !== camera.zoom) animating = true;

    const scale = shown ? camera.zoom / shown.camera.zoom : 1;
    if (scale !== compositorScale) {
      compositorScale = scale;
      canvas.style.transform = scale === 1 ? '' : `scale(${scale})`;
      painted = true;
    }

    if (overlay && (overlayDirty || (cameraMoved && (overlayHasContent(scene) || !overlay.isClear())))) {
      overlayDirty = false;
      if (overlay.draw(overlayState(time))) {
        animating = true;
        overlayDirty = true;
      }
      painted = true;
    }

    if (!lastEmittedView || !camerasEqual(lastEmittedView, camera)) {
      lastEmittedView = camera;
      options.onViewChange?.(viewOf(camera));
    }
    if (painted) options.onFrameDrawn?.(performance.now() - started);
    return animating;
  }

  /**
   * Rasterises terrain chunks the first paint needs (those under the view's layer tiles; every chunk for the far
   * overview) until `sliceOver`; true while some are still missing.
   */
  function terrainMissingFor(camera: Camera, zoom: number, sliceOver: () => boolean): boolean {
    const terrain = scene.layout?.terrain;
    if (!terrain) return false;
    // Layer tiles reach up to one tile edge past the view.
    const reach = (TILE_DEVICE_PX * 2) / scene.dpr;
    const around = { width: scene.viewport.width + reach, height: scene.viewport.height + reach };
    const far = chooseLevelOfDetail(zoom) === 'far';
    const view = { ...camera, zoom };
    do {
      const built = far ? terrain.prerenderNext() : terrain.prerenderNextIn(view, around);
      if (!built) return false;
    } while (!sliceOver());
    return true;
  }

  /** Labels under the page's chrome would show only a sliver, or through a see-through panel: they are left out. */
  /** A plot or reserved land stands on the tile: no label plate may cover it. */
  function isTakenTile(tileX: number, tileY: number): boolean {
    return scene.plots.plotAt(tileX, tileY) !== null || scene.reserved.at(tileX, tileY) !== null;
  }

  function unoccluded<T extends ScreenRect>(labels: T[]): T[] {
    return occluded.length === 0 ? labels : labels.filter((label) => !occluded.some((rect) => rectsOverlap(rect, label)));
  }

  /**
   * The box a footprint needs on screen at `zoom`: the footprint, its pin (whose head stands above the
   * tile) and a little air; its centre lies `offsetY` px from the footprint's centre.
   */
  function footprintBox(size: number, zoom: number): { width: number; height: number; offsetY: number } {
    const tilePx = tileScreenSize(zoom);
    const air = 12;
    const pinAbove = Math.max(0, pinRadius(tilePx) * 3.5 - tilePx * 0.75);
    return { width: size * tilePx + air * 2, height: size * tilePx + pinAbove + air * 2, offsetY: -pinAbove / 2 };
  }

  /** Idle time pre-renders the terrain chunks, then the layer tiles just outside the view. */
  function scheduleIdleWork(): void {
    if (cancelIdleWork || destroyed) return;
    const step = () => {
      cancelIdleWork = null;
      const layout = scene.layout;
      if (!layout || destroyed) return;
      if (layout.terrain.prerenderNext() || layers.prerenderNext(world)) cancelIdleWork = scheduleIdle(step);
    };
    cancelIdleWork = scheduleIdle(step);
  }

  const engine: MapEngine = {
    limits,
    setLayout(next) {
      cancelIdleWork?.();
      cancelIdleWork = null;
      scene.layout = next ? loadLayout(next, createSurface) : null;
      painting = false;
      if (!next) scene.placedLabels = [];
      dataChanged();
      if (next) scheduleIdleWork();
    },
    setPlots(plots) {
      scene.plots = createPlotIndex(plots);
      dataChanged();
    },
    setReservedFootprints(footprints) {
      if (sameFootprints(scene.reserved.footprints, footprints)) return;
      scene.reserved = createReservedIndex(footprints);
      dataChanged();
    },
    setSelectedTile(tile, tier = 'basic') {
      scene.selected = tile ? { x: tile.x, y: tile.y, colour: TIER_COLOR[tier].hex, since: frames.now() } : null;
      invalidateOverlay();
    },
    zoomIn: () => zoomStep(1),
    zoomOut: () => zoomStep(-1),
    resetView,
    flyTo(x, y, zoom, flight = {}) {
      const centred = cameraOnTile(x, y, zoom, limits);
      if (occluded.length === 0) {
        startFlight(centred);
        return;
      }
      const box = footprintBox(flight.size ?? 1, centred.zoom);
      const boxCentre = { x: scene.viewport.width / 2, y: scene.viewport.height / 2 + box.offsetY };
      const at = clearFocusPoint(scene.viewport, occluded, box.width, box.height, boxCentre);
      startFlight(
        cameraShowingAt(centred.centerX, centred.centerY, centred.zoom, { x: at.x, y: at.y - box.offsetY }, scene.viewport, limits),
      );
    },
    setOccludedRects(rects) {
      const next = rects.map(({ x, y, width, height }) => ({ x, y, width, height }));
      if (next.length === occluded.length && next.every((rect, i) => sameRect(rect, occluded[i]!))) return;
      occluded = next;
      // The labels are placed again on the next frame.
      invalidateStatic();
    },
    revealTile(x, y, size = 1) {
      const camera = destination();
      const box = footprintBox(size, camera.zoom);
      const worldX = (x + size / 2) * TILE_SIZE_PX;
      const worldY = (y + size / 2) * TILE_SIZE_PX;
      const now = worldToScreen(camera, scene.viewport, worldX, worldY);
      const boxCentre = { x: now.x, y: now.y + box.offsetY };
      const at = clearFocusPoint(scene.viewport, occluded, box.width, box.height, boxCentre);
      if (at.x === boxCentre.x && at.y === boxCentre.y) return;
      startFlight(
        cameraShowingAt(worldX, worldY, camera.zoom, { x: at.x, y: at.y - box.offsetY }, scene.viewport, limits),
        STEP_FLIGHT_MS * 2,
      );
    },
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
      destroyed = true;
      detachInput();
      scheduler.destroy();
      cancelIdleWork?.();
      images.clear();
      layers.clear();
    },
  };
  return engine;
}

/** A poll that brings the same reserved land must not rebuild every tile. */
function sameFootprints(a: readonly ReservedFootprint[], b: readonly ReservedFootprint[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((f, i) => {
    const g = b[i]!; // same length, checked above
    return f.x === g.x && f.y === g.y && f.size === g.size && f.reason === g.reason;
  });
}

function sameRect(a: ScreenRect, b: ScreenRect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function viewOf(camera: Camera): MapView {
  return {
    centerX: camera.centerX / TILE_SIZE_PX,
    centerY: camera.centerY / TILE_SIZE_PX,
    zoom: camera.zoom,
    lod: chooseLevelOfDetail(camera.zoom),
  };
}

function defaultScheduleIdle(work: () => void): () => void {
  return whenIdle(work, { timeoutMs: 500, fallbackMs: 30 });
}
