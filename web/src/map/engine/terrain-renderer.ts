import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import { worldToScreen, visibleTileRange, type Camera, type TileRange, type Viewport } from './camera.ts';
import type { CanvasFactory, Surface } from './canvas-factory.ts';
import { classifyTerrainMasks, type TerrainGrid, type TerrainMasks } from './terrain-classify.ts';
import { CHUNK_TILES, rasterizeTerrain, TERRAIN_TILE_PX, terrainChunkArea, terrainChunksPerSide, type TileArea } from './terrain-raster.ts';
import type { TerrainWorkerReply, TerrainWorkerRequest } from './terrain-worker-core.ts';

/** Pixels per tile of the whole-world overview used at far zoom. */
export const OVERVIEW_TILE_PX = 8;

type SurfaceImage = Surface & CanvasImageSource;
/** A rasterised chunk: a canvas (main-thread path, or pixels from the worker) or the worker's ImageBitmap. */
type ChunkImage = CanvasImageSource & { width: number; height: number };

/** What asking for chunks did: rasterised one here, is waiting for the worker's, or found them all ready. */
export type ChunkWork = 'built' | 'waiting' | 'done';

export interface TerrainRenderer {
  /** Copies the visible part of the pre-rendered terrain onto ctx (identity transform, device pixels). */
  drawChunks(ctx: CanvasRenderingContext2D, camera: Camera, viewport: Viewport, dpr: number): void;
  /** The whole world at OVERVIEW_TILE_PX per tile (built on first use). */
  overview(): SurfaceImage;
  /**
   * Pre-renders one more chunk that is not ready yet, or waits for the worker's: idle time (and, `forFrame`, the far
   * view's first paint, which needs them all: an arrival then asks for a frame).
   */
  prerenderNext(forFrame?: boolean): ChunkWork;
  /** Rasterises one chunk this view needs that is not ready yet (or asks the worker for them first). */
  prerenderNextIn(camera: Camera, viewport: Viewport): ChunkWork;
  /** Stops the worker (a new layout, or the engine goes). */
  dispose(): void;
  readonly chunksPerSide: number;
}

export interface TerrainSource {
  masks: TerrainMasks;
  labelPoints: ReadonlyArray<{ x: number; y: number }>;
  /** The terrain worker, or null: classification and rasterisation on the main thread. */
  worker: Worker | null;
  /** A chunk the engine waited for has come from the worker: time for a frame. */
  onChunkArrived?: () => void;
}

/** Chunk coordinates (inclusive) a non-empty tile range touches. */
function chunkRangeOf(range: TileRange) {
  return {
    cx0: Math.floor(range.x0 / CHUNK_TILES),
    cy0: Math.floor(range.y0 / CHUNK_TILES),
    cx1: Math.floor((range.x1 - 1) / CHUNK_TILES),
    cy1: Math.floor((range.y1 - 1) / CHUNK_TILES),
  };
}

/** Copies the tiles of one chunk that are in view onto ctx (identity transform, device pixels). */
function drawChunkInView(
  ctx: CanvasRenderingContext2D,
  chunk: ChunkImage,
  area: TileArea,
  range: TileRange,
  view: { camera: Camera; viewport: Viewport; dpr: number },
): void {
  const { camera, viewport, dpr } = view;
  // Copy only the tiles in view: cheap at deep zoom, where a chunk is far bigger than the screen.
  const tx0 = Math.max(area.x0, range.x0);
  const ty0 = Math.max(area.y0, range.y0);
  const tx1 = Math.min(area.x1, range.x1);
  const ty1 = Math.min(area.y1, range.y1);
  const topLeft = worldToScreen(camera, viewport, tx0 * TILE_SIZE_PX, ty0 * TILE_SIZE_PX);
  const bottomRight = worldToScreen(camera, viewport, tx1 * TILE_SIZE_PX, ty1 * TILE_SIZE_PX);
  // Snap both edges to device pixels so neighbouring chunks meet without seams.
  const dx0 = Math.round(topLeft.x * dpr);
  const dy0 = Math.round(topLeft.y * dpr);
  const dx1 = Math.round(bottomRight.x * dpr);
  const dy1 = Math.round(bottomRight.y * dpr);
  ctx.drawImage(
    chunk,
    (tx0 - area.x0) * TERRAIN_TILE_PX,
    (ty0 - area.y0) * TERRAIN_TILE_PX,
    (tx1 - tx0) * TERRAIN_TILE_PX,
    (ty1 - ty0) * TERRAIN_TILE_PX,
    dx0,
    dy0,
    dx1 - dx0,
    dy1 - dy0,
  );
}

/** The whole world at OVERVIEW_TILE_PX per tile, from every chunk `ensureChunk` has (or can rasterise). */
function drawOverview(
  createSurface: CanvasFactory,
  size: number,
  slots: readonly number[],
  ensureChunk: (slot: number) => ChunkImage | null,
): SurfaceImage {
  const surface = createSurface(size * OVERVIEW_TILE_PX, size * OVERVIEW_TILE_PX);
  const ctx = surface.getContext('2d');
  if (ctx) {
    // Smoothing on for the downscale only: averaging keeps far-zoom terrain calm instead of shimmering.
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    const scale = OVERVIEW_TILE_PX / TERRAIN_TILE_PX;
    for (const slot of slots) {
      const chunk = ensureChunk(slot);
      if (!chunk) continue;
      const area = terrainChunkArea(size, slot);
      ctx.drawImage(chunk, area.x0 * OVERVIEW_TILE_PX, area.y0 * OVERVIEW_TILE_PX, chunk.width * scale, chunk.height * scale);
    }
  }
  return surface;
}

/**
 * Terrain is static per layout: each chunk is rasterised once (pixel art at TERRAIN_TILE_PX per tile), then only
 * copied — scaled with nearest-neighbour — on every frame. With a worker, classification and rasterisation run
 * there (terrain-worker-core.ts) and the chunks arrive as ImageBitmaps; the main thread rasterises a chunk itself
 * (the same pure rasterizeTerrain) only when a frame needs one the worker has not sent yet, or the worker failed.
 */
export function createTerrainRenderer(source: TerrainSource, createSurface: CanvasFactory): TerrainRenderer {
  const size = source.masks.size;
  const chunksPerSide = terrainChunksPerSide(size);
  const chunks: Array<ChunkImage | null> = new Array(chunksPerSide * chunksPerSide).fill(null);
  let overviewSurface: SurfaceImage | null = null;
  let worker = source.worker;
  let grid: TerrainGrid | null = worker ? null : classifyTerrainMasks(source.masks, source.labelPoints);
  /** Chunks asked of the worker already (a 'want' moves them to the front of its queue). */
  const wanted = new Uint8Array(chunks.length);
  /** Someone found a chunk missing and waits for the worker: its arrival asks for a frame. */
  let waiting = false;

  const uploadPixels = (pixels: Uint8ClampedArray<ArrayBuffer>, width: number, height: number): SurfaceImage => {
    const surface = createSurface(width, height);
    surface.getContext('2d')?.putImageData(new ImageData(pixels, width, height), 0, 0);
    return surface;
  };

  const stopWorker = () => {
    worker?.terminate();
    worker = null;
  };

  const fallBackToMainThread = () => {
    stopWorker();
    grid ??= classifyTerrainMasks(source.masks, source.labelPoints);
    if (waiting) source.onChunkArrived?.();
    waiting = false;
  };

  if (worker) {
    worker.onmessage = (event: MessageEvent<TerrainWorkerReply>) => {
      const reply = event.data;
      if (reply.type === 'grid') {
        grid ??= reply.grid;
        return;
      }
      if (chunks[reply.slot]) return;
      if (reply.bitmap) chunks[reply.slot] = reply.bitmap;
      else if (reply.pixels) chunks[reply.slot] = uploadPixels(reply.pixels, reply.width, reply.height);
      if (waiting) {
        waiting = false;
        source.onChunkArrived?.();
      }
    };
    worker.onerror = fallBackToMainThread;
    worker.onmessageerror = fallBackToMainThread;
    const request: TerrainWorkerRequest = { type: 'layout', masks: source.masks, labelPoints: source.labelPoints };
    worker.postMessage(request);
  }

  /** The chunk, rasterised here if it is not ready (null only while the worker has not even sent the grid). */
  const ensureChunk = (slot: number): ChunkImage | null => {
    const existing = chunks[slot];
    if (existing) return existing;
    if (!grid) return null;
    const area = terrainChunkArea(size, slot);
    const surface = uploadPixels(rasterizeTerrain(grid, area), area.widthPx, area.heightPx);
    chunks[slot] = surface;
    return surface;
  };

  /**
   * Rasterises the first of `slots` that is missing here; with a worker, waits for it, and with `urgent` (a frame
   * needs them) asks the worker for the missing ones first and asks for a frame when one arrives.
   */
  const workOn = (slots: readonly number[], urgent: boolean): ChunkWork => {
    const missing = slots.filter((slot) => !chunks[slot]);
    if (!missing.length) return 'done';
    if (!worker) {
      ensureChunk(missing[0]!);
      return 'built';
    }
    if (!urgent) return 'waiting';
    const unasked = missing.filter((slot) => !wanted[slot]);
    for (const slot of unasked) wanted[slot] = 1;
    if (unasked.length) worker.postMessage({ type: 'want', slots: unasked } satisfies TerrainWorkerRequest);
    waiting = true;
    return 'waiting';
  };

  /** Chunk coordinates the view touches. */
  const chunkRangeIn = (camera: Camera, viewport: Viewport) => {
    const range = visibleTileRange(camera, viewport);
    if (range.x0 >= range.x1 || range.y0 >= range.y1) return null;
    return chunkRangeOf(range);
  };

  const allSlots = Array.from({ length: chunks.length }, (_, slot) => slot);

  return {
    chunksPerSide,
    prerenderNextIn(camera, viewport) {
      const chunkRange = chunkRangeIn(camera, viewport);
      if (!chunkRange) return 'done';
      const slots: number[] = [];
      for (let cy = chunkRange.cy0; cy <= chunkRange.cy1; cy++) {
        for (let cx = chunkRange.cx0; cx <= chunkRange.cx1; cx++) slots.push(cy * chunksPerSide + cx);
      }
      return workOn(slots, true);
    },
    drawChunks(ctx, camera, viewport, dpr) {
      const range = visibleTileRange(camera, viewport);
      if (range.x0 >= range.x1 || range.y0 >= range.y1) return;
      ctx.imageSmoothingEnabled = false;
      const { cx0, cy0, cx1, cy1 } = chunkRangeOf(range);
      for (let cy = cy0; cy <= cy1; cy++) {
        for (let cx = cx0; cx <= cx1; cx++) {
          const slot = cy * chunksPerSide + cx;
          const chunk = ensureChunk(slot);
          if (!chunk) continue;
          drawChunkInView(ctx, chunk, terrainChunkArea(size, slot), range, { camera, viewport, dpr });
        }
      }
    },
    overview() {
      if (overviewSurface) return overviewSurface;
      const surface = drawOverview(createSurface, size, allSlots, ensureChunk);
      // Not kept while the worker has not even classified the layout: the next call draws it whole.
      if (grid) overviewSurface = surface;
      return surface;
    },
    prerenderNext: (forFrame = false) => workOn(allSlots, forFrame),
    dispose: stopWorker,
  };
}
