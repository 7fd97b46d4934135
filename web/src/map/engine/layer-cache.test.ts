import { describe, expect, it } from 'vitest';
import { chooseRenderZoom, zoomBucket } from './layer-cache.ts';

describe('zoom buckets', () => {
  it('snaps to the half-octave at or below the zoom', () => {
    expect(zoomBucket(1)).toBe(1);
    expect(zoomBucket(1.5)).toBeCloseTo(Math.SQRT2);
    expect(zoomBucket(1.137)).toBe(1);
    expect(zoomBucket(8)).toBe(8);
    expect(zoomBucket(6.06)).toBeCloseTo(4 * Math.SQRT2);
    expect(zoomBucket(0.185)).toBeCloseTo(2 ** -2.5);
  });

  it('renders exactly when the zoom rests, keeps the previous render zoom nearby, else takes the bucket', () => {
    expect(chooseRenderZoom(0.675, true, 0.45)).toBe(0.675);
    expect(chooseRenderZoom(0.5, false, 0.45)).toBe(0.45);
    expect(chooseRenderZoom(0.675, false, 0.45)).toBeCloseTo(2 ** -1);
    expect(chooseRenderZoom(0.3, false, 0.45)).toBeCloseTo(2 ** -2);
    expect(chooseRenderZoom(3, false, null)).toBeCloseTo(2 * Math.SQRT2);
  });

  it('never renders a moving zoom above the zoom: the compositor only ever scales the frame up', () => {
    // Zooming out from a resting 1: straight to the bucket below, not the sharper frame that would leave edges bare.
    expect(chooseRenderZoom(0.9, false, 1)).toBeCloseTo(2 ** -0.5);
    for (const zoom of [0.2, 0.45, 0.9, 1, 1.3, 2.2, 5, 8]) {
      for (const previous of [null, 0.25, 0.5, 1, 2, 8]) {
        const chosen = chooseRenderZoom(zoom, false, previous);
        expect(chosen).toBeLessThanOrEqual(zoom);
        expect(zoom / chosen).toBeLessThan(1.5);
      }
    }
  });
});
