import confetti from 'canvas-confetti';
import { describe, expect, it, vi } from 'vitest';
import { CELEBRATION_MS, CONFETTI_PIECES, REDIRECT_AFTER_MS, celebrate } from './celebration.ts';

const fire = Object.assign(
  vi.fn(async () => undefined),
  { reset: vi.fn() },
);
vi.mock('canvas-confetti', () => ({ default: { create: vi.fn(() => fire) } }));

describe('celebrate', () => {
  it('fires 50 pieces in the four tier colours and clears them after 4 s', () => {
    vi.useFakeTimers();
    try {
      const canvas = document.createElement('canvas');
      celebrate(canvas);
      expect(vi.mocked(confetti.create)).toHaveBeenCalledWith(
        canvas,
        expect.objectContaining({ resize: true, useWorker: false, disableForReducedMotion: true }),
      );
      expect(fire).toHaveBeenCalledWith(
        expect.objectContaining({ particleCount: 50, colors: ['#3b82f6', '#facc15', '#a855f7', '#ef4444'] }),
      );
      expect([CONFETTI_PIECES, CELEBRATION_MS, REDIRECT_AFTER_MS]).toEqual([50, 4000, 4500]);
      vi.advanceTimersByTime(3999);
      expect(fire.reset).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fire.reset).toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('never throws: the celebration is decoration', () => {
    vi.mocked(confetti.create).mockImplementationOnce(() => {
      throw new Error('no canvas');
    });
    expect(() => celebrate(document.createElement('canvas'))()).not.toThrow();
  });
});
