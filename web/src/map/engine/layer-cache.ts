/**
 * The cached static layers. The world (terrain + plots, or the far composite) is cut into square
 * tiles of TILE_DEVICE_PX device pixels, rendered at a *render zoom* and kept in a bounded
 * least-recently-used cache; region label plates are sprites. A frame is then a few `drawImage`s:
 * the visible tiles (nearest-neighbour, scaled by zoom / render zoom) and one sprite per label.
 *
 * Tiles are rebuilt only when the data changes (`invalidate`), an avatar they waited for arrives
 * (`imagesLoaded`), or the render zoom changes. While the zoom is moving the render zoom snaps to a
 * bucket (zoomBucket) so zooming back and forth reuses tiles; once it rests, the engine asks for the
 * exact zoom so a still map is pixel-exact.
 */
import type { Camera, Viewport } from './camera.ts';
import type { CanvasFactory } from './canvas-factory.ts';
import type { PlacedLabel } from './region-labels.ts';
import { SEA } from '@pixel-atlas/contracts/terrain-palette';
import {
  labelSpriteSize,
  renderLabelSprite,
  renderWorldTile,
  worldDeviceSize,
  type StaticWorld,
  type SurfaceImage,
} from './static-layers.ts';

/** Tile edge in device pixels: a 1280×800 view needs 6 to 12 of them. */
export const TILE_DEVICE_PX = 512;
/** Zoom buckets per octave while zooming: tiles are upscaled at most √2 before the next bucket. */
const BUCKETS_PER_OCTAVE = 2;
/**
 * While the zoom moves, tiles rendered at the previous zoom are kept while zoom / render zoom stays in
 * [1, this) (zooming in starts without rebuilding anything), then the bucket takes over. Never below 1: the engine
 * shows a moving zoom by scaling the frame up on the compositor, which must cover the whole view.
 */
const REUSE_MAX_SCALE = 1.5;
/**
 * Building a tile paints terrain and every plot on it: a pan that scrolls a whole column of missing
 * tiles into view would pay for all of them in one frame. A frame builds at most this many (their
 * raster, not the recording timed in JS, is the cost); the rest show the terrain alone for a frame or
 * two while later frames and idle time build them. Pans and a layout's first paint are budgeted (the engine passes
 * `mayBuild`); after a data or zoom change every tile is built at once, since showing terrain without its plots there
 * would read as the plots vanishing.
 */
export const TILES_BUILT_PER_PAN_FRAME = 1;

/** The render zoom of the bucket holding `zoom`: the largest 2^(k / BUCKETS_PER_OCTAVE) not above it. */
export function zoomBucket(zoom: number): number {
  return 2 ** (Math.floor(Math.log2(zoom) * BUCKETS_PER_OCTAVE + 1e-9) / BUCKETS_PER_OCTAVE);
}

/**
 * The render zoom for a frame: exact when the zoom rests, else the previous one while close enough below the zoom,
 * else the bucket at or below it. While the zoom moves it is never above the zoom.
 */
export function chooseRenderZoom(zoom: number, zoomResting: boolean, previous: number | null): number {
  if (zoomResting) return zoom;
  if (previous !== null) {
    const scale = zoom / previous;
    if (scale >= 1 && scale < REUSE_MAX_SCALE) return previous;
  }
  return zoomBucket(zoom);
}

export interface LayerCacheStats {
  /** World tiles rendered since the cache was created (each one paints terrain and plots). */
  tileRenders: number;
  labelRenders: number;
}

export interface FrameTarget {
  ctx: CanvasRenderingContext2D;
  camera: Camera;
  viewport: Viewport;
  dpr: number;
  /** Backing store size in device pixels. */
  width: number;
  height: number;
}

export interface LayerCache {
  /**
   * Paints the world for this camera from tiles rendered at `renderZoom`, building missing ones while
   * `mayBuild(builtSoFar)` allows (the engine's budget: every one after a data change, one per pan frame,
   * a time slice for the first paint); the others show their terrain alone. Returns false when some tile
   * is still missing (ask for another frame).
   */
  drawWorld(target: FrameTarget, world: StaticWorld | null, renderZoom: number, mayBuild: (built: number) => boolean): boolean;
  /** Paints each placed label from its sprite. */
  drawLabels(target: FrameTarget, labels: readonly PlacedLabel[]): void;
  /** Renders one tile just outside the last frame's view (idle time); false when none is missing. */
  prerenderNext(world: StaticWorld | null): boolean;
  /** Data changed: every tile is stale. */
  invalidate(): void;
  /** Label font or size changed: every sprite is stale. */
  invalidateLabels(): void;
  /** An avatar arrived: tiles drawn while it was loading are stale. */
  imagesLoaded(): void;
  readonly stats: LayerCacheStats;
  clear(): void;
}

interface CachedTile {
  surface: SurfaceImage;
  awaitingImages: boolean;
  usedInFrame: number;
}

interface TileGrid {
  zoom: number;
  dpr: number;
  /** World size in device pixels at that zoom. */
  size: number;
  tilesPerSide: number;
}

export function createLayerCache(createSurface: CanvasFactory): LayerCache {
  const stats: LayerCacheStats = { tileRenders: 0, labelRenders: 0 };
  const tiles = createTileStore(createSurface, stats);
  const sprites = new Map<string, SurfaceImage>();
  /** The last frame's tile range, grown by one: where idle time pre-renders. */
  let around: TileRange | null = null;
  let scratch: SurfaceImage | null = null;

  return {
    stats,
    drawWorld({ ctx, camera, viewport, dpr, width, height }, world, renderZoom, mayBuild) {
      tiles.startFrame();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.imageSmoothingEnabled = false;
      ctx.fillStyle = SEA.abyss;
      if (!world) {
        ctx.fillRect(0, 0, width, height);
        around = null;
        return true;
      }
      let built = 0;
      let complete = true;
      const grid: TileGrid = { zoom: renderZoom, dpr, size: worldDeviceSize(renderZoom, dpr), tilesPerSide: 0 };
      grid.tilesPerSide = Math.ceil(grid.size / TILE_DEVICE_PX);
      // World device pixel X (at the render zoom) lands on screen device pixel (X - originX) * scale + half width.
      const scale = camera.zoom / renderZoom;
      const originX = camera.centerX * renderZoom * dpr;
      const originY = camera.centerY * renderZoom * dpr;
      const halfW = (viewport.width * dpr) / 2;
      const halfH = (viewport.height * dpr) / 2;
      const toScreenX = (x: number) => Math.round((x - originX) * scale + halfW);
      const toScreenY = (y: number) => Math.round((y - originY) * scale + halfH);
      fillSeaAround(ctx, width, height, {
        left: toScreenX(0),
        top: toScreenY(0),
        right: toScreenX(grid.size),
        bottom: toScreenY(grid.size),
      });

      const last = grid.tilesPerSide - 1;
      const i0 = Math.max(0, Math.floor((originX - halfW / scale) / TILE_DEVICE_PX));
      const j0 = Math.max(0, Math.floor((originY - halfH / scale) / TILE_DEVICE_PX));
      const i1 = Math.min(last, Math.floor((originX + halfW / scale) / TILE_DEVICE_PX));
      const j1 = Math.min(last, Math.floor((originY + halfH / scale) / TILE_DEVICE_PX));
      const visible = Math.max(0, i1 - i0 + 1) * Math.max(0, j1 - j0 + 1);
      // Three screens' worth (two zoom buckets and the way back) and the ring pre-rendered around the view.
      const across = Math.ceil((viewport.width * dpr) / TILE_DEVICE_PX) + 3;
      const down = Math.ceil((viewport.height * dpr) / TILE_DEVICE_PX) + 3;
      tiles.setBudget(Math.max(16, visible, across * down * 3));
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          let tile = tiles.get(grid, i, j);
          if (!tile && mayBuild(built)) {
            tile = tiles.render(world, grid, i, j);
            built++;
          }
          const tw = Math.min(TILE_DEVICE_PX, grid.size - i * TILE_DEVICE_PX);
          const th = Math.min(TILE_DEVICE_PX, grid.size - j * TILE_DEVICE_PX);
          const x0 = toScreenX(i * TILE_DEVICE_PX);
          const y0 = toScreenY(j * TILE_DEVICE_PX);
          // Both edges snapped: neighbouring tiles meet without seams; at scale 1 this is a 1:1 copy.
          const x1 = toScreenX(i * TILE_DEVICE_PX + tw);
          const y1 = toScreenY(j * TILE_DEVICE_PX + th);
          if (tile) ctx.drawImage(tile.surface, 0, 0, tw, th, x0, y0, x1 - x0, y1 - y0);
          else {
            complete = false;
            drawTerrainOnly(ctx, world, camera, dpr, { x: halfW, y: halfH }, { x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
          }
        }
      }
      around = { grid, i0: Math.max(0, i0 - 1), j0: Math.max(0, j0 - 1), i1: Math.min(last, i1 + 1), j1: Math.min(last, j1 + 1) };
      tiles.evictOverflow();
      return complete;
    },

    drawLabels({ ctx, dpr }, labels) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      for (const label of labels) {
        const k = `${label.region.value}|${label.region.name}|${label.fontPx}|${label.width}|${dpr}`;
        let sprite = sprites.get(k);
        if (!sprite) {
          const size = labelSpriteSize(label, dpr);
          sprite = createSurface(size.width, size.height);
          const spriteCtx = sprite.getContext('2d');
          if (spriteCtx) renderLabelSprite(spriteCtx, label, dpr);
          stats.labelRenders++;
          sprites.set(k, sprite);
        }
        ctx.drawImage(sprite, Math.round(label.x * dpr), Math.round(label.y * dpr));
      }
    },

    prerenderNext(world) {
      if (!world || !around) return false;
      const { grid, i0, j0, i1, j1 } = around;
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          if (tiles.has(grid, i, j)) continue;
          const tile = tiles.render(world, grid, i, j);
          // Canvas 2D records commands and rasterises them when the canvas is first used as a source:
          // use it once now, in idle time, so the frame that scrolls it into view only copies pixels.
          scratch ??= createSurface(1, 1);
          scratch.getContext('2d')?.drawImage(tile.surface, 0, 0, 1, 1, 0, 0, 1, 1);
          tiles.evictOverflow();
          return true;
        }
      }
      return false;
    },

    invalidate() {
      tiles.clear();
    },
    invalidateLabels() {
      sprites.clear();
    },
    imagesLoaded() {
      tiles.dropAwaitingImages();
    },
    clear() {
      tiles.clear();
      sprites.clear();
      around = null;
    },
  };
}

interface TileRange {
  grid: TileGrid;
  i0: number;
  j0: number;
  i1: number;
  j1: number;
}

interface TileStore {
  /** Tiles used from here on belong to a new frame (the current frame's tiles are never evicted). */
  startFrame(): void;
  /** How many tiles may stay once the current frame's are counted out. */
  setBudget(tiles: number): void;
  get(grid: TileGrid, i: number, j: number): CachedTile | null;
  has(grid: TileGrid, i: number, j: number): boolean;
  render(world: StaticWorld, grid: TileGrid, i: number, j: number): CachedTile;
  evictOverflow(): void;
  dropAwaitingImages(): void;
  clear(): void;
}

/** The rendered world tiles: a bounded least-recently-used cache keyed by render zoom, dpr and tile position. */
function createTileStore(createSurface: CanvasFactory, stats: LayerCacheStats): TileStore {
  const tiles = new Map<string, CachedTile>();
  let frame = 0;
  let budget = 48;
  const key = (grid: TileGrid, i: number, j: number) => `${grid.zoom}|${grid.dpr}|${i}|${j}`;

  return {
    startFrame() {
      frame++;
    },
    setBudget(next) {
      budget = next;
    },
    get(grid, i, j) {
      const k = key(grid, i, j);
      const cached = tiles.get(k);
      if (!cached) return null;
      // Refresh recency: Map iteration order is insertion order, so eviction drops the stalest first.
      tiles.delete(k);
      tiles.set(k, cached);
      cached.usedInFrame = frame;
      return cached;
    },
    has: (grid, i, j) => tiles.has(key(grid, i, j)),
    render(world, grid, i, j) {
      const x = i * TILE_DEVICE_PX;
      const y = j * TILE_DEVICE_PX;
      const width = Math.min(TILE_DEVICE_PX, grid.size - x);
      const height = Math.min(TILE_DEVICE_PX, grid.size - y);
      const surface = createSurface(width, height);
      // Opaque: the terrain covers every pixel, and opaque sources blit without blending.
      const ctx = surface.getContext('2d', { alpha: false });
      const awaitingImages = ctx ? renderWorldTile(ctx, world, { zoom: grid.zoom, dpr: grid.dpr, x, y, width, height }) : false;
      stats.tileRenders++;
      const tile = { surface, awaitingImages, usedInFrame: frame };
      tiles.set(key(grid, i, j), tile);
      return tile;
    },
    evictOverflow() {
      for (const [k, tile] of tiles) {
        if (tiles.size <= budget) return;
        if (tile.usedInFrame !== frame) tiles.delete(k);
      }
    },
    dropAwaitingImages() {
      for (const [k, tile] of tiles) if (tile.awaitingImages) tiles.delete(k);
    },
    clear() {
      tiles.clear();
    },
  };
}

/** Sea only where the world does not cover the view: a full-view fill under it would double the pixels written. */
function fillSeaAround(
  ctx: CanvasRenderingContext2D,
  width: number,
  height: number,
  world: { left: number; top: number; right: number; bottom: number },
): void {
  const { left, top, right, bottom } = world;
  if (top > 0) ctx.fillRect(0, 0, width, top);
  if (bottom < height) ctx.fillRect(0, bottom, width, height - bottom);
  const bandTop = Math.max(0, top);
  const bandHeight = Math.min(height, bottom) - bandTop;
  if (bandHeight > 0 && left > 0) ctx.fillRect(0, bandTop, left, bandHeight);
  if (bandHeight > 0 && right < width) ctx.fillRect(right, bandTop, width - right, bandHeight);
}

/** Stand-in for a tile not built yet: the terrain chunks under that screen rectangle (device px), no plots. */
function drawTerrainOnly(
  ctx: CanvasRenderingContext2D,
  world: StaticWorld,
  camera: Camera,
  dpr: number,
  screenCentre: { x: number; y: number },
  rect: { x: number; y: number; width: number; height: number },
): void {
  if (rect.width <= 0 || rect.height <= 0) return;
  const scale = camera.zoom * dpr;
  // A camera and viewport that show exactly this rectangle, drawn translated to where it sits on screen.
  const view = {
    centerX: camera.centerX + (rect.x + rect.width / 2 - screenCentre.x) / scale,
    centerY: camera.centerY + (rect.y + rect.height / 2 - screenCentre.y) / scale,
    zoom: camera.zoom,
  };
  ctx.save();
  ctx.beginPath();
  ctx.rect(rect.x, rect.y, rect.width, rect.height);
  ctx.clip();
  ctx.setTransform(1, 0, 0, 1, rect.x, rect.y);
  world.terrain.drawChunks(ctx, view, { width: rect.width / dpr, height: rect.height / dpr }, dpr);
  ctx.restore();
}
