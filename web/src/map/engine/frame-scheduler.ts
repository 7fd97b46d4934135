/**
 * At most one draw per animation frame, and none when nothing changed: callers `invalidate()` on
 * every change; the draw runs on the next frame only if something was invalidated. A draw that is
 * mid-animation returns true to ask for the following frame.
 */
export interface FrameScheduler {
  invalidate(): void;
  /** Draws now if invalidated (used after resize so the canvas never shows a blank frame). */
  flush(): void;
  destroy(): void;
}

export interface FrameSchedulerDeps {
  requestFrame: (callback: (time: number) => void) => number;
  cancelFrame: (handle: number) => void;
  now: () => number;
}

export function browserFrameDeps(): FrameSchedulerDeps {
  return {
    requestFrame: (callback) => window.requestAnimationFrame(callback),
    cancelFrame: (handle) => window.cancelAnimationFrame(handle),
    now: () => performance.now(),
  };
}

export function createFrameScheduler(draw: (time: number) => boolean, deps: FrameSchedulerDeps): FrameScheduler {
  let dirty = false;
  let pending: number | null = null;
  let destroyed = false;

  const run = (time: number) => {
    pending = null;
    if (!dirty || destroyed) return;
    dirty = false;
    if (draw(time)) invalidate();
  };

  function invalidate(): void {
    if (destroyed) return;
    dirty = true;
    if (pending === null) pending = deps.requestFrame(run);
  }

  return {
    invalidate,
    flush() {
      if (!dirty || destroyed) return;
      if (pending !== null) deps.cancelFrame(pending);
      run(deps.now());
    },
    destroy() {
      destroyed = true;
      if (pending !== null) deps.cancelFrame(pending);
      pending = null;
    },
  };
}
