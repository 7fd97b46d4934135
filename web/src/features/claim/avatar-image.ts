import { AVATAR_MAX_BYTES } from '@pixel-atlas/contracts/plots';
/**
 * Spec section 5 saves a 100x100 avatar, which a Premium plot close up shows blurred: the saved avatar is the crop at
 * its own resolution, at least 100 px and at most 512 px (the large rendition the server keeps), never enlarged past
 * what the picture has; a crop whose PNG would pass the 1 MB limit is saved smaller.
 */
export const AVATAR_MIN_OUTPUT_PX = 100;
export const AVATAR_MAX_OUTPUT_PX = 512;
const OUTPUT_STEPS_PX = [AVATAR_MAX_OUTPUT_PX, 384, 256, 160, AVATAR_MIN_OUTPUT_PX];

/** The side to save a crop `cropSidePx` wide at: its own, within 100..512. */
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

/**
 * Draws the chosen area into a square PNG data URL (avatarOutputSide). The round shape is clipped to the circle
 * (cropper libraries only draw the circle as an overlay); PNG keeps the corners transparent.
 */
export async function cropAvatar(src: string, area: CropArea | null, shape: AvatarShape): Promise<string> {
  const image = await loadImage(src);
  const side = Math.min(image.naturalWidth, image.naturalHeight);
  const source = area ?? { x: (image.naturalWidth - side) / 2, y: (image.naturalHeight - side) / 2, width: side, height: side };
  const first = avatarOutputSide(source.width);
  let dataUrl = '';
  for (const output of [first, ...OUTPUT_STEPS_PX.filter((step) => step < first)]) {
    dataUrl = drawCrop(image, source, shape, output);
    if (dataUrlBytes(dataUrl) <= AVATAR_MAX_BYTES) break;
  }
  return dataUrl;
}

function drawCrop(image: HTMLImageElement, source: CropArea, shape: AvatarShape, output: number): string {
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
  return canvas.toDataURL('image/png');
}
