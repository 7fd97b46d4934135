import { AVATAR_MAX_BYTES } from '@pixel-atlas/contracts/plots';
import { AppError } from '@pixel-atlas/service-kit/errors';
import sharp from 'sharp';
import type { AvatarDecodeSlots } from '../avatar-decode-slots.ts';

// One libvips thread per image: an avatar is small, and splitting it over threads cost more CPU (thread hand-offs)
// than it saved; images still decode side by side, up to `AVATAR_DECODE_CONCURRENCY` at once.
sharp.concurrency(1);

/**
 * Avatars are stored as square WebPs (lossy, alpha lossless: the round crop's transparent corners), at most this wide:
 * re-encoding drops metadata and anything smuggled in the file. The largest tier is 4 tiles × 48 px; at the phone's
 * highest zoom (3) on a 2× screen that is 4 × 48 × 3 × 2 = 1152 device px. A PNG that big is 1.8 to 3.2 MB for a
 * photo (over the 1 MB upload limit); the WebP is 60 to 230 KB. A smaller image keeps its size: enlarging it would add
 * no detail. Avatars stored before this are PNGs of at most 512 px, and are served as they are.
 */
export const AVATAR_SIZE_PX = 1152;
/** The medium rendition (`?size=medium`): big plots at mid zoom, derived from the stored one and kept in memory. */
export const AVATAR_MEDIUM_PX = 512;
/** The small rendition: what plots show at low zoom and in lists (`?size=small`, the default of the avatar URL). */
export const AVATAR_SMALL_PX = 128;
/**
 * The stored avatar's encoding. Measured with sharp 0.35 (libwebp 1.6, one libvips thread) on the 2-core machine under
 * load (load average 10 to 17), re-encoding a 1152² round-cropped photo sent as the browser's WebP, a smooth one / a
 * grainy one: PNG (zlib level 6) 1.8 / 3.2 MB in 90–150 / 135 ms of CPU; WebP q82 effort 4 61 / 221 KB in 150–190 /
 * 220 ms; effort 2 64 / 224 KB in 80–90 / 130 ms; effort 6 60 / 195 KB in 245 / 530 ms. Effort 2: 40 % less CPU than
 * effort 4 for 1 to 5 % more bytes (a claim holds a decode slot for it).
 */
const WEBP = { quality: 82, alphaQuality: 100, effort: 2 } as const;

const NOT_BASE64 = 'Avatar data is not valid base64.';
const TOO_MANY_PIXELS = 'Avatar image has too many pixels. Please upload a smaller image.';
/** JPG, PNG and GIF are what people pick (spec); WebP is how the browser sends the crop where it can encode it. */
const ALLOWED = ['jpeg', 'png', 'gif', 'webp'] as const;
type AllowedFormat = (typeof ALLOWED)[number];

function invalid(message: string): AppError {
  return new AppError('VALIDATION_FAILED', `avatar_url: ${message}`, { fields: { avatar_url: message } });
}

/** What the first bytes say the file is; the declared MIME type is never trusted. */
export function sniffImageFormat(bytes: Buffer): AllowedFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 6 && ['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1'))) return 'gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'webp';
  }
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
 * Validates an avatar (JPG, PNG, GIF or WebP by magic bytes and by the decoder, ≤ 1 MiB decoded, bounded pixel
 * count; SVG and everything else refused; an animated GIF or WebP keeps its first frame) and re-encodes it to a square
 * WebP of at most AVATAR_SIZE_PX (cropped to the centre, never enlarged). Broken or truncated images become a clean
 * 400, never a 500.
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
  // An animated image is read as its first frame (sharp's default), and `height` is that frame's.
  // The shorter side, capped: the same whichever way EXIF turns the image.
  const side = Math.min(width, height, AVATAR_SIZE_PX);
  try {
    return await sharp(bytes, { limitInputPixels: maxInputPixels, failOn: 'error' })
      .rotate()
      .resize(side, side, { fit: 'cover', position: 'centre' })
      .webp(WEBP)
      .toBuffer();
  } catch (error) {
    const message = String((error as Error)?.message ?? '');
    if (message.includes('pixel limit')) throw invalid(TOO_MANY_PIXELS);
    throw invalid('Avatar image is damaged or incomplete. Please upload another JPG, PNG or GIF.');
  }
}

export type AvatarRendition = 'small' | 'medium';

/** What a stored (or derived) avatar is, from its bytes: PNGs stored before WebP, WebPs since. */
export function avatarContentType(bytes: Buffer): 'image/png' | 'image/webp' {
  return sniffImageFormat(bytes) === 'webp' ? 'image/webp' : 'image/png';
}

/**
 * A rendition of a stored avatar, or null when the stored bytes already are it (no wider than the rendition, and for
 * the small one a PNG). Derived rather than stored beside it: no migration, and the route keeps them in memory. The
 * small one is always a PNG (the default avatar URL is documented as one; share cards and any client read it); the
 * medium one a WebP. Costs, on the 2-core machine under load: small from a 1152 px WebP 15–28 ms of CPU (from a
 * 512 px PNG 9–10), medium 35–60 ms (21–27 KB); once per avatar version and process, and browsers cache them for good.
 */
export async function avatarRendition(stored: Buffer, rendition: AvatarRendition): Promise<Buffer | null> {
  const { width = 0, format } = await sharp(stored).metadata();
  const side = rendition === 'small' ? AVATAR_SMALL_PX : AVATAR_MEDIUM_PX;
  if (width <= side && (rendition === 'medium' || format === 'png')) return null;
  const resized = sharp(stored).resize(Math.min(width, side), Math.min(width, side), { fit: 'cover' });
  return (rendition === 'small' ? resized.png({ compressionLevel: 6 }) : resized.webp(WEBP)).toBuffer();
}

/**
 * Renditions by plot id and avatar version, the least recently used dropped first past `max` entries. Each entry is
 * small (a 128 px PNG is 20–45 KB for a photo, a 512 px WebP about 20 KB; null where the stored bytes serve).
 */
export function createRenditionCache(rendition: AvatarRendition, max: number) {
  const entries = new Map<string, Promise<Buffer | null>>();
  return {
    get(key: string, stored: Buffer): Promise<Buffer | null> {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const made = avatarRendition(stored, rendition);
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
