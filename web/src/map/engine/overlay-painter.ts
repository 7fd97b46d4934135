import type { Camera } from './camera.ts';
import { overlayHasContent, paintOverlay, type OverlayLayer, type OverlayState } from './overlay.ts';
import type { SceneState } from './scene.ts';

export interface OverlayPainterOptions {
  scene: SceneState;
  /** The overlay canvas; without one the items are painted on the map canvas, over the world. */
  layer: OverlayLayer | null;
  prefersReducedMotion: () => boolean;
  requestFrame: () => void;
}

/** Keeps the pin, the hovered label and the keyboard reticle painted, on whichever canvas carries them. */
export interface OverlayPainter {
  /** One of the items changed. */
  invalidate(): void;
  /** The items live on the map canvas and changed: the map must be painted again to show them. */
  needsMapRepaint(): boolean;
  /** Paints the items on the map canvas, drawn at `camera`, when there is no overlay canvas; true while the pin bounces. */
  paintOnMap(ctx: CanvasRenderingContext2D, time: number, camera: Camera): boolean;
  /** Repaints the overlay canvas if its items changed or the camera moved them. */
  paintOverlayCanvas(time: number, cameraMoved: boolean): { painted: boolean; animating: boolean };
}

export function createOverlayPainter({ scene, layer, prefersReducedMotion, requestFrame }: OverlayPainterOptions): OverlayPainter {
  /** Items changed since the overlay was last painted. */
  let dirty = false;

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

  return {
    invalidate() {
      dirty = true;
      requestFrame();
    },
    needsMapRepaint: () => !layer && dirty,
    paintOnMap(ctx, time, camera) {
      if (layer) return false;
      dirty = false;
      return paintOverlay(ctx, overlayState(time, camera)).animating;
    },
    paintOverlayCanvas(time, cameraMoved) {
      if (!layer || !(dirty || (cameraMoved && (overlayHasContent(scene) || !layer.isClear())))) {
        return { painted: false, animating: false };
      }
      dirty = false;
      // Nothing shown and nothing to show: the canvas is left as it is, not even sized to the view (on the first paint
      // that allocation and a full-screen transparent frame cost a slow phone ~30 ms for an empty overlay).
      if (layer.isClear() && !overlayHasContent(scene)) return { painted: false, animating: false };
      const animating = layer.draw(overlayState(time));
      // The pin still bounces: the next frame paints it again.
      if (animating) dirty = true;
      return { painted: true, animating };
    },
  };
}
