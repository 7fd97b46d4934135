import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AVATAR_SIZE_PX, AVATAR_SMALL_PX, createSmallRenditionCache, processAvatar, smallAvatarRendition } from './process-avatar.ts';

const pngDataUrl = async (width: number, height: number) => {
  const png = await sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 40, alpha: 1 } } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
};

describe('avatar renditions', () => {
  it('stores a large avatar at 512×512, sharp for a Premium plot close up (it was capped at 128)', async () => {
    const stored = await processAvatar({ dataUrl: await pngDataUrl(1000, 800), maxInputPixels: 4096 * 4096 });
    expect(AVATAR_SIZE_PX).toBe(512);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'png', width: 512, height: 512 });
  });

  it('keeps a smaller avatar at its own size, never enlarging it', async () => {
    const stored = await processAvatar({ dataUrl: await pngDataUrl(300, 200), maxInputPixels: 4096 * 4096 });
    expect(await sharp(stored).metadata()).toMatchObject({ width: 200, height: 200 });
  });

  it('derives the small rendition at 128×128, and serves an avatar already that small as it is', async () => {
    const large = await processAvatar({ dataUrl: await pngDataUrl(600, 600), maxInputPixels: 4096 * 4096 });
    expect(await sharp(await smallAvatarRendition(large)).metadata()).toMatchObject({ width: AVATAR_SMALL_PX, height: AVATAR_SMALL_PX });
    const tiny = await processAvatar({ dataUrl: await pngDataUrl(64, 64), maxInputPixels: 4096 * 4096 });
    expect(await smallAvatarRendition(tiny)).toBe(tiny);
  });

  it('makes each small rendition once per key, and forgets the least recently used past its bound', async () => {
    const large = await processAvatar({ dataUrl: await pngDataUrl(600, 600), maxInputPixels: 4096 * 4096 });
    const cache = createSmallRenditionCache(2);
    const first = cache.get('a:0', large);
    expect(cache.get('a:0', large)).toBe(first);
    await cache.get('b:0', large);
    await cache.get('c:0', large);
    expect(cache.get('a:0', large)).not.toBe(first);
    expect((await sharp(await first).metadata()).width).toBe(128);
  });
});
