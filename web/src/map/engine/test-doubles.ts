/** Hand-made stand-ins for browser drawing APIs that jsdom lacks. Test-only. */

/** A hand-cranked requestAnimationFrame. */
export function fakeFrames() {
  let queue: Array<{ handle: number; callback: (time: number) => void }> = [];
  let nextHandle = 1;
  let time = 0;
  return {
    deps: {
      requestFrame: (callback: (time: number) => void) => {
        const handle = nextHandle++;
        queue.push({ handle, callback });
        return handle;
      },
      cancelFrame: (handle: number) => {
        queue = queue.filter((entry) => entry.handle !== handle);
      },
      now: () => time,
    },
    pending: () => queue.length,
    /** Runs the frames queued so far, `ms` after the previous one. */
    step(ms = 16) {
      time += ms;
      const due = queue;
      queue = [];
      for (const entry of due) entry.callback(time);
    },
    advance(ms: number) {
      time += ms;
    },
  };
}

/**
 * A 2D context that records what is drawn. Every method is a no-op recorder; measureText returns
 * 8 px per character so label layout is predictable.
 */
export function recordingContext(): CanvasRenderingContext2D & { calls: Array<{ name: string; args: unknown[] }> } {
  const calls: Array<{ name: string; args: unknown[] }> = [];
  const state: Record<string | symbol, unknown> = { calls };
  return new Proxy(state, {
    get(target, property) {
      if (property in target) return target[property];
      if (property === 'measureText') return (text: string) => ({ width: text.length * 8 });
      return (...args: unknown[]) => {
        calls.push({ name: String(property), args });
      };
    },
    set(target, property, value) {
      target[property] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D & { calls: Array<{ name: string; args: unknown[] }> };
}

/** Offscreen surfaces backed by recording contexts. */
export function recordingSurfaces() {
  const created: Array<{ width: number; height: number; context: ReturnType<typeof recordingContext> }> = [];
  const factory = (width: number, height: number) => {
    const context = recordingContext();
    const surface = { width, height, context, getContext: () => context };
    created.push(surface);
    return surface as unknown as HTMLCanvasElement;
  };
  return { factory, created };
}

/** jsdom has no ImageData: a structural stand-in is enough for putImageData on a recording context. */
export class FakeImageData {
  constructor(
    readonly data: Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
  ) {}
}

/** An 800x600 canvas in the document with its top-left corner at (left, top): jsdom lays nothing out. */
export function placedCanvas(left = 0, top = 0): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.getBoundingClientRect = () => ({
    left,
    top,
    width: 800,
    height: 600,
    right: left + 800,
    bottom: top + 600,
    x: left,
    y: top,
    toJSON: () => ({}),
  });
  document.body.append(canvas);
  return canvas;
}
