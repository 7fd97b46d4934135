import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import {
  cameraOnTile,
  cameraShowingAt,
  camerasEqual,
  clampCamera,
  clearFocusPoint,
  initialCamera,
  panBy,
  pinchStep,
  worldToScreen,
  zoomAbout,
  type Camera,
  type ScreenPoint,
  type ZoomLimits,
} from './camera.ts';
import type { MapView } from './engine.ts';
import { cameraAlongFlight, planFlight } from './fly-to.ts';
import type { PinchState } from './input.ts';
import { chooseLevelOfDetail, tileScreenSize } from './level-of-detail.ts';
import { pinRadius } from './map-pin.ts';
import type { SceneState } from './scene.ts';

/** Zoom factor of one zoom-in / zoom-out step (buttons, keys, double-click). */
export const ZOOM_STEP = 1.5;
const STEP_FLIGHT_MS = 220;

export interface CameraControlOptions {
  scene: SceneState;
  limits: ZoomLimits;
  now: () => number;
  prefersReducedMotion: () => boolean;
  /** The camera moved or a flight started. */
  requestFrame: () => void;
}

/** Every way the camera moves: at once under the user's hand, or in a flight the frames play out. */
export interface CameraControl {
  panBy(dx: number, dy: number): void;
  zoomAt(factor: number, x: number, y: number): void;
  pinch(previous: PinchState, next: PinchState): void;
  zoomStep(direction: 1 | -1, at?: ScreenPoint): void;
  resetView(): void;
  flyTo(x: number, y: number, zoom: number, options?: { size?: number }): void;
  revealTile(x: number, y: number, size?: number): void;
  /** The user took over: a flight under way stops where it is. */
  stopFlight(): void;
  /** Moves the camera along the flight under way to where it is at `time`; true while it has further to go. */
  advanceFlight(time: number): boolean;
}

export function createCameraControl({ scene, limits, now, prefersReducedMotion, requestFrame }: CameraControlOptions): CameraControl {
  /** Where the camera is heading: zoom steps compose with a flight still under way. */
  const destination = () => scene.flight?.to ?? scene.camera;

  function jumpTo(next: Camera): void {
    scene.flight = null;
    const clamped = clampCamera(next, limits);
    if (camerasEqual(clamped, scene.camera)) return;
    scene.camera = clamped;
    requestFrame();
  }

  function startFlight(to: Camera, durationMs?: number): void {
    const target = clampCamera(to, limits);
    if (prefersReducedMotion() || scene.viewport.width === 0) {
      jumpTo(target);
      return;
    }
    scene.flight = planFlight(scene.camera, target, scene.viewport, now(), durationMs);
    requestFrame();
  }

  return {
    panBy: (dx, dy) => jumpTo(panBy(scene.camera, limits, dx, dy)),
    zoomAt: (factor, x, y) => jumpTo(zoomAbout(scene.camera, scene.viewport, limits, factor, x, y)),
    pinch: (previous, next) => jumpTo(pinchStep(scene.camera, scene.viewport, limits, previous, next)),
    zoomStep(direction, at) {
      const point = at ?? { x: scene.viewport.width / 2, y: scene.viewport.height / 2 };
      const factor = direction > 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
      startFlight(zoomAbout(destination(), scene.viewport, limits, factor, point.x, point.y), STEP_FLIGHT_MS);
    },
    resetView() {
      startFlight(initialCamera(limits), STEP_FLIGHT_MS * 1.5);
    },
    flyTo(x, y, zoom, flight = {}) {
      const centred = cameraOnTile(x, y, zoom, limits);
      if (scene.occluded.length === 0) {
        startFlight(centred);
        return;
      }
      const viewCentre = { x: scene.viewport.width / 2, y: scene.viewport.height / 2 };
      const landing = clearLanding(scene, flight.size ?? 1, centred.zoom, viewCentre);
      startFlight(cameraShowingAt(centred.centerX, centred.centerY, centred.zoom, landing.at, scene.viewport, limits));
    },
    revealTile(x, y, size = 1) {
      const camera = destination();
      const worldX = (x + size / 2) * TILE_SIZE_PX;
      const worldY = (y + size / 2) * TILE_SIZE_PX;
      const onScreen = worldToScreen(camera, scene.viewport, worldX, worldY);
      const landing = clearLanding(scene, size, camera.zoom, onScreen);
      if (!landing.moved) return;
      startFlight(cameraShowingAt(worldX, worldY, camera.zoom, landing.at, scene.viewport, limits), STEP_FLIGHT_MS * 2);
    },
    stopFlight() {
      scene.flight = null;
    },
    advanceFlight(time) {
      if (!scene.flight) return false;
      const step = cameraAlongFlight(scene.flight, time);
      scene.camera = clampCamera(step.camera, limits);
      if (step.done) scene.flight = null;
      return !step.done;
    },
  };
}

/** What the host page hears of the camera: the centre in tiles, the zoom and its level of detail. */
export function viewOf(camera: Camera): MapView {
  return {
    centerX: camera.centerX / TILE_SIZE_PX,
    centerY: camera.centerY / TILE_SIZE_PX,
    zoom: camera.zoom,
    lod: chooseLevelOfDetail(camera.zoom),
  };
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

/**
 * Where on screen a footprint's centre must land so that it and its pin sit clear of the page's chrome: the point
 * nearest `preferred` (where it would be otherwise), and whether that is somewhere else.
 */
function clearLanding(scene: SceneState, size: number, zoom: number, preferred: ScreenPoint): { at: ScreenPoint; moved: boolean } {
  const box = footprintBox(size, zoom);
  const boxCentre = { x: preferred.x, y: preferred.y + box.offsetY };
  const at = clearFocusPoint(scene.viewport, scene.occluded, box.width, box.height, boxCentre);
  return { at: { x: at.x, y: at.y - box.offsetY }, moved: at.x !== boxCentre.x || at.y !== boxCentre.y };
}
