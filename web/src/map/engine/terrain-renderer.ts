import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import { worldToScreen, visibleTileRange, type Camera, type Viewport } from './camera.ts';
import type { CanvasFactory, Surface } from './canvas-factory.ts';
import type { TerrainGrid } from './terrain-classify.ts';
import { rasterizeTerrain, TERRAIN_TILE_PX } from './terrain-raster.ts';

/**
 * 9x9 tiles = 144x144 px per chunk at the base resolution: 100 chunks for the 90x90 world. Rasterising one is
 * per-pixel JS, and the first ones run before the JIT has warmed up; at this size even a cold chunk is a short task
 * on a slow phone, so first paint and idle time build them one task slice at a time (30x30 chunks were 55-60 ms
 * each with 4x CPU throttling; a cold 15x15 chunk still made a 50 ms task).
 */
export const CHUNK_TILES = 9;
/** Pixels per tile of the whole-world overview used at far zoom. */
export const OVERVIEW_TILE_PX = 8;

type SurfaceImage = Surface & CanvasImageSource;

export interface TerrainRenderer {
  /** Copies the visible part of the pre-rendered terrain onto ctx (identity transform, device pixels). */
  drawChunks(ctx: CanvasRenderingContext2D, camera: Camera, viewport: Viewport, dpr: number): void;
  /** The whole world at OVERVIEW_TILE_PX per tile (built on first use). */
  overview(): SurfaceImage;
  /** Pre-renders one more chunk that is not ready yet; false when all are. Lets idle time do the work. */
  prerenderNext(): boolean;
  /** Rasterises one chunk this view needs that is not ready yet; false when the view's chunks are all ready. */
  prerenderNextIn(camera: Camera, viewport: Viewport): boolean;
  readonly chunksPerSide: number;
}

/**
 * Terrain is static per layout: each chunk is rasterised once (pixel art at TERRAIN_TILE_PX per tile)
 * into an offscreen canvas, then only copied — scaled with nearest-neighbour — on every frame.
 */
export function createTerrainRenderer(grid: TerrainGrid, createSurface: CanvasFactory): TerrainRenderer {
  const chunksPerSide = Math.ceil(grid.size / CHUNK_TILES);
  const chunks: Array<SurfaceImage | null> = new Array(chunksPerSide * chunksPerSide).fill(null);
  let overviewSurface: SurfaceImage | null = null;

  const chunkArea = (cx: number, cy: number) => ({
    x0: cx * CHUNK_TILES,
    y0: cy * CHUNK_TILES,
    x1: Math.min(grid.size, (cx + 1) * CHUNK_TILES),
    y1: Math.min(grid.size, (cy + 1) * CHUNK_TILES),
  });

  const ensureChunk = (cx: number, cy: number): SurfaceImage => {
    const slot = cy * chunksPerSide + cx;
    const existing = chunks[slot];
    if (existing) return existing;
    const area = chunkArea(cx, cy);
    const width = (area.x1 - area.x0) * TERRAIN_TILE_PX;
    const height = (area.y1 - area.y0) * TERRAIN_TILE_PX;
    const surface = createSurface(width, height);
    const ctx = surface.getContext('2d');
    if (ctx) ctx.putImageData(new ImageData(rasterizeTerrain(grid, area), width, height), 0, 0);
    chunks[slot] = surface;
    return surface;
  };

  /** Chunk coordinates the view touches. */
  const chunkRangeIn = (camera: Camera, viewport: Viewport) => {
    const range = visibleTileRange(camera, viewport);
    if (range.x0 >= range.x1 || range.y0 >= range.y1) return null;
    return {
      cx0: Math.floor(range.x0 / CHUNK_TILES),
      cy0: Math.floor(range.y0 / CHUNK_TILES),
      cx1: Math.floor((range.x1 - 1) / CHUNK_TILES),
      cy1: Math.floor((range.y1 - 1) / CHUNK_TILES),
    };
  };

  return {
    chunksPerSide,
    prerenderNextIn(camera, viewport) {
      const chunkRange = chunkRangeIn(camera, viewport);
      if (!chunkRange) return false;
      for (let cy = chunkRange.cy0; cy <= chunkRange.cy1; cy++) {
        for (let cx = chunkRange.cx0; cx <= chunkRange.cx1; cx++) {
          if (chunks[cy * chunksPerSide + cx]) continue;
          ensureChunk(cx, cy);
          return true;
        }
      }
      return false;
    },
    drawChunks(ctx, camera, viewport, dpr) {
      const range = visibleTileRange(camera, viewport);
      if (range.x0 >= range.x1 || range.y0 >= range.y1) return;
      ctx.imageSmoothingEnabled = false;
      const cx0 = Math.floor(range.x0 / CHUNK_TILES);
      const cy0 = Math.floor(range.y0 / CHUNK_TILES);
      const cx1 = Math.floor((range.x1 - 1) / CHUNK_TILES);
      const cy1 = Math.floor((range.y1 - 1) / CHUNK_TILES);
      for (let cy = cy0; cy <= cy1; cy++) {
        for (let cx = cx0; cx <= cx1; cx++) {
          const area = chunkArea(cx, cy);
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
            ensureChunk(cx, cy),
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
      }
    },
    overview() {
      if (overviewSurface) return overviewSurface;
      const surface = createSurface(grid.size * OVERVIEW_TILE_PX, grid.size * OVERVIEW_TILE_PX);
      const ctx = surface.getContext('2d');
      if (ctx) {
        // Smoothing on for the downscale only: averaging keeps far-zoom terrain calm instead of shimmering.
        ctx.imageSmoothingEnabled = true;
        ctx.imageSmoothingQuality = 'high';
        const scale = OVERVIEW_TILE_PX / TERRAIN_TILE_PX;
        for (let cy = 0; cy < chunksPerSide; cy++) {
          for (let cx = 0; cx < chunksPerSide; cx++) {
            const chunk = ensureChunk(cx, cy);
            ctx.drawImage(
              chunk,
              cx * CHUNK_TILES * OVERVIEW_TILE_PX,
              cy * CHUNK_TILES * OVERVIEW_TILE_PX,
              chunk.width * scale,
              chunk.height * scale,
            );
          }
        }
      }
      overviewSurface = surface;
      return surface;
    },
    prerenderNext() {
      const slot = chunks.findIndex((chunk) => chunk === null);
      if (slot < 0) return false;
      ensureChunk(slot % chunksPerSide, Math.floor(slot / chunksPerSide));
      return true;
    },
  };
}
