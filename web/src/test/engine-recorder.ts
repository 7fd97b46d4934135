import { beforeEach, vi, type Mock } from 'vitest';
import type { MapEngineOptions } from '../map/engine/engine.ts';

/*
 * The canvas engine has its own tests; the screens' tests put this recorder in its place, to see what a screen asks of it:
 *   vi.mock('…/map/engine/engine.ts', () => import('…/test/engine-recorder.ts').then((recorder) => recorder.recordingEngineModule));
 */

export interface RecordedEngine {
  canvas: HTMLCanvasElement;
  options: MapEngineOptions;
  engine: Record<(typeof ENGINE_METHODS)[number], Mock>;
}

const ENGINE_METHODS = [
  'setLayout',
  'setPlots',
  'setReservedFootprints',
  'setSelectedTile',
  'zoomIn',
  'zoomOut',
  'resetView',
  'flyTo',
  'setOccludedRects',
  'revealTile',
  'resize',
  'destroy',
] as const;

/** Every engine the screens made in this test, oldest first. */
export const engines: RecordedEngine[] = [];

beforeEach(() => {
  engines.length = 0;
});

export const recordingEngineModule = {
  createMapEngine(canvas: HTMLCanvasElement, options: MapEngineOptions) {
    const engine = Object.fromEntries(ENGINE_METHODS.map((name) => [name, vi.fn()])) as RecordedEngine['engine'];
    engines.push({ canvas, options, engine });
    return engine;
  },
};

/** The engine made last (the one on screen). */
export function lastEngine(): RecordedEngine {
  const last = engines.at(-1);
  if (!last) throw new Error('no map engine was made');
  return last;
}

/** The engines not destroyed yet. */
export const liveEngines = () => engines.filter((entry) => entry.engine.destroy.mock.calls.length === 0);
