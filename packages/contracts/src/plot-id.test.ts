import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plotIdFor } from './plot-id.ts';

describe('plotIdFor', () => {
  it('is a version 8 UUID of the claim time and the top-left tile, readable back', () => {
    const ms = Date.UTC(2026, 10, 27, 9, 30, 15, 123);
    const id = plotIdFor(ms, 89, 7);
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-8[0-9a-f]{3}-0{12}$/);
    const hex = id.replaceAll('-', '');
    expect(parseInt(hex.slice(0, 12), 16)).toBe(ms);
    expect(parseInt(hex.slice(13, 16), 16)).toBe(89);
    expect(parseInt(hex.slice(17, 20), 16)).toBe(7);
  });

  it('differs when the time or either coordinate does, so plots never share one', () => {
    const ms = 1_795_000_000_000;
    const ids = new Set<string>();
    for (const t of [ms, ms + 1]) for (let x = 0; x < 90; x++) for (let y = 0; y < 90; y++) ids.add(plotIdFor(t, x, y));
    expect(ids.size).toBe(2 * 90 * 90);
  });

  it('refuses what it cannot hold', () => {
    expect(() => plotIdFor(-1, 0, 0)).toThrow(RangeError);
    expect(() => plotIdFor(2 ** 48, 0, 0)).toThrow(RangeError);
    expect(() => plotIdFor(1.5, 0, 0)).toThrow(RangeError);
    expect(() => plotIdFor(0, 4096, 0)).toThrow(RangeError);
    expect(() => plotIdFor(0, 0, -1)).toThrow(RangeError);
  });
});
