import { AVATAR_MAX_BYTES } from '@pixel-atlas/contracts/plots';
import { AppError } from '@pixel-atlas/service-kit/errors';
import sharp from 'sharp';
import type { AvatarDecodeSlots } from '../avatar-decode-slots.ts';

// One libvips thread per image: an avatar is small, and splitting it over threads cost more CPU (thread hand-offs)
// than it saved; images still decode side by side, up to `AVATAR_DECODE_CONCURRENCY` at once.
sharp.concurrency(1);

/**
 * Avatars are stored as square PNGs, at most this wide (the large rendition): re-encoding drops metadata and anything
 * smuggled in the file. A Premium plot is 4 tiles × 48 px; at zoom 1.5 on a 2× phone that is 576 device px, and
 * 128 px looked blurry there. 512 keeps it sharp to about zoom 1.3 on a 2× screen and 2.7 on a 1× one, and stays a
 * PNG (the round crop's transparent corners) the 1 MB upload limit can carry: 1152 px (zoom 3 on a 2× screen) would
 * be a 2 to 4 MB PNG for a photo. A smaller image keeps its size: enlarging it would add no detail.
 */
export const AVATAR_SIZE_PX = 512;
/** The small rendition: what plots show at low zoom and in lists (`?size=small`, the default of the avatar URL). */
export const AVATAR_SMALL_PX = 128;

const NOT_BASE64 = 'Avatar data is not valid base64.';
const TOO_MANY_PIXELS = 'Avatar image has too many pixels. Please upload a smaller image.';
const ALLOWED = ['jpeg', 'png', 'gif'] as const;
type AllowedFormat = (typeof ALLOWED)[number];

function invalid(message: string): AppError {
  return new AppError('VALIDATION_FAILED', `avatar_url: ${message}`, { fields: { avatar_url: message } });
}

/** What the first bytes say the file is; the declared MIME type is never trusted. */
export function sniffImageFormat(bytes: Buffer): AllowedFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 6 && ['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1'))) return 'gif';
  return null;
}

/** Decodes a `data:<type>;base64,<data>` URL; anything else (remote URLs included: we never fetch) is refused. */
export function decodeAvatarDataUrl(dataUrl: string): Buffer {
  const match = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?((?:;[a-z0-9.+-]+=[^;,]*)*);base64,/i.exec(dataUrl);
  if (!match) throw invalid('Avatar must be an uploaded image (JPG, PNG or GIF), sent as a base64 data URL.');
  const data = dataUrl.slice(match[0].length).replace(/\s+/g, '');
  if (data.length % 4 === 1) throw invalid(NOT_BASE64);
  // Decoded size first, from the length alone: no 1.5 MB buffer is made for an oversized upload.
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  if (Math.floor((data.length * 3) / 4) - padding > AVATAR_MAX_BYTES) throw invalid('Avatar must be at most 1 MB (1048576 bytes).');
  // Node's decoder skips what is not base64; encoding the bytes again must give the text back (padding aside), which
  // refuses any stray character in one native pass (a regular expression over a 36 KB avatar cost 6 times more).
  const bytes = Buffer.from(data, 'base64');
  if (bytes.toString('base64') !== data.padEnd(data.length + ((4 - (data.length % 4)) % 4), '=')) throw invalid(NOT_BASE64);
  return bytes;
}

/**
 * Validates an avatar (JPG, PNG or GIF by magic bytes and by the decoder, ≤ 1 MiB decoded, bounded pixel
 * count; SVG, WebP and everything else refused) and re-encodes it to a square PNG of at most 512×512 (cropped to
 * the centre, never enlarged). Broken or truncated
 * images become a clean 400, never a 500.
 */
export async function processAvatar({
  dataUrl,
  maxInputPixels,
  slots,
}: {
  dataUrl: string;
  maxInputPixels: number;
  /** Bounds how many decodes run at once in this process (the decode is the expensive part). */
  slots?: AvatarDecodeSlots;
}): Promise<Buffer> {
  const bytes = decodeAvatarDataUrl(dataUrl);
  const sniffed = sniffImageFormat(bytes);
  if (!sniffed) throw invalid('Avatar must be a JPG, PNG or GIF image.');
  return slots ? slots.run(() => decodeAndReencode(bytes, sniffed, maxInputPixels)) : decodeAndReencode(bytes, sniffed, maxInputPixels);
}

async function decodeAndReencode(bytes: Buffer, sniffed: AllowedFormat, maxInputPixels: number): Promise<Buffer> {
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ format, width, height } = await sharp(bytes, { limitInputPixels: maxInputPixels }).metadata());
  } catch (error) {
    if (String((error as Error)?.message ?? '').includes('pixel limit')) throw invalid(TOO_MANY_PIXELS);
    throw invalid('Avatar image could not be read. Please upload another JPG, PNG or GIF.');
  }
  if (!format || !(ALLOWED as readonly string[]).includes(format) || format !== sniffed || !width || !height) {
    throw invalid('Avatar must be a JPG, PNG or GIF image.');
  }
  // The shorter side, capped: the same whichever way EXIF turns the image.
  const side = Math.min(width, height, AVATAR_SIZE_PX);
  try {
    return await sharp(bytes, { limitInputPixels: maxInputPixels, failOn: 'error' })
      .rotate()
      .resize(side, side, { fit: 'cover', position: 'centre' })
      // zlib's default level: level 9 with adaptive filtering cost ~6 ms of CPU per 128×128 avatar where this costs
      // ~4 (and ~2.5 with one libvips thread, above), for files the same size within 10 %.
      .png({ compressionLevel: 6 })
      .toBuffer();
  } catch (error) {
    const message = String((error as Error)?.message ?? '');
    if (message.includes('pixel limit')) throw invalid(TOO_MANY_PIXELS);
    throw invalid('Avatar image is damaged or incomplete. Please upload another JPG, PNG or GIF.');
  }
}

/**
 * The small rendition of a stored avatar: at most AVATAR_SMALL_PX wide (a smaller one is served as stored). Derived
 * from the stored PNG rather than stored beside it: no migration, and the route keeps the few thousand it serves in
 * memory (about 3 ms each on the 2-core machine, once per avatar version and process; browsers cache it for good).
 */
export async function smallAvatarRendition(png: Buffer): Promise<Buffer> {
  const { width = 0 } = await sharp(png).metadata();
  if (width <= AVATAR_SMALL_PX) return png;
  return sharp(png).resize(AVATAR_SMALL_PX, AVATAR_SMALL_PX, { fit: 'cover' }).png({ compressionLevel: 6 }).toBuffer();
}

/** Small renditions by plot id and avatar version, the least recently used dropped first past `max` entries. */
export function createSmallRenditionCache(max = 4096) {
  const entries = new Map<string, Promise<Buffer>>();
  return {
    get(key: string, png: Buffer): Promise<Buffer> {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const made = smallAvatarRendition(png);
      made.catch(() => entries.delete(key));
      entries.set(key, made);
      for (const oldest of entries.keys()) {
        if (entries.size <= max) break;
        entries.delete(oldest);
      }
      return made;
    },
  };
}
