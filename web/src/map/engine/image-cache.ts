import { GRID_SIZE } from '@pixel-atlas/contracts/grid';

/**
 * Avatar images, loaded only when asked for (the plot layer asks only when a plot is big enough on
 * screen), a few at a time, kept in a bounded most-recently-used cache. `get` never blocks: it
 * returns the image once decoded and null until then; `onLoad` lets the engine schedule a redraw.
 */
export interface ImageCache {
  get(url: string): CanvasImageSource | null;
  /** The image if it is decoded already; unlike `get`, never starts a load. */
  peek(url: string): CanvasImageSource | null;
  /** Loads started and not finished yet. */
  pendingCount(): number;
  clear(): void;
}

export type ImageLoader = (url: string) => Promise<CanvasImageSource>;

export interface ImageCacheOptions {
  load?: ImageLoader;
  /**
   * Images arrived (their URLs). While more are loading, arrivals are gathered for `batchMs` and told
   * together: each call makes the engine rebuild the map tiles that waited for them, and a view full of
   * small plots asks for hundreds of avatars at once.
   */
  onLoad?: (url: string) => void;
  /** Every plot of the grid fits: a view may show that many avatars, and a smaller bound would evict what it is about to draw and reload it, over and over. */
  maxEntries?: number;
  maxConcurrent?: number;
  batchMs?: number;
}

type Entry = { state: 'queued' | 'loading' } | { state: 'ready'; image: CanvasImageSource } | { state: 'failed' };

export function browserImageLoader(url: string): Promise<CanvasImageSource> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.decoding = 'async';
    // Decoded off the main thread before the map draws it: otherwise the frame that first draws it decodes it (1.3
    // million pixels for a 1152 px avatar).
    image.onload = () => {
      if (typeof image.decode !== 'function') return resolve(image);
      void image.decode().then(
        () => resolve(image),
        () => resolve(image),
      );
    };
    image.onerror = () => reject(new Error(`image failed: ${url}`));
    image.src = url;
  });
}

export function createImageCache({
  load = browserImageLoader,
  onLoad,
  maxEntries = GRID_SIZE * GRID_SIZE,
  maxConcurrent = 6,
  batchMs = 120,
}: ImageCacheOptions = {}): ImageCache {
  const entries = new Map<string, Entry>();
  const queue: string[] = [];
  let active = 0;
  let generation = 0;
  let arrived: string[] = [];
  let batchTimer: ReturnType<typeof setTimeout> | null = null;

  const tellArrivals = () => {
    if (batchTimer !== null) clearTimeout(batchTimer);
    batchTimer = null;
    const urls = arrived;
    arrived = [];
    for (const url of urls) onLoad?.(url);
  };

  const pump = () => {
    while (active < maxConcurrent && queue.length > 0) {
      const url = queue.shift()!;
      const entry = entries.get(url);
      if (!entry || entry.state !== 'queued') continue;
      entries.set(url, { state: 'loading' });
      active++;
      const startedIn = generation;
      load(url).then(
        (image) => settle(url, startedIn, { state: 'ready', image }),
        () => settle(url, startedIn, { state: 'failed' }),
      );
    }
  };

  const settle = (url: string, startedIn: number, result: Entry) => {
    if (startedIn !== generation) return;
    active--;
    if (entries.has(url)) entries.set(url, result);
    evictOverflow();
    pump();
    if (result.state !== 'ready') return;
    arrived.push(url);
    // The last of a burst is told at once; earlier ones wait a moment for their neighbours.
    if (active === 0 && queue.length === 0) tellArrivals();
    else batchTimer ??= setTimeout(tellArrivals, batchMs);
  };

  const evictOverflow = () => {
    for (const [url, entry] of entries) {
      if (entries.size <= maxEntries) return;
      if (entry.state === 'ready' || entry.state === 'failed' || entry.state === 'queued') entries.delete(url);
    }
  };

  return {
    get(url) {
      if (!url) return null;
      const entry = entries.get(url);
      if (entry) {
        // Refresh recency: Map iteration order is insertion order, so eviction drops the stalest first.
        entries.delete(url);
        entries.set(url, entry);
        return entry.state === 'ready' ? entry.image : null;
      }
      entries.set(url, { state: 'queued' });
      queue.push(url);
      pump();
      return null;
    },
    peek(url) {
      const entry = entries.get(url);
      return entry?.state === 'ready' ? entry.image : null;
    },
    pendingCount() {
      let count = 0;
      for (const entry of entries.values()) if (entry.state === 'queued' || entry.state === 'loading') count++;
      return count;
    },
    clear() {
      generation++;
      if (batchTimer !== null) clearTimeout(batchTimer);
      batchTimer = null;
      arrived = [];
      entries.clear();
      queue.length = 0;
      active = 0;
    },
  };
}
