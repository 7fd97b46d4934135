import type { ImageCache } from './image-cache.ts';

/**
 * Avatars come in three renditions (services/plots): the avatar URL serves 128 px, `size=medium` up to 512 px and
 * `size=large` the stored one, up to 1152 px (a Premium plot, 4 × 48 px, at the phone's highest zoom 3 on a 2× screen).
 * The map draws the smallest one its box does not enlarge by more than a quarter: the hundreds of plots of a far view
 * cost 128 px each, and a Premium plot close up on a 2× phone (1152 device px) is drawn from 1152 px.
 */
export type Rendition = 'small' | 'medium' | 'large';
/** Smallest first. */
export const RENDITIONS: readonly Rendition[] = ['small', 'medium', 'large'];
/** The widest each rendition can be. */
export const RENDITION_PX: Readonly<Record<Rendition, number>> = { small: 128, medium: 512, large: 1152 };
const MAX_ENLARGEMENT = 1.25;
/**
 * Decoded renditions kept: a medium one is up to 512×512×4 bytes (1 MB), a large one up to 1152×1152×4 (5.3 MB), so a
 * phone holds at most 48 + 32 MB of them. A view draws no more than these (renditionCaps): 48 medium ones cover a 2×
 * phone full of basic plots at zoom 3 (about 40) and a 1× desktop full of them at zoom 8 (about 30).
 */
export const MEDIUM_AVATARS_KEPT = 48;
export const LARGE_AVATARS_KEPT = 6;

const SIZE_PARAM = /[?&]size=(medium|large)$/;

/** Only the plots service's own avatar URLs have renditions (a data URL or another address has one size). */
function hasRenditions(url: string): boolean {
  return url.startsWith('/api/plots/');
}

/** The rendition a box `devicePx` device pixels wide needs: the smallest it enlarges by at most a quarter. */
export function renditionFor(devicePx: number): Rendition {
  if (devicePx <= RENDITION_PX.small * MAX_ENLARGEMENT) return 'small';
  if (devicePx <= RENDITION_PX.medium * MAX_ENLARGEMENT) return 'medium';
  return 'large';
}

/** The URL of a rendition of the avatar at `url` (the avatar URL itself is the small one). */
export function renditionUrl(url: string, rendition: Rendition): string {
  if (rendition === 'small' || !url || !hasRenditions(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}size=${rendition}`;
}

/** The URL of the rendition to draw in a box `devicePx` device pixels wide, at most `cap` (renditionCaps). */
export function avatarRenditionUrl(url: string, devicePx: number, cap: Rendition = 'large'): string {
  const wanted = renditionFor(devicePx);
  return renditionUrl(url, RENDITIONS.indexOf(wanted) > RENDITIONS.indexOf(cap) ? cap : wanted);
}

/** The biggest rendition plots of each size (tiles a side) may draw at (renditionCaps). */
export type RenditionCaps = (size: number) => Rendition;

/**
 * The biggest rendition each plot size may draw at in a view, from how many plots of each size it draws
 * (`plotsBySize`) and the box (device px) a plot of that size has (`boxOf`). Bigger plots first: while the large
 * (then medium) ones they want fit their caches, they get them; past that, that size and the smaller ones step down.
 * Otherwise the tiles waiting for them would evict each other's images as they arrive and load them again, for ever.
 * A phone at zoom 3 draws its few Prime and Premium plots from large renditions and its basic plots from medium ones;
 * a crowded 2× desktop at zoom 8 draws its basic plots from medium ones.
 */
export function renditionCaps(plotsBySize: ReadonlyMap<number, number>, boxOf: (size: number) => number): RenditionCaps {
  let large = LARGE_AVATARS_KEPT;
  let medium = MEDIUM_AVATARS_KEPT;
  const grant = (size: number, count: number): Rendition => {
    let rendition = renditionFor(boxOf(size));
    if (rendition === 'large' && count > large) rendition = 'medium';
    if (rendition === 'medium' && count > medium) rendition = 'small';
    return rendition;
  };
  const caps = new Map<number, Rendition>();
  for (const size of [...plotsBySize.keys()].sort((a, b) => b - a)) {
    const count = plotsBySize.get(size)!;
    const rendition = grant(size, count);
    if (rendition === 'large') large -= count;
    if (rendition === 'medium') medium -= count;
    caps.set(size, rendition);
  }
  // A size not counted (a plot just outside the counted area, on a tile being drawn): what one more would get.
  return (size) => caps.get(size) ?? grant(size, 1);
}

/** One ImageCache over three: medium and large renditions in small caches of their own (their memory), the rest in `small`. */
export function renditionImageCache(small: ImageCache, medium: ImageCache, large: ImageCache): ImageCache {
  const cacheOf = (url: string) => {
    const rendition = SIZE_PARAM.exec(url)?.[1];
    return rendition === 'large' ? large : rendition === 'medium' ? medium : small;
  };
  return {
    get: (url) => cacheOf(url).get(url),
    peek: (url) => cacheOf(url).peek(url),
    pendingCount: () => small.pendingCount() + medium.pendingCount() + large.pendingCount(),
    clear() {
      small.clear();
      medium.clear();
      large.clear();
    },
  };
}
