/**
 * Starts the terrain worker (terrain.worker.ts), or says there is none: no Worker (Node, jsdom, very old browsers),
 * or it could not be created (a CSP without worker-src/script-src 'self'). The engine then classifies and rasterises
 * terrain on the main thread, in short slices, as it did before the worker.
 */
export type TerrainWorkerFactory = () => Worker | null;

export const browserTerrainWorker: TerrainWorkerFactory = () => {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('./terrain.worker.ts', import.meta.url), { type: 'module', name: 'terrain' });
  } catch {
    return null;
  }
};
