import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';

describe('backoffDelay', () => {
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 40].map((n) => backoffDelay(n, { baseMs: 5000, maxMs: 60_000 }))).toEqual([
      5000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
  });

  it('stops doubling after maxDoublings, below the cap', () => {
    expect([1, 6, 7, 50].map((n) => backoffDelay(n, { baseMs: 100, maxMs: 1e9, maxDoublings: 5 }))).toEqual([100, 3200, 3200, 3200]);
  });

  it('follows a schedule of steps, repeating the last, capped', () => {
    const schedule = { stepsMs: [500, 2000, 5000], maxMs: 3000 };
    expect([1, 2, 3, 9].map((n) => backoffDelay(n, schedule))).toEqual([500, 2000, 3000, 3000]);
  });

  it('treats a nonsense attempt number as the first failure', () => {
    expect(backoffDelay(0, { baseMs: 10, maxMs: 100 })).toBe(10);
    expect(backoffDelay(-3, { stepsMs: [7], maxMs: 100 })).toBe(7);
  });
});
