import { describe, expect, it, vi } from 'vitest';
import {
  LARGE_AVATARS_KEPT,
  MEDIUM_AVATARS_KEPT,
  RENDITION_PX,
  avatarRenditionUrl,
  renditionCaps,
  renditionFor,
  renditionImageCache,
} from './avatar-rendition.ts';
import { cameraOnTile, zoomLimitsFor } from './camera.ts';
import type { ImageCache } from './image-cache.ts';
import { avatarRenditionCaps } from './plot-layer.ts';
import type { MapPlot } from './plot-index.ts';

describe('which rendition a box needs', () => {
  it('the smallest it enlarges by at most a quarter: 128 up to 160 device px, 512 up to 640, then the stored 1152', () => {
    expect(RENDITION_PX).toEqual({ small: 128, medium: 512, large: 4 * 48 * 3 * 2 });
    expect([100, 160, 161, 640, 641, 1152, 3072].map(renditionFor)).toEqual([
      'small',
      'small',
      'medium',
      'medium',
      'large',
      'large',
      'large',
    ]);
  });

  it('asks the plots service for it by URL, only for its own avatar URLs, never above the cap', () => {
    expect(avatarRenditionUrl('/api/plots/p/avatar?v=2', 128)).toBe('/api/plots/p/avatar?v=2');
    expect(avatarRenditionUrl('/api/plots/p/avatar?v=2', 576)).toBe('/api/plots/p/avatar?v=2&size=medium');
    expect(avatarRenditionUrl('/api/plots/p/avatar', 1152)).toBe('/api/plots/p/avatar?size=large');
    expect(avatarRenditionUrl('/api/plots/p/avatar', 1152, 'medium')).toBe('/api/plots/p/avatar?size=medium');
    expect(avatarRenditionUrl('/api/plots/p/avatar', 1152, 'small')).toBe('/api/plots/p/avatar');
    expect(avatarRenditionUrl('/api/plots/p/avatar', 300, 'large')).toBe('/api/plots/p/avatar?size=medium');
    expect(avatarRenditionUrl('data:image/png;base64,AA', 1152)).toBe('data:image/png;base64,AA');
  });

  it('keeps few decoded big renditions: at most 6 large (5.3 MB each) and 48 medium (1 MB each)', () => {
    expect(LARGE_AVATARS_KEPT).toBeLessThanOrEqual(8);
    const decodedMb = (LARGE_AVATARS_KEPT * 1152 ** 2 * 4 + MEDIUM_AVATARS_KEPT * 512 ** 2 * 4) / 2 ** 20;
    expect(decodedMb).toBeLessThanOrEqual(96);
  });
});

describe('a view never wants more big renditions than the caches keep', () => {
  const phoneBox = (size: number) => (size * 48 * 3 - 8) * 2;

  it('a 2× phone at zoom 3: its Prime and Premium plots large, its basic ones medium', () => {
    const caps = renditionCaps(
      new Map([
        [4, 2],
        [3, 3],
        [1, 40],
      ]),
      phoneBox,
    );
    expect([4, 3, 2, 1].map(caps)).toEqual(['large', 'large', 'medium', 'medium']);
  });

  it('bigger plots first: past the large budget that size and smaller ones step down; past the medium one, to small', () => {
    const crowded = renditionCaps(
      new Map([
        [4, 4],
        [3, 3],
        [1, 10],
      ]),
      phoneBox,
    );
    expect([4, 3, 1].map(crowded)).toEqual(['large', 'medium', 'medium']);
    const full = renditionCaps(
      new Map([
        [4, 2],
        [1, MEDIUM_AVATARS_KEPT + 1],
      ]),
      phoneBox,
    );
    expect([4, 1].map(full)).toEqual(['large', 'small']);
    // A size not counted gets what one more plot would.
    expect(full(3)).toBe('large');
  });

  it('counts the plots around the view only when some plot could want more than the small rendition', () => {
    const basics: MapPlot[] = Array.from({ length: 100 }, (_, i) => ({
      id: `b${i}`,
      x: 20 + (i % 10),
      y: 20 + Math.floor(i / 10),
      tier: 'basic',
      display_name: 'B',
      avatar_url: `/api/plots/b${i}/avatar`,
    }));
    const phone = { width: 390, height: 844 };
    const limits = zoomLimitsFor(true);
    // Far out nothing is counted (every size is left uncapped: none wants more than 128 px).
    expect(avatarRenditionCaps(basics, cameraOnTile(25, 23, 0.3, limits), phone, 2, 256)(1)).toBe('large');
    // At zoom 3 on a 2× phone, the 63 basic plots around the view are more medium ones than are kept: small.
    expect(avatarRenditionCaps(basics, cameraOnTile(25, 23, 3, limits), phone, 2, 256)(1)).toBe('small');
    expect(avatarRenditionCaps(basics.slice(0, 20), cameraOnTile(25, 21, 3, limits), phone, 2, 256)(1)).toBe('medium');
  });
});

describe('the rendition caches', () => {
  const cache = (): ImageCache & { get: ReturnType<typeof vi.fn> } => ({
    get: vi.fn(() => null),
    peek: () => null,
    pendingCount: () => 1,
    clear: vi.fn(),
  });

  it('keeps medium and large renditions in caches of their own, so a far view of many plots never holds many of them', () => {
    const [small, medium, large] = [cache(), cache(), cache()];
    const all = renditionImageCache(small, medium, large);
    all.get('/api/plots/p/avatar?v=0&size=large');
    all.get('/api/plots/p/avatar?size=medium');
    all.get('/api/plots/p/avatar?v=0');
    expect(large.get).toHaveBeenCalledWith('/api/plots/p/avatar?v=0&size=large');
    expect(medium.get).toHaveBeenCalledWith('/api/plots/p/avatar?size=medium');
    expect(small.get).toHaveBeenCalledWith('/api/plots/p/avatar?v=0');
    expect([small, medium, large].map((c) => c.get.mock.calls.length)).toEqual([1, 1, 1]);
    expect(all.pendingCount()).toBe(3);
  });
});
