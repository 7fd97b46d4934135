import { camerasEqual, type Camera } from './camera.ts';
import { viewOf, type CameraControl } from './camera-control.ts';
import type { MapEngineOptions } from './engine.ts';
import type { MapPainter } from './map-painter.ts';
import type { OverlayPainter } from './overlay-painter.ts';
import type { SceneState } from './scene.ts';

export interface FrameDrawerOptions {
  ctx: CanvasRenderingContext2D | null;
  scene: SceneState;
  camera: CameraControl;
  map: MapPainter;
  overlay: OverlayPainter;
  events: Pick<MapEngineOptions, 'onViewChange' | 'onFrameDrawn'>;
}

/**
 * One animation frame (frame-scheduler.ts runs it): moves a flight on, brings the map canvas and then the overlay
 * up to date, and tells the host where the camera went. Returns true when the next frame has work too.
 */
export function createFrameDrawer({ ctx, scene, camera, map, overlay, events }: FrameDrawerOptions): (time: number) => boolean {
  /** The camera of the last frame (the overlay follows it exactly, whatever the map canvas was drawn at). */
  let lastFrameCamera: Camera | null = null;
  let lastEmittedView: Camera | null = null;

  return (time) => {
    if (!ctx) return false;
    const started = events.onFrameDrawn ? performance.now() : 0;
    let animating = camera.advanceFlight(time);
    const now = scene.camera;
    const cameraMoved = !lastFrameCamera || !camerasEqual(lastFrameCamera, now);
    lastFrameCamera = now;

    const mapPaint = map.paint(ctx, time);
    if (mapPaint === 'terrain-pending') return true;
    // The terrain worker's chunk asks for the next frame when it arrives.
    if (mapPaint === 'terrain-waiting' || mapPaint === 'no-view') return false;
    let painted = mapPaint.painted;
    if (mapPaint.animating) animating = true;

    const overlayPaint = overlay.paintOverlayCanvas(time, cameraMoved);
    if (overlayPaint.painted) painted = true;
    if (overlayPaint.animating) animating = true;

    if (!lastEmittedView || !camerasEqual(lastEmittedView, now)) {
      lastEmittedView = now;
      events.onViewChange?.(viewOf(now));
    }
    if (painted) events.onFrameDrawn?.(performance.now() - started);
    return animating;
  };
}
