import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  AVATAR_MEDIUM_PX,
  AVATAR_SIZE_PX,
  AVATAR_SMALL_PX,
  avatarContentType,
  avatarRendition,
  createRenditionCache,
  processAvatar,
  sniffImageFormat,
} from './process-avatar.ts';

const MAX_PIXELS = 4096 * 4096;
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

const pngDataUrl = async (width: number, height: number) => {
  const png = await sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 40, alpha: 1 } } })
    .png()
    .toBuffer();
  return dataUrl('image/png', png);
};

/** Photo-like pixels (smooth colour with grain), cut round as the crop editor does: transparent corners. */
async function roundPhoto(side: number): Promise<Sharp> {
  const grain = await sharp({
    create: {
      width: side,
      height: side,
      channels: 3,
      background: { r: 90, g: 140, b: 200 },
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .blur(1.2)
    .raw()
    .toBuffer();
  const circle = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><circle cx="${side / 2}" cy="${side / 2}" r="${side / 2}" fill="#fff"/></svg>`,
  );
  const mask = await sharp(circle).extractChannel(0).raw().toBuffer();
  return sharp(grain, { raw: { width: side, height: side, channels: 3 } }).joinChannel(mask, {
    raw: { width: side, height: side, channels: 1 },
  });
}

/** What the browser's canvas sends where it can encode WebP: `toDataURL('image/webp', 0.9)`. */
const webpCrop = async (side: number) =>
  dataUrl('image/webp', await (await roundPhoto(side)).webp({ quality: 90, alphaQuality: 100 }).toBuffer());

const alphaAt = async (image: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return data[(y * info.width + x) * 4 + 3];
};

describe('the stored avatar', () => {
  it('is a WebP of at most 1152×1152 (a 4×4 plot at zoom 3 on a 2× phone), keeping the round crop transparent', async () => {
    expect(AVATAR_SIZE_PX).toBe(4 * 48 * 3 * 2);
    const stored = await processAvatar({ dataUrl: await webpCrop(1400), maxInputPixels: MAX_PIXELS });
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'webp', width: 1152, height: 1152, hasAlpha: true });
    expect(await alphaAt(stored, 2, 2)).toBe(0);
    expect(await alphaAt(stored, 576, 576)).toBe(255);
    // Well under the 1 MB the upload may be: a PNG of these pixels is a few MB.
    expect(stored.length).toBeLessThan(400 * 1024);
    expect(avatarContentType(stored)).toBe('image/webp');
  });

  it('accepts PNG (and the other picked formats) still, stored as WebP at its own size, never enlarged', async () => {
    const stored = await processAvatar({ dataUrl: await pngDataUrl(300, 200), maxInputPixels: MAX_PIXELS });
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'webp', width: 200, height: 200 });
    const big = await processAvatar({ dataUrl: await pngDataUrl(1600, 1300), maxInputPixels: MAX_PIXELS });
    expect(await sharp(big).metadata()).toMatchObject({ format: 'webp', width: 1152, height: 1152 });
  });

  it('knows WebP by its RIFF…WEBP signature, not by the declared type', async () => {
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
      .webp()
      .toBuffer();
    expect(sniffImageFormat(webp)).toBe('webp');
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    const stored = await processAvatar({ dataUrl: dataUrl('image/png', webp), maxInputPixels: MAX_PIXELS });
    expect((await sharp(stored).metadata()).format).toBe('webp');
  });

  it('keeps the first frame of an animated WebP', async () => {
    const frames = await Promise.all(
      ['#ff0000', '#00ff00', '#0000ff'].map((colour) =>
        sharp({ create: { width: 40, height: 30, channels: 4, background: colour } })
          .png()
          .toBuffer(),
      ),
    );
    const animated = await sharp(frames, { join: { animated: true } })
      .webp({ lossless: true })
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(3);
    const stored = await processAvatar({ dataUrl: dataUrl('image/webp', animated), maxInputPixels: MAX_PIXELS });
    const { data, info } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([30, 30]);
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeLessThan(40);
  });

  it('refuses a WebP with too many pixels for its size, and a broken one, with the same clean 400s', async () => {
    const bomb = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(processAvatar({ dataUrl: dataUrl('image/webp', bomb), maxInputPixels: MAX_PIXELS })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'avatar_url: Avatar image has too many pixels. Please upload a smaller image.',
    });
    const photo = await (await roundPhoto(256)).webp({ quality: 90 }).toBuffer();
    await expect(
      processAvatar({ dataUrl: dataUrl('image/webp', photo.subarray(0, Math.floor(photo.length / 2))), maxInputPixels: MAX_PIXELS }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/damaged or incomplete|could not be read/) });
    const header = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(40, 7)]);
    await expect(processAvatar({ dataUrl: dataUrl('image/webp', header), maxInputPixels: MAX_PIXELS })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('avatar renditions', () => {
  it('derives the small one as a 128 px PNG and the medium one as a 512 px WebP from a stored 1152 px WebP', async () => {
    const stored = await processAvatar({ dataUrl: await webpCrop(1152), maxInputPixels: MAX_PIXELS });
    const small = (await avatarRendition(stored, 'small'))!;
    expect(await sharp(small).metadata()).toMatchObject({ format: 'png', width: AVATAR_SMALL_PX, height: AVATAR_SMALL_PX });
    expect(avatarContentType(small)).toBe('image/png');
    const medium = (await avatarRendition(stored, 'medium'))!;
    expect(await sharp(medium).metadata()).toMatchObject({ format: 'webp', width: AVATAR_MEDIUM_PX, height: AVATAR_MEDIUM_PX });
    expect(await alphaAt(medium, 1, 1)).toBe(0);
  });

  it('serves a stored avatar no wider than a rendition as it is, except that the small one is always a PNG', async () => {
    const oldPng = await sharp({ create: { width: 512, height: 512, channels: 4, background: '#a36' } })
      .png()
      .toBuffer();
    expect(avatarContentType(oldPng)).toBe('image/png');
    expect(await avatarRendition(oldPng, 'medium')).toBeNull();
    expect(await sharp((await avatarRendition(oldPng, 'small'))!).metadata()).toMatchObject({ format: 'png', width: 128 });
    const tinyPng = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#a36' } })
      .png()
      .toBuffer();
    expect(await avatarRendition(tinyPng, 'small')).toBeNull();
    const tinyWebp = await processAvatar({ dataUrl: dataUrl('image/png', tinyPng), maxInputPixels: MAX_PIXELS });
    expect(await avatarRendition(tinyWebp, 'medium')).toBeNull();
    expect(await sharp((await avatarRendition(tinyWebp, 'small'))!).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });
  });

  it('makes each rendition once per key, and forgets the least recently used past its bound', async () => {
    const stored = await processAvatar({ dataUrl: await pngDataUrl(600, 600), maxInputPixels: MAX_PIXELS });
    const cache = createRenditionCache('small', 2);
    const first = cache.get('a:0', stored);
    expect(cache.get('a:0', stored)).toBe(first);
    await cache.get('b:0', stored);
    await cache.get('c:0', stored);
    expect(cache.get('a:0', stored)).not.toBe(first);
    expect((await sharp((await first)!).metadata()).width).toBe(128);
  });
});
