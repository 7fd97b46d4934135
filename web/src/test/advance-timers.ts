import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** Moves fake timers forward inside act, so the state updates they trigger are rendered before the next line. */
export function advanceTimers(ms: number): void {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}
