import { describe, expect, it } from 'vitest';
import { cameraAlongFlight, planFlight } from './fly-to.ts';

const viewport = { width: 800, height: 600 };

describe('flyTo animation', () => {
  const from = { centerX: 200, centerY: 200, zoom: 1.2 };
  const to = { centerX: 4000, centerY: 3800, zoom: 1.2 };
  const flight = planFlight(from, to, viewport, 1000, 800);

  it('starts where the camera is and lands exactly on the target', () => {
    expect(cameraAlongFlight(flight, 1000).camera).toEqual(from);
    expect(cameraAlongFlight(flight, 1000).done).toBe(false);
    expect(cameraAlongFlight(flight, 1800)).toEqual({ camera: to, done: true });
    expect(cameraAlongFlight(flight, 5000).done).toBe(true);
  });

  it('zooms out mid-way on a long trip so the route stays readable', () => {
    const middle = cameraAlongFlight(flight, 1400).camera;
    expect(middle.zoom).toBeLessThan(0.5);
    expect(middle.centerX).toBeGreaterThan(from.centerX);
    expect(middle.centerX).toBeLessThan(to.centerX);
  });

  it('does not dip on a short hop', () => {
    const hop = planFlight(from, { ...from, centerX: 260 }, viewport, 0, 800);
    expect(cameraAlongFlight(hop, 400).camera.zoom).toBeCloseTo(1.2);
  });
});
