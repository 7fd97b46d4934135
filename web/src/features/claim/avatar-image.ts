/** Spec section 5: the saved avatar is 100x100 px; the round cropper's circle has radius 50. */
export const AVATAR_OUTPUT_PX = 100;
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
 * Draws the chosen area into a 100x100 PNG data URL. The round shape is clipped to the circle
 * (cropper libraries only draw the circle as an overlay); PNG keeps the corners transparent.
 */
export async function cropAvatar(src: string, area: CropArea | null, shape: AvatarShape): Promise<string> {
  const image = await loadImage(src);
  const side = Math.min(image.naturalWidth, image.naturalHeight);
  const source = area ?? { x: (image.naturalWidth - side) / 2, y: (image.naturalHeight - side) / 2, width: side, height: side };
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_OUTPUT_PX;
  canvas.height = AVATAR_OUTPUT_PX;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.imageSmoothingQuality = 'high';
  if (shape === 'round') {
    const radius = AVATAR_OUTPUT_PX / 2;
    context.beginPath();
    context.arc(radius, radius, radius, 0, Math.PI * 2);
    context.closePath();
    context.clip();
  }
  context.drawImage(image, source.x, source.y, source.width, source.height, 0, 0, AVATAR_OUTPUT_PX, AVATAR_OUTPUT_PX);
  return canvas.toDataURL('image/png');
}
