import { describe, expect, it, vi } from 'vitest';
import { createFrameScheduler } from './frame-scheduler.ts';
import { fakeFrames } from './test-doubles.ts';

/** A scheduler on hand-cranked frames; `animating` is what each draw answers (by default, that it is done). */
function schedulerOnFakeFrames(animating: () => boolean = () => false) {
  const frames = fakeFrames();
  const draw = vi.fn(animating);
  return { frames, draw, scheduler: createFrameScheduler(draw, frames.deps) };
}

describe('frame scheduler', () => {
  it('draws at most once per frame however many changes arrive', () => {
    const { frames, draw, scheduler } = schedulerOnFakeFrames();
    scheduler.invalidate();
    scheduler.invalidate();
    scheduler.invalidate();
    expect(frames.pending()).toBe(1);
    frames.step();
    expect(draw).toHaveBeenCalledTimes(1);
  });

  it('does not draw, or even ask for a frame, when nothing changed', () => {
    const { frames, draw, scheduler } = schedulerOnFakeFrames();
    scheduler.invalidate();
    for (let i = 0; i < 3; i++) frames.step();
    expect(draw).toHaveBeenCalledTimes(1);
    expect(frames.pending()).toBe(0);
  });

  it('keeps drawing every frame while the draw says it is animating, then stops', () => {
    let remaining = 3;
    const { frames, draw, scheduler } = schedulerOnFakeFrames(() => --remaining > 0);
    scheduler.invalidate();
    for (let i = 0; i < 6; i++) frames.step();
    expect(draw).toHaveBeenCalledTimes(3);
    expect(frames.pending()).toBe(0);
  });

  it('flush draws immediately, and destroy cancels the pending frame', () => {
    const { frames, draw, scheduler } = schedulerOnFakeFrames();
    scheduler.invalidate();
    scheduler.flush();
    expect(draw).toHaveBeenCalledTimes(1);
    expect(frames.pending()).toBe(0);
    scheduler.invalidate();
    scheduler.destroy();
    frames.step();
    scheduler.invalidate();
    expect(draw).toHaveBeenCalledTimes(1);
    expect(frames.pending()).toBe(0);
  });
});
