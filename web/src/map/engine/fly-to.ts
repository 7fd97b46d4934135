import type { Camera, Viewport } from './camera.ts';

export interface Flight {
  from: Camera;
  to: Camera;
  startTime: number;
  durationMs: number;
  /** Zoom at mid-flight: lower than both ends on long trips, so the way there stays readable. */
  cruiseZoom: number;
}

export const FLIGHT_DURATION_MS = 800;

export function planFlight(from: Camera, to: Camera, viewport: Viewport, startTime: number, durationMs = FLIGHT_DURATION_MS): Flight {
  const distance = Math.hypot(to.centerX - from.centerX, to.centerY - from.centerY);
  const span = Math.max(1, Math.min(viewport.width, viewport.height));
  // Zoom at which both ends of the trip fit comfortably on screen at once.
  const fitBoth = distance > 0 ? (span * 0.8) / distance : Number.POSITIVE_INFINITY;
  const cruiseZoom = Math.min(Math.sqrt(from.zoom * to.zoom), fitBoth);
  return { from, to, startTime, durationMs, cruiseZoom };
}

function easeInOutCubic(t: number): number {
  return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
}

/** The camera at `time`, and whether the flight has landed. */
export function cameraAlongFlight(flight: Flight, time: number): { camera: Camera; done: boolean } {
  const progress = flight.durationMs <= 0 ? 1 : Math.min(1, Math.max(0, (time - flight.startTime) / flight.durationMs));
  if (progress >= 1) return { camera: flight.to, done: true };
  const e = easeInOutCubic(progress);
  // Quadratic Bézier in log-zoom space through the cruise zoom: smooth zoom-out, travel, zoom-in.
  const logZoom =
    (1 - e) ** 2 * Math.log(flight.from.zoom) + 2 * e * (1 - e) * Math.log(flight.cruiseZoom) + e ** 2 * Math.log(flight.to.zoom);
  return {
    camera: {
      centerX: flight.from.centerX + (flight.to.centerX - flight.from.centerX) * e,
      centerY: flight.from.centerY + (flight.to.centerY - flight.from.centerY) * e,
      zoom: Math.exp(logZoom),
    },
    done: false,
  };
}
