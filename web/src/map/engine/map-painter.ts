import { camerasEqual, type Camera } from './camera.ts';
import type { IdlePrerender } from './idle-prerender.ts';
import type { LabelPlacement } from './label-placement.ts';
import { chooseRenderZoom, TILE_DEVICE_PX, TILES_BUILT_PER_PAN_FRAME, type FrameTarget, type LayerCache } from './layer-cache.ts';
import { chooseLevelOfDetail } from './level-of-detail.ts';
import type { OverlayPainter } from './overlay-painter.ts';
import type { SceneState } from './scene.ts';
import type { ChunkWork } from './terrain-renderer.ts';
import type { WorldSource } from './world-source.ts';

/**
 * The first paint of a layout is sliced into frames: each frame rasterises terrain chunks, then builds layer
 * tiles, until this much of it has gone (at least one unit per frame), and asks for another frame. A phone
 * with a slow CPU then never blocks input for the whole world at once (Lighthouse's TBT counted 440 ms).
 */
const FIRST_PAINT_SLICE_MS = 5;
/** How long the zoom must rest before the layers are re-rendered at the exact zoom (pixel-exact still frames). */
const ZOOM_REST_MS = 150;

export interface MapPainterOptions {
  canvas: HTMLCanvasElement;
  scene: SceneState;
  layers: LayerCache;
  world: WorldSource;
  labels: LabelPlacement;
  overlay: OverlayPainter;
  idle: IdlePrerender;
  now: () => number;
  requestFrame: () => void;
}

/**
 * What one frame did to the map canvas; when it could show only the sea (the frame ends there): 'terrain-pending' while
 * the main thread rasterises the chunks (the next frame goes on), 'terrain-waiting' for the worker's (their arrival asks
 * for a frame); 'no-view' before the canvas has a size (the resize that gives it one draws).
 */
export type MapPaint = { painted: boolean; animating: boolean } | 'terrain-pending' | 'terrain-waiting' | 'no-view';

/**
 * Keeps the map canvas showing the cached static layers (layer-cache.ts) and the region labels for the camera: a
 * frame whose camera, size and render zoom match what the canvas shows repaints nothing.
 */
export interface MapPainter {
  /** Data, fonts or the page's chrome changed: the next frame paints the map again. */
  invalidate(): void;
  /** A new layout: its first paint is sliced over frames again. */
  layoutChanged(): void;
  paint(ctx: CanvasRenderingContext2D, time: number): MapPaint;
}

interface Shown {
  camera: Camera;
  width: number;
  height: number;
  dpr: number;
  renderZoom: number;
}

export function createMapPainter(options: MapPainterOptions): MapPainter {
  const { canvas, scene, layers, world, labels, overlay, idle, now, requestFrame } = options;
  /** Data changed since the map canvas was last painted. */
  let staticDirty = true;
  /** The map canvas shows terrain where some tiles are not built yet (a fast pan outran the budget). */
  let tilesPending = false;
  /** The last frame drew the first paint's tiles without the labels: the next one draws them. */
  let labelsPending = false;
  let shown: Shown | null = null;
  let renderZoom: number | null = null;
  /** The CSS scale the map canvas carries: the camera's zoom over the zoom its frame was drawn at. */
  let compositorScale = 1;
  /** The current layout has been painted in full once: later frames need no first-paint slicing. */
  let painting = false;
  let lastZoom = scene.camera.zoom;
  let zoomMovedAt = Number.NEGATIVE_INFINITY;

  function repaint(ctx: CanvasRenderingContext2D, time: number, drawnCamera: Camera, width: number, height: number): MapPaint {
    const { camera, viewport, dpr } = scene;
    const wantedZoom = drawnCamera.zoom;
    // Resizing the backing store clears it: only ever together with a full repaint.
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const firstPaint = !painting;
    const frameStarted = now();
    const sliceOver = () => now() - frameStarted >= FIRST_PAINT_SLICE_MS;
    const current = world.current();
    const terrain = firstPaint && current ? prerenderTerrainUnder(scene, camera, wantedZoom, sliceOver) : 'done';
    if (terrain !== 'done') {
      // The sea until the terrain under the view is ready (a few frames).
      layers.drawWorld({ ctx, camera, viewport, dpr, width, height }, null, wantedZoom, () => false);
      return terrain === 'waiting' ? 'terrain-waiting' : 'terrain-pending';
    }
    // A pan at an unchanged render zoom over unchanged data builds one missing tile per frame; so does the
    // first paint, within its time slice; a data or zoom change builds them all (no plot blinks out).
    const mayBuild =
      firstPaint && current
        ? (built: number) => built === 0 || !sliceOver()
        : !staticDirty && renderZoom === wantedZoom
          ? (built: number) => built < TILES_BUILT_PER_PAN_FRAME
          : () => true;
    renderZoom = wantedZoom;
    staticDirty = false;
    const target: FrameTarget = { ctx, camera: drawnCamera, viewport, dpr, width, height };
    world.fitAvatarCaps(drawnCamera, viewport, dpr);
    tilesPending = !layers.drawWorld(target, current, renderZoom, mayBuild);
    if (current && !tilesPending) painting = true;
    shown = { camera: drawnCamera, width, height, dpr, renderZoom };
    // A first-paint frame whose slice the tiles used up leaves the labels (their placement and sprites, tens of ms
    // on a slow phone) to the next frame, so that frame and this one each stay short.
    labelsPending = firstPaint && current !== null && sliceOver();
    if (labelsPending) return { painted: true, animating: true };
    // Tiles left for later frames: the next frame builds more.
    let animating = tilesPending;
    scene.placedLabels = labels.place(drawnCamera);
    layers.drawLabels(target, scene.placedLabels);
    if (overlay.paintOnMap(ctx, time, drawnCamera)) animating = true;
    idle.schedule();
    return { painted: true, animating };
  }

  /** While the zoom moves the compositor scales the last frame up to the camera's zoom; at rest the scale is 1. */
  function applyCompositorScale(camera: Camera): boolean {
    const scale = shown ? camera.zoom / shown.camera.zoom : 1;
    if (scale === compositorScale) return false;
    compositorScale = scale;
    canvas.style.transform = scale === 1 ? '' : `scale(${scale})`;
    return true;
  }

  return {
    invalidate() {
      staticDirty = true;
      requestFrame();
    },
    layoutChanged() {
      painting = false;
    },
    paint(ctx, time) {
      const { camera, viewport, dpr } = scene;
      // Not sized yet (the host's ResizeObserver gives the first size after layout, and an animation frame can come
      // before it): a first paint of an empty view would count as done, and the real one then run unsliced.
      if (viewport.width <= 0 || viewport.height <= 0) return 'no-view';
      if (camera.zoom !== lastZoom) {
        lastZoom = camera.zoom;
        zoomMovedAt = time;
      }
      const wantedZoom = chooseRenderZoom(camera.zoom, time - zoomMovedAt >= ZOOM_REST_MS, renderZoom);
      // While the zoom moves, the world is drawn at the render zoom (at or below the camera's: chooseRenderZoom), which
      // makes it 1:1 copies of the cached tiles, and the compositor scales the canvas up to the camera's zoom about its
      // centre. A zoom gesture costs the main thread one copy of the view per frame at most, and nothing while only the
      // zoom changes; once the zoom rests the frame is drawn exactly again and the scale is 1.
      const drawnCamera = wantedZoom === camera.zoom ? camera : { ...camera, zoom: wantedZoom };
      const width = Math.max(1, Math.round(viewport.width * dpr));
      const height = Math.max(1, Math.round(viewport.height * dpr));
      const moved =
        !shown || !camerasEqual(shown.camera, drawnCamera) || shown.width !== width || shown.height !== height || shown.dpr !== dpr;
      let painted = false;
      let animating = false;
      if (moved || staticDirty || tilesPending || labelsPending || wantedZoom !== shown?.renderZoom || overlay.needsMapRepaint()) {
        const result = repaint(ctx, time, drawnCamera, width, height);
        if (typeof result === 'string') return result;
        ({ painted, animating } = result);
      }
      // Until the zoom rests the tiles may be a zoom bucket's: one more frame then re-renders them exactly.
      if (renderZoom !== null && renderZoom !== camera.zoom) animating = true;
      if (applyCompositorScale(camera)) painted = true;
      return { painted, animating };
    },
  };
}

/**
 * Rasterises terrain chunks the first paint needs (those under the view's layer tiles; every chunk for the far
 * overview) until `sliceOver`: 'done' when they are all in, 'built' while the main thread is at it, 'waiting' for
 * the worker's.
 */
function prerenderTerrainUnder(scene: SceneState, camera: Camera, zoom: number, sliceOver: () => boolean): ChunkWork {
  const terrain = scene.layout?.terrain;
  if (!terrain) return 'done';
  // Layer tiles reach up to one tile edge past the view.
  const reach = (TILE_DEVICE_PX * 2) / scene.dpr;
  const around = { width: scene.viewport.width + reach, height: scene.viewport.height + reach };
  const far = chooseLevelOfDetail(zoom) === 'far';
  const view = { ...camera, zoom };
  for (;;) {
    const work = far ? terrain.prerenderNext(true) : terrain.prerenderNextIn(view, around);
    if (work !== 'built' || sliceOver()) return work;
  }
}
