import { describe, expect, it, vi } from 'vitest';
import { createFrameScheduler } from './frame-scheduler.ts';
import { fakeFrames } from './test-doubles.ts';

describe('frame scheduler', () => {
  it('draws at most once per frame however many changes arrive', () => {
    const frames = fakeFrames();
    const draw = vi.fn(() => false);
    const scheduler = createFrameScheduler(draw, frames.deps);
    scheduler.invalidate();
    scheduler.invalidate();
    scheduler.invalidate();
    expect(frames.pending()).toBe(1);
    frames.step();
    expect(draw).toHaveBeenCalledTimes(1);
  });

  it('does not draw, or even ask for a frame, when nothing changed', () => {
    const frames = fakeFrames();
    const draw = vi.fn(() => false);
    const scheduler = createFrameScheduler(draw, frames.deps);
    scheduler.invalidate();
    frames.step();
    frames.step();
    frames.step();
    expect(draw).toHaveBeenCalledTimes(1);
    expect(frames.pending()).toBe(0);
  });

  it('keeps drawing every frame while the draw says it is animating, then stops', () => {
    const frames = fakeFrames();
    let remaining = 3;
    const draw = vi.fn(() => --remaining > 0);
    const scheduler = createFrameScheduler(draw, frames.deps);
    scheduler.invalidate();
    for (let i = 0; i < 6; i++) frames.step();
    expect(draw).toHaveBeenCalledTimes(3);
    expect(frames.pending()).toBe(0);
  });

  it('flush draws immediately, and destroy cancels the pending frame', () => {
    const frames = fakeFrames();
    const draw = vi.fn(() => false);
    const scheduler = createFrameScheduler(draw, frames.deps);
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
