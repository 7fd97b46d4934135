import { AVATAR_MAX_BYTES } from '@pixel-atlas/contracts/plots';
/**
 * Spec section 5 saves a 100x100 avatar, which a Premium plot close up shows blurred: the saved avatar is the crop at
 * its own resolution, at least 100 px and at most 1152 px (what the server keeps: a 4×4 plot at the phone's highest
 * zoom, 3, on a 2× screen is 4 × 48 × 3 × 2 px), never enlarged past what the picture has. The crop travels as WebP
 * where the browser encodes it (90–360 KB for a 1152 px photo at quality 0.9, transparent corners kept); elsewhere
 * (Safari) an opaque crop as JPEG and a round one as PNG, a photo's PNG being 1.8–3.2 MB at 1152 px. Whatever passes
 * the 1 MB limit is saved at a lower quality, then smaller.
 */
export const AVATAR_MIN_OUTPUT_PX = 100;
export const AVATAR_MAX_OUTPUT_PX = 1152;
const OUTPUT_STEPS_PX = [AVATAR_MAX_OUTPUT_PX, 896, 768, 640, 512, 384, 256, 160, AVATAR_MIN_OUTPUT_PX];
/** Lossy qualities tried at each size before the next smaller size. */
const LOSSY_QUALITIES = [0.9, 0.8, 0.7];

/** The side to save a crop `cropSidePx` wide at: its own, within 100..1152. */
export function avatarOutputSide(cropSidePx: number): number {
  return Math.min(AVATAR_MAX_OUTPUT_PX, Math.max(AVATAR_MIN_OUTPUT_PX, Math.round(cropSidePx)));
}

/** Decoded bytes of a base64 data URL, from its length. */
function dataUrlBytes(dataUrl: string): number {
  const data = dataUrl.slice(dataUrl.indexOf(',') + 1);
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}
export const AVATAR_START_ZOOM = 1.2;

export type AvatarShape = 'round' | 'square';
export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type AvatarFormat = 'jpeg' | 'png' | 'gif';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What the first bytes say the file is (the same signatures the server checks); its name and MIME type prove nothing. */
export function sniffAvatarFormat(head: Uint8Array): AvatarFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && PNG_SIGNATURE.every((byte, index) => head[index] === byte)) return 'png';
  const gif = String.fromCharCode(...head.subarray(0, 6));
  if (gif === 'GIF87a' || gif === 'GIF89a') return 'gif';
  return null;
}

/** Decodes the file once and lets the pixels go; where the browser has no createImageBitmap (jsdom) the signature alone decides. */
async function decodesInBrowser(file: Blob): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return true;
  try {
    (await createImageBitmap(file)).close();
    return true;
  } catch {
    return false;
  }
}

/**
 * True when the file really is a JPG, PNG or GIF that decodes: a text file renamed `.png` (or a truncated
 * image) is caught here, before the cropper, instead of failing later as 'Failed to save avatar'.
 */
export async function isUsableAvatarFile(file: Blob, decodes: (file: Blob) => Promise<boolean> = decodesInBrowser): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, PNG_SIGNATURE.length).arrayBuffer());
  return sniffAvatarFormat(head) !== null && (await decodes(file));
}

export function readFileAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable file')));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsDataURL(file);
  });
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('image failed to load'));
    image.src = src;
  });
}

/** The crop drawn at one size: encoded as the browser can, and whether it has no transparent pixel. */
export interface DrawnCrop {
  /** `canvas.toDataURL`: a browser that cannot encode `type` returns a PNG (the data URL's prefix says which). */
  toDataUrl(type: string, quality?: number): string;
  opaque(): boolean;
}

/**
 * The crop's data URL: at `firstSide`, else at each smaller step, the first encoding within AVATAR_MAX_BYTES. WebP
 * (alpha kept) while the browser encodes it; without it, JPEG for an opaque crop, PNG for one with transparency (the
 * round crop's corners, a logo's background). At the smallest size the last attempt is returned even if too big: the
 * server then says why.
 */
export function encodeCrop(firstSide: number, draw: (side: number) => DrawnCrop): string {
  let webp = true;
  let dataUrl = '';
  const fits = () => dataUrlBytes(dataUrl) <= AVATAR_MAX_BYTES;
  for (const side of [firstSide, ...OUTPUT_STEPS_PX.filter((step) => step < firstSide)]) {
    const crop = draw(side);
    /** A browser answers a type it cannot encode with a PNG: the WebP attempt may have made this size's PNG already. */
    let png: string | null = null;
    if (webp) {
      for (const quality of LOSSY_QUALITIES) {
        dataUrl = crop.toDataUrl('image/webp', quality);
        if (!dataUrl.startsWith('data:image/webp')) {
          webp = false;
          if (dataUrl.startsWith('data:image/png')) png = dataUrl;
          break;
        }
        if (fits()) return dataUrl;
      }
      if (webp) continue;
    }
    if (crop.opaque()) {
      for (const quality of LOSSY_QUALITIES) {
        dataUrl = crop.toDataUrl('image/jpeg', quality);
        if (dataUrl.startsWith('data:image/jpeg') && fits()) return dataUrl;
      }
      // Its PNG would be bigger still.
      if (dataUrl.startsWith('data:image/jpeg')) continue;
    }
    dataUrl = png ?? crop.toDataUrl('image/png');
    if (fits()) return dataUrl;
  }
  return dataUrl;
}

/** Draws the chosen area into a square data URL (avatarOutputSide, encodeCrop). */
export async function cropAvatar(src: string, area: CropArea | null, shape: AvatarShape): Promise<string> {
  const image = await loadImage(src);
  const side = Math.min(image.naturalWidth, image.naturalHeight);
  const source = area ?? { x: (image.naturalWidth - side) / 2, y: (image.naturalHeight - side) / 2, width: side, height: side };
  return encodeCrop(avatarOutputSide(source.width), (output) => drawCrop(image, source, shape, output));
}

/** The round shape is clipped to the circle (cropper libraries only draw the circle as an overlay). */
function drawCrop(image: HTMLImageElement, source: CropArea, shape: AvatarShape, output: number): DrawnCrop {
  const canvas = document.createElement('canvas');
  canvas.width = output;
  canvas.height = output;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.imageSmoothingQuality = 'high';
  if (shape === 'round') {
    const radius = output / 2;
    context.beginPath();
    context.arc(radius, radius, radius, 0, Math.PI * 2);
    context.closePath();
    context.clip();
  }
  context.drawImage(image, source.x, source.y, source.width, source.height, 0, 0, output, output);
  return {
    toDataUrl: (type, quality) => canvas.toDataURL(type, quality),
    opaque() {
      if (shape === 'round') return false;
      const { data } = context.getImageData(0, 0, output, output);
      for (let alpha = 3; alpha < data.length; alpha += 4) if (data[alpha] !== 255) return false;
      return true;
    },
  };
}
