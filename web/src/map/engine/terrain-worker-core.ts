import { classifyTerrainMasks, type TerrainGrid, type TerrainMasks } from './terrain-classify.ts';
import { rasterizeTerrain, terrainChunkArea, terrainChunksPerSide } from './terrain-raster.ts';

/**
 * The terrain worker's protocol and its whole logic, with no worker API in it: terrain.worker.ts wires it to `self`,
 * tests drive it directly (terrain-worker-core.test.ts proves its chunks are the main-thread path's, byte for byte).
 */
export type TerrainWorkerRequest =
  /** Classify this layout and rasterise all its chunks. Sent once: a worker serves one layout. */
  | { type: 'layout'; masks: TerrainMasks; labelPoints: ReadonlyArray<{ x: number; y: number }> }
  /** These chunks are in view and missing: rasterise them next. */
  | { type: 'want'; slots: readonly number[] };

export type TerrainWorkerReply =
  /** First: the classification, so the main thread can rasterise a chunk itself if it cannot wait (a fast pan). */
  | { type: 'grid'; grid: TerrainGrid }
  /** One chunk: an ImageBitmap where the worker has OffscreenCanvas, its RGBA pixels where it does not. */
  | { type: 'chunk'; slot: number; width: number; height: number; bitmap?: ImageBitmap; pixels?: Uint8ClampedArray<ArrayBuffer> };

export interface TerrainWorkerScope {
  post(reply: TerrainWorkerReply, transfer: Transferable[]): void;
  /** Uploads a chunk's pixels into an ImageBitmap (OffscreenCanvas); null where the worker has no OffscreenCanvas. */
  toBitmap: ((pixels: Uint8ClampedArray<ArrayBuffer>, width: number, height: number) => ImageBitmap) | null;
  /** Runs `next` as a new task, so 'want' messages can be read between slices. */
  yieldThen(next: () => void): void;
  now(): number;
}

/** How long the worker rasterises before it reads its messages again (a 'want' reorders what is left). */
const WORKER_SLICE_MS = 8;

export function createTerrainWorkerCore(scope: TerrainWorkerScope): { receive(request: TerrainWorkerRequest): void } {
  let grid: TerrainGrid | null = null;
  /** Chunk slots still to rasterise, next first. */
  let queue: number[] = [];
  let running = false;

  const rasteriseSlot = (current: TerrainGrid, slot: number) => {
    const area = terrainChunkArea(current.size, slot);
    const pixels = rasterizeTerrain(current, area);
    const width = area.widthPx;
    const height = area.heightPx;
    if (scope.toBitmap) {
      const bitmap = scope.toBitmap(pixels, width, height);
      scope.post({ type: 'chunk', slot, width, height, bitmap }, [bitmap]);
    } else {
      scope.post({ type: 'chunk', slot, width, height, pixels }, [pixels.buffer]);
    }
  };

  const run = () => {
    running = false;
    if (!grid) return;
    const started = scope.now();
    for (let slot = queue.shift(); slot !== undefined; slot = queue.shift()) {
      rasteriseSlot(grid, slot);
      if (queue.length && scope.now() - started >= WORKER_SLICE_MS) {
        running = true;
        scope.yieldThen(run);
        return;
      }
    }
  };

  return {
    receive(request) {
      if (request.type === 'layout') {
        grid = classifyTerrainMasks(request.masks, request.labelPoints);
        scope.post({ type: 'grid', grid }, []);
        const slots = terrainChunksPerSide(grid.size) ** 2;
        queue = Array.from({ length: slots }, (_, slot) => slot);
      } else {
        const wanted = new Set(request.slots);
        queue = [...request.slots.filter((slot) => queue.includes(slot)), ...queue.filter((slot) => !wanted.has(slot))];
      }
      if (!running) {
        running = true;
        scope.yieldThen(run);
      }
    },
  };
}
