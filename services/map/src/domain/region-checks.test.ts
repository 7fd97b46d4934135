import { describe, expect, it } from 'vitest';
import { countDisjointSquares, isRegionContiguous } from './region-checks.ts';

function grid(rows: string[]): number[] {
  return rows
    .join('')
    .split('')
    .map((cell) => (cell === '.' ? 0 : Number(cell)));
}

describe('region checks', () => {
  it('sees a region split by another as not contiguous, and diagonal contact as no contact', () => {
    const owner = grid(['1120', '1120', '0020', '0003']);
    expect(isRegionContiguous(owner, 4, 1)).toBe(true);
    expect(isRegionContiguous(owner, 4, 2)).toBe(true);
    const split = grid(['1210', '1210', '0000', '0000']);
    expect(isRegionContiguous(split, 4, 1)).toBe(false);
    const diagonal = grid(['10', '01']);
    expect(isRegionContiguous(diagonal, 2, 1)).toBe(false);
  });

  it('counts non-overlapping squares that lie wholly inside the region', () => {
    const owner = grid(['11111111', '11111111', '11111112', '11111111', '11110000', '11110000', '11110000', '11110000']);
    // Top-left 4x4 and bottom-left 4x4 fit; the top-right one is spoiled by the 2.
    expect(countDisjointSquares(owner, 8, 1, 4)).toBe(2);
    expect(countDisjointSquares(owner, 8, 2, 1)).toBe(1);
    expect(countDisjointSquares(owner, 8, 3, 1)).toBe(0);
  });
});
