import { describe, expect, it, vi } from 'vitest';
import { cameraOnTile, zoomLimitsFor } from './camera.ts';
import type { ImageCache } from './image-cache.ts';
import type { RenditionCaps } from './avatar-rendition.ts';
import { drawPlots } from './plot-layer.ts';
import type { MapPlot } from './plot-index.ts';
import { recordingContext } from './test-doubles.ts';

const basic: MapPlot = { id: 'b', x: 20, y: 20, tier: 'basic', display_name: 'Bea', avatar_url: '/b.png' };
const premium: MapPlot = { id: 'p', x: 24, y: 20, tier: 'premium', display_name: 'Pam', avatar_url: '/p.png' };
const avatar = { width: 128, height: 128 } as unknown as CanvasImageSource;

function imagesWith(ready: Record<string, CanvasImageSource>, pending = 0): ImageCache & { get: ReturnType<typeof vi.fn> } {
  return {
    get: vi.fn((url: string) => ready[url] ?? null),
    peek: (url) => ready[url] ?? null,
    pendingCount: () => pending,
    clear: () => {},
  };
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
  const SMALL = '/api/plots/p/avatar?v=0';
  const MEDIUM = '/api/plots/p/avatar?v=0&size=medium';
  const LARGE = '/api/plots/p/avatar?v=0&size=large';
  const small = { width: 128, height: 128 } as unknown as CanvasImageSource;
  const medium = { width: 512, height: 512 } as unknown as CanvasImageSource;
  const large = { width: 1152, height: 1152 } as unknown as CanvasImageSource;
  const drawMonument = (zoom: number, dpr: number, images: ImageCache, caps?: RenditionCaps) => {
    const ctx = recordingContext();
    const awaiting = drawPlots(
      ctx,
      [monument],
      cameraOnTile(26, 22, zoom, zoomLimitsFor(true)),
      { width: 390, height: 844 },
      dpr,
      images,
      caps,
    );
    return { drawn: ctx.calls.filter((call) => call.name === 'drawImage').map((call) => call.args[0]), awaiting };
  };

  it('draws a Premium plot far out from the small rendition, at zoom 1.5 from the medium one, at zoom 3 on a 2× phone from the large one', () => {
    expect(zoomLimitsFor(true).max).toBe(3);
    const images = imagesWith({ [SMALL]: small, [MEDIUM]: medium, [LARGE]: large });
    // Zoom 0.3 (the phone's first view): 4 × 48 × 0.3 = 58 CSS px, 115 device px on a 2× screen.
    expect(drawMonument(0.3, 2, images).drawn).toEqual([small]);
    expect(images.get).not.toHaveBeenCalledWith(MEDIUM);
    // Zoom 1.5: 288 CSS px, 576 device px (the 512 px one enlarged 1.1×).
    expect(drawMonument(1.5, 2, images).drawn).toEqual([medium]);
    expect(images.get).not.toHaveBeenCalledWith(LARGE);
    // Zoom 3, the phone's highest: 1152 device px.
    expect(drawMonument(3, 2, images).drawn).toEqual([large]);
    // Capped (a view with more big plots than the caches keep): the medium one.
    expect(drawMonument(3, 2, images, () => 'medium').drawn).toEqual([medium]);
  });

  it('while the wanted rendition loads, draws one decoded already (the biggest), else the small one, and says it waits', () => {
    const onlySmall = imagesWith({ [SMALL]: small }, 1);
    const first = drawMonument(3, 2, onlySmall);
    expect(first.drawn).toEqual([small]);
    expect(onlySmall.get).toHaveBeenCalledWith(LARGE);
    // The tile is drawn again when the large one arrives (it used to keep the stand-in until the zoom changed).
    expect(first.awaiting).toBe(true);
    const mediumIn = imagesWith({ [MEDIUM]: medium }, 1);
    expect(drawMonument(3, 2, mediumIn).drawn).toEqual([medium]);
    expect(mediumIn.get).not.toHaveBeenCalledWith(SMALL);
    // Zooming out: the large one stands in for the medium one.
    expect(drawMonument(1.5, 2, imagesWith({ [LARGE]: large }, 1)).drawn).toEqual([large]);
    expect(drawMonument(3, 2, imagesWith({ [LARGE]: large }, 1)).awaiting).toBe(false);
  });
});
