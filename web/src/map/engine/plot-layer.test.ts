import { describe, expect, it, vi } from 'vitest';
import { cameraOnTile, zoomLimitsFor } from './camera.ts';
import type { ImageCache } from './image-cache.ts';
import { drawPlots } from './plot-layer.ts';
import type { MapPlot } from './plot-index.ts';
import { recordingContext } from './test-doubles.ts';

const basic: MapPlot = { id: 'b', x: 20, y: 20, tier: 'basic', display_name: 'Bea', avatar_url: '/b.png' };
const premium: MapPlot = { id: 'p', x: 24, y: 20, tier: 'premium', display_name: 'Pam', avatar_url: '/p.png' };
const avatar = { width: 128, height: 128 } as unknown as CanvasImageSource;

function imagesWith(ready: Record<string, CanvasImageSource>): ImageCache & { get: ReturnType<typeof vi.fn> } {
  return { get: vi.fn((url: string) => ready[url] ?? null), pendingCount: () => 0, clear: () => {} };
}

const draw = (zoom: number, images: ImageCache) => {
  const ctx = recordingContext();
  drawPlots(ctx, [basic, premium], cameraOnTile(22, 21, zoom, zoomLimitsFor(false)), { width: 800, height: 600 }, 1, images);
  return ctx.calls.filter((call) => call.name === 'drawImage').map((call) => call.args[0]);
};

describe('plots on the map', () => {
  it("every tier shows its avatar at the desktop's starting zoom, a 1×1 basic plot too", () => {
    const images = imagesWith({ '/b.png': avatar, '/p.png': avatar });
    expect(draw(0.45, images)).toEqual([avatar, avatar]);
    expect(images.get).toHaveBeenCalledWith('/b.png');
  });

  it('writes initials while an avatar is still loading, and asks for no avatar where a plot is a speck', () => {
    const loading = imagesWith({});
    const ctx = recordingContext();
    drawPlots(ctx, [basic], cameraOnTile(20, 20, 0.45, zoomLimitsFor(false)), { width: 800, height: 600 }, 1, loading);
    expect(ctx.calls.filter((call) => call.name === 'fillText').map((call) => call.args[0])).toContain('BE');
    const tiny = imagesWith({});
    draw(0.3, tiny);
    expect(tiny.get).not.toHaveBeenCalledWith('/b.png');
    expect(tiny.get).toHaveBeenCalledWith('/p.png');
  });
});
