import { AVATAR_MAX_BYTES } from '@pixel-atlas/contracts/plots';
import { describe, expect, it } from 'vitest';
import { AVATAR_MAX_OUTPUT_PX, avatarOutputSide, encodeCrop, type DrawnCrop } from './avatar-image.ts';

describe('the saved avatar size', () => {
  it('keeps the crop at its own resolution up to 1152 px (a 4×4 plot at zoom 3 on a 2× phone), never below the spec 100 px', () => {
    expect(AVATAR_MAX_OUTPUT_PX).toBe(4 * 48 * 3 * 2);
    expect(avatarOutputSide(2000)).toBe(1152);
    expect(avatarOutputSide(600.4)).toBe(600);
    expect(avatarOutputSide(48)).toBe(100);
  });
});

/** A data URL of `type` whose decoded size is `bytes`. */
const dataUrlOf = (type: string, bytes: number) => `data:${type};base64,${'A'.repeat(Math.ceil(bytes / 3) * 4)}`;

/**
 * A browser's canvas: encodes the types in `encodes` (PNG always) at a size that grows with the side and the quality,
 * and records what it was asked.
 */
function fakeBrowser({ encodes, opaque, bytesPerPixel }: { encodes: string[]; opaque: boolean; bytesPerPixel: Record<string, number> }) {
  const asked: string[] = [];
  const draw = (side: number): DrawnCrop => ({
    toDataUrl(type, quality = 1) {
      const made = encodes.includes(type) ? type : 'image/png';
      asked.push(`${side} ${type}${type === 'image/png' ? '' : ` ${quality}`}`);
      const perPixel = bytesPerPixel[made]! * (made === 'image/png' ? 1 : quality);
      return dataUrlOf(made, Math.round(side * side * perPixel));
    },
    opaque: () => opaque,
  });
  return { asked, draw };
}

const decodedBytes = (dataUrl: string) => (dataUrl.length - dataUrl.indexOf(',') - 1) * 0.75;

describe('the saved avatar encoding', () => {
  it('saves a 1152 px crop as WebP where the browser encodes it (a photo: about 100 KB)', () => {
    const browser = fakeBrowser({
      encodes: ['image/webp', 'image/jpeg'],
      opaque: false,
      bytesPerPixel: { 'image/webp': 0.08, 'image/png': 1.5 },
    });
    const saved = encodeCrop(1152, browser.draw);
    expect(saved.startsWith('data:image/webp;base64,')).toBe(true);
    expect(browser.asked).toEqual(['1152 image/webp 0.9']);
  });

  it('steps the WebP quality down, then the size, to stay within 1 MB', () => {
    // 1152² × 0.9 × 1 byte is 1.19 MB, × 0.8 is 1.06 MB, × 0.7 is 0.93 MB.
    const browser = fakeBrowser({ encodes: ['image/webp'], opaque: false, bytesPerPixel: { 'image/webp': 1, 'image/png': 3 } });
    const saved = encodeCrop(1152, browser.draw);
    expect(browser.asked).toEqual(['1152 image/webp 0.9', '1152 image/webp 0.8', '1152 image/webp 0.7']);
    expect(decodedBytes(saved)).toBeLessThanOrEqual(AVATAR_MAX_BYTES);
    const noisier = fakeBrowser({ encodes: ['image/webp'], opaque: false, bytesPerPixel: { 'image/webp': 1.5, 'image/png': 3 } });
    expect(encodeCrop(1152, noisier.draw).startsWith('data:image/webp')).toBe(true);
    expect(noisier.asked.slice(3)).toEqual(['896 image/webp 0.9', '896 image/webp 0.8']);
  });

  it('without WebP (Safari): a round crop as PNG, stepping the size down as before, with no WebP asked again', () => {
    const browser = fakeBrowser({ encodes: ['image/jpeg'], opaque: false, bytesPerPixel: { 'image/png': 1.5, 'image/jpeg': 0.2 } });
    const saved = encodeCrop(1152, browser.draw);
    expect(saved.startsWith('data:image/png;base64,')).toBe(true);
    expect(decodedBytes(saved)).toBeLessThanOrEqual(AVATAR_MAX_BYTES);
    // The WebP attempt's answer was the 1152 px PNG itself: not encoded twice.
    expect(browser.asked).toEqual(['1152 image/webp 0.9', '896 image/png', '768 image/png']);
  });

  it('without WebP: an opaque (square) crop as JPEG at full size rather than a smaller PNG', () => {
    const browser = fakeBrowser({ encodes: ['image/jpeg'], opaque: true, bytesPerPixel: { 'image/png': 1.5, 'image/jpeg': 0.2 } });
    const saved = encodeCrop(1152, browser.draw);
    expect(saved.startsWith('data:image/jpeg;base64,')).toBe(true);
    expect(browser.asked).toEqual(['1152 image/webp 0.9', '1152 image/jpeg 0.9']);
  });

  it('a crop smaller than 1152 px is saved at its own size', () => {
    const browser = fakeBrowser({ encodes: ['image/webp'], opaque: false, bytesPerPixel: { 'image/webp': 0.08, 'image/png': 1.5 } });
    encodeCrop(avatarOutputSide(300), browser.draw);
    expect(browser.asked).toEqual(['300 image/webp 0.9']);
  });
});
