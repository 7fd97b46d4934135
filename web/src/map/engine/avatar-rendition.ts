import type { ImageCache } from './image-cache.ts';

/**
 * Avatars come in two renditions (services/plots: the avatar URL serves 128 px, `size=large` up to 512 px). The map
 * draws the small one until it would be enlarged by more than a quarter, then the large one: a Premium plot close up
 * (4 tiles × 48 px × zoom 1.5 = 288 CSS px, 576 device px on a 2× phone) is sharp, and the hundreds of plots of a far
 * view cost 128 px each.
 */
export const AVATAR_SMALL_PX = 128;
const MAX_ENLARGEMENT = 1.25;
/** Decoded large renditions kept (each up to 512×512×4 bytes, 1 MB): a view close enough to want them shows a few. */
export const LARGE_AVATARS_KEPT = 32;

const LARGE_PARAM = 'size=large';

/** Only the plots service's own avatar URLs have a large rendition (a data URL or another address has one size). */
function hasRenditions(url: string): boolean {
  return url.startsWith('/api/plots/');
}

export function largeAvatarUrl(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${LARGE_PARAM}`;
}

/** The URL of the rendition to draw in a box `devicePx` device pixels wide. */
export function avatarRenditionUrl(url: string, devicePx: number): string {
  if (!url || !hasRenditions(url) || devicePx <= AVATAR_SMALL_PX * MAX_ENLARGEMENT) return url;
  return largeAvatarUrl(url);
}

/** One ImageCache over two: large renditions in a small cache of their own (their memory), the rest in `small`. */
export function renditionImageCache(small: ImageCache, large: ImageCache): ImageCache {
  const isLarge = (url: string) => url.endsWith(LARGE_PARAM);
  return {
    get: (url) => (isLarge(url) ? large : small).get(url),
    pendingCount: () => small.pendingCount() + large.pendingCount(),
    clear() {
      small.clear();
      large.clear();
    },
  };
}
