import { describe, expect, it, vi } from 'vitest';
import { cameraOnTile, zoomLimitsFor } from './camera.ts';
import type { ImageCache } from './image-cache.ts';
import { LARGE_AVATARS_KEPT, avatarRenditionUrl, renditionImageCache } from './avatar-rendition.ts';
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

describe('avatar renditions on the map', () => {
  const monument: MapPlot = { ...premium, avatar_url: '/api/plots/p/avatar?v=0' };
  const small = { width: 128, height: 128 } as unknown as CanvasImageSource;
  const large = { width: 512, height: 512 } as unknown as CanvasImageSource;
  const drawMonument = (zoom: number, dpr: number, images: ImageCache) => {
    const ctx = recordingContext();
    drawPlots(ctx, [monument], cameraOnTile(26, 22, zoom, zoomLimitsFor(true)), { width: 390, height: 844 }, dpr, images);
    return ctx.calls.filter((call) => call.name === 'drawImage').map((call) => call.args[0]);
  };

  it('picks the small rendition while it is big enough, the large one past a quarter of enlargement, only for our avatar URLs', () => {
    expect(avatarRenditionUrl('/api/plots/p/avatar?v=0', 128)).toBe('/api/plots/p/avatar?v=0');
    expect(avatarRenditionUrl('/api/plots/p/avatar?v=0', 160)).toBe('/api/plots/p/avatar?v=0');
    expect(avatarRenditionUrl('/api/plots/p/avatar?v=0', 161)).toBe('/api/plots/p/avatar?v=0&size=large');
    expect(avatarRenditionUrl('/api/plots/p/avatar', 576)).toBe('/api/plots/p/avatar?size=large');
    expect(avatarRenditionUrl('data:image/png;base64,AA', 576)).toBe('data:image/png;base64,AA');
  });

  it('draws a Premium plot far out from the small rendition and close up on a 2× phone from the large one', () => {
    const images = imagesWith({ '/api/plots/p/avatar?v=0': small, '/api/plots/p/avatar?v=0&size=large': large });
    // Zoom 0.3 (the phone's first view): 4 × 48 × 0.3 = 58 CSS px, 115 device px on a 2× screen.
    expect(drawMonument(0.3, 2, images)).toEqual([small]);
    expect(images.get).not.toHaveBeenCalledWith('/api/plots/p/avatar?v=0&size=large');
    // Zoom 1.5 (the blurry case): 288 CSS px, 576 device px.
    expect(drawMonument(1.5, 2, images)).toEqual([large]);
    expect(drawMonument(3, 2, images)).toEqual([large]);
  });

  it('shows the small rendition while the large one is loading, rather than initials', () => {
    const images = imagesWith({ '/api/plots/p/avatar?v=0': small });
    expect(drawMonument(1.5, 2, images)).toEqual([small]);
    expect(images.get).toHaveBeenCalledWith('/api/plots/p/avatar?v=0&size=large');
  });

  it('keeps large renditions in a cache of their own, so a far view of many plots never holds many of them', () => {
    const smallCache = imagesWith({});
    const largeCache = imagesWith({});
    const both = renditionImageCache(smallCache, largeCache);
    both.get('/api/plots/p/avatar?v=0&size=large');
    both.get('/api/plots/p/avatar?v=0');
    expect(largeCache.get).toHaveBeenCalledWith('/api/plots/p/avatar?v=0&size=large');
    expect(smallCache.get).toHaveBeenCalledWith('/api/plots/p/avatar?v=0');
    expect(largeCache.get).toHaveBeenCalledTimes(1);
    expect(LARGE_AVATARS_KEPT).toBeLessThanOrEqual(64);
  });
});
