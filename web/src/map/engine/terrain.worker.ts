/**
 * The terrain worker (a module Worker Vite bundles on its own): classification and rasterisation off the main thread,
 * chunks sent back as ImageBitmaps drawn by OffscreenCanvas (or as pixels where a worker has no OffscreenCanvas).
 * Started by browserTerrainWorker (terrain-worker-client.ts); the logic is terrain-worker-core.ts.
 */
import { createTerrainWorkerCore, type TerrainWorkerRequest, type TerrainWorkerReply } from './terrain-worker-core.ts';

interface WorkerSelf {
  onmessage: ((event: MessageEvent<TerrainWorkerRequest>) => void) | null;
  postMessage(message: TerrainWorkerReply, transfer: Transferable[]): void;
}

const workerSelf = self as unknown as WorkerSelf;

const toBitmap =
  typeof OffscreenCanvas === 'undefined'
    ? null
    : (pixels: Uint8ClampedArray<ArrayBuffer>, width: number, height: number) => {
        const canvas = new OffscreenCanvas(width, height);
        const ctx = canvas.getContext('2d');
        if (!ctx) throw new Error('OffscreenCanvas without a 2d context');
        ctx.putImageData(new ImageData(pixels, width, height), 0, 0);
        return canvas.transferToImageBitmap();
      };

const core = createTerrainWorkerCore({
  post: (reply, transfer) => workerSelf.postMessage(reply, transfer),
  toBitmap,
  yieldThen: (next) => setTimeout(next, 0),
  now: () => performance.now(),
});

workerSelf.onmessage = (event) => core.receive(event.data);
