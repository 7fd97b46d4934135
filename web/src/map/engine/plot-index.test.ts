import { describe, expect, it } from 'vitest';
import { createPlotIndex, plotInitials, type MapPlot } from './plot-index.ts';

const plot = (id: string, x: number, y: number, tier: MapPlot['tier']): MapPlot => ({ id, x, y, tier, display_name: id, avatar_url: '' });

describe('plot hit testing', () => {
  const index = createPlotIndex([plot('basic', 0, 0, 'basic'), plot('premium', 10, 10, 'premium'), plot('prime', 20, 5, 'prime')]);

  it('hits every tile of the NxN footprint from the top-left corner, and nothing outside it', () => {
    expect(index.plotAt(0, 0)?.id).toBe('basic');
    expect(index.plotAt(1, 0)).toBeNull();
    expect(index.plotAt(10, 10)?.id).toBe('premium');
    expect(index.plotAt(13, 13)?.id).toBe('premium');
    expect(index.plotAt(14, 13)).toBeNull();
    expect(index.plotAt(9, 10)).toBeNull();
    expect(index.plotAt(22, 7)?.id).toBe('prime');
    expect(index.plotAt(23, 7)).toBeNull();
  });

  it('answers null outside the grid and for fractional coordinates', () => {
    expect(index.plotAt(-1, 0)).toBeNull();
    expect(index.plotAt(90, 0)).toBeNull();
    expect(index.plotAt(0.5, 0)).toBeNull();
  });

  it('treats an unknown tier as basic', () => {
    const odd = createPlotIndex([{ ...plot('odd', 5, 5, 'basic'), tier: 'gold' as MapPlot['tier'] }]);
    expect(odd.plotAt(5, 5)?.id).toBe('odd');
    expect(odd.plotAt(6, 5)).toBeNull();
  });

  it('uses the first two letters of the name as initials', () => {
    expect(plotInitials('pixel wizard')).toBe('PI');
    expect(plotInitials('  x')).toBe('X');
    expect(plotInitials('')).toBe('?');
  });
});
