import type { MapView } from '../engine/engine.ts';

/**
 * The engine's `onViewChange` for a mounted map: the camera written on the canvas (data-zoom, data-center-x,
 * data-center-y), readable from outside (browser tests, debugging) without re-rendering React.
 */
export function publishCameraOn(canvas: HTMLCanvasElement): (view: MapView) => void {
  return (view) => {
    canvas.dataset.zoom = view.zoom.toFixed(3);
    canvas.dataset.centerX = view.centerX.toFixed(2);
    canvas.dataset.centerY = view.centerY.toFixed(2);
  };
}
