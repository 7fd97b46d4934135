import { onTestFinished, vi } from 'vitest';
import { createMapEngine, type MapEngineOptions } from './engine.ts';
import { DOUBLE_CLICK_MS } from './input.ts';
import { fakeFrames, FakeImageData, placedCanvas, recordingContext, recordingSurfaces } from './test-doubles.ts';

/**
 * A whole engine on a placed 800x600 recording canvas, with hand-cranked frames and recorded offscreen surfaces: resized, with
 * nothing loaded yet, and destroyed when the test ends. Motion plays unless `options` say the user prefers less.
 */
export function mountEngine(options: Partial<MapEngineOptions> = {}) {
  vi.stubGlobal('ImageData', FakeImageData);
  const canvas = placedCanvas();
  const ctx = recordingContext();
  canvas.getContext = (() => ctx) as unknown as HTMLCanvasElement['getContext'];
  const frames = fakeFrames();
  const surfaces = recordingSurfaces();
  const engine = createMapEngine(canvas, {
    isTouch: false,
    frames: frames.deps,
    createSurface: surfaces.factory,
    fonts: null,
    devicePixelRatio: () => 1,
    prefersReducedMotion: () => false,
    scheduleIdle: () => () => {},
    loadImage: () => new Promise(() => {}),
    ...options,
  });
  onTestFinished(() => engine.destroy());
  engine.resize();
  /** A mouse pointer event with the primary button, at client (x, y). */
  const pointer = (type: string, x: number, y: number) =>
    canvas.dispatchEvent(new PointerEvent(type, { pointerType: 'mouse', button: 0, pointerId: 1, clientX: x, clientY: y, bubbles: true }));
  const click = (x: number, y: number) => {
    pointer('pointerdown', x, y);
    pointer('pointerup', x, y);
    // A click acts once no second click has come to make it a double-click.
    if (vi.isFakeTimers()) vi.advanceTimersByTime(DOUBLE_CLICK_MS);
  };
  return { engine, canvas, ctx, frames, surfaces, pointer, click };
}
