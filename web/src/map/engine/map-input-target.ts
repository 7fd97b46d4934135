import type { CameraControl } from './camera-control.ts';
import type { HitTesting } from './hit-testing.ts';
import type { MapInputTarget } from './input.ts';
import type { OverlayPainter } from './overlay-painter.ts';
import type { SceneState } from './scene.ts';

export interface MapInputTargetOptions {
  scene: SceneState;
  camera: CameraControl;
  hits: HitTesting;
  overlay: OverlayPainter;
  /** The host's callback for any start of a gesture, key or wheel (MapEngineOptions.onInteraction). */
  onInteraction: () => void;
}

/** What the map does for each thing the input layer (input.ts) makes of the user's pointer, wheel and keys. */
export function createMapInputTarget({ scene, camera, hits, overlay, onInteraction }: MapInputTargetOptions): MapInputTarget {
  return {
    panBy: camera.panBy,
    zoomAt: camera.zoomAt,
    pinch: camera.pinch,
    zoomStep: camera.zoomStep,
    resetView: camera.resetView,
    tap: (x, y) => hits.click({ x, y }),
    hover: (x, y) => hits.hover({ x, y }),
    leave: hits.leave,
    activateCenter: () => hits.click({ x: scene.viewport.width / 2, y: scene.viewport.height / 2 }),
    interactionStarted() {
      camera.stopFlight();
      onInteraction();
    },
    setKeyboardFocus(visible) {
      scene.keyboardFocus = visible;
      overlay.invalidate();
    },
  };
}
