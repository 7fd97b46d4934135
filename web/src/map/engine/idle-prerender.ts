import type { LayerCache } from './layer-cache.ts';
import type { SceneState } from './scene.ts';
import type { StaticWorld } from './static-layers.ts';
import { whenIdle } from '../../lib/when-idle.ts';

export interface IdlePrerenderOptions {
  scene: SceneState;
  layers: LayerCache;
  world: () => StaticWorld | null;
  /** Runs `work` when the page is idle; returns a cancel function. */
  scheduleIdle?: (work: () => void) => () => void;
}

/**
 * Idle time pre-renders the terrain chunks (or waits for the worker's), then the layer tiles just outside the view: one
 * unit per idle callback.
 */
export interface IdlePrerender {
  /** Starts working through what is missing, unless that is under way already. */
  schedule(): void;
  /** Drops the work under way (a new layout has other chunks). */
  cancel(): void;
  /** For good: nothing is scheduled again. */
  stop(): void;
}

export function createIdlePrerender({ scene, layers, world, scheduleIdle = defaultScheduleIdle }: IdlePrerenderOptions): IdlePrerender {
  let cancelWork: (() => void) | null = null;
  let stopped = false;

  const step = () => {
    cancelWork = null;
    const layout = scene.layout;
    if (!layout || stopped) return;
    // Layer tiles only once every chunk is in: a tile drawn before its chunk came from the worker would rasterise it here.
    if (layout.terrain.prerenderNext() !== 'done' || layers.prerenderNext(world())) cancelWork = scheduleIdle(step);
  };

  return {
    schedule() {
      if (cancelWork || stopped) return;
      cancelWork = scheduleIdle(step);
    },
    cancel() {
      cancelWork?.();
      cancelWork = null;
    },
    stop() {
      stopped = true;
      cancelWork?.();
    },
  };
}

function defaultScheduleIdle(work: () => void): () => void {
  return whenIdle(work, { timeoutMs: 500, fallbackMs: 30 });
}
