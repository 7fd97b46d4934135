import type { ReservedFootprint } from '@pixel-atlas/contracts/plots';
import { describe, expect, it } from 'vitest';
import { ReservedFootprintsCache } from './reserved-footprints-cache.ts';

function counter(lists: ReservedFootprint[][]) {
  let reads = 0;
  return {
    load: async () => {
      const list = lists[Math.min(reads++, lists.length - 1)];
      if (!list) throw new Error('counter() needs at least one list to answer with');
      return list;
    },
    reads: () => reads,
  };
}

const held: ReservedFootprint = { x: 3, y: 4, size: 2, reason: 'held' };

describe('ReservedFootprintsCache', () => {
  it('reads the database once per max age, once for callers asking together, and again after invalidate()', async () => {
    const source = counter([[], [held]]);
    const cache = new ReservedFootprintsCache(source.load, 60_000);
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([[], [], []]);
    expect(source.reads()).toBe(1);
    expect(await cache.get()).toEqual([]);
    expect(source.reads()).toBe(1);
    cache.invalidate();
    expect(await cache.get()).toEqual([held]);
    expect(source.reads()).toBe(2);
  });

  it('with max age 0 reads every time', async () => {
    const source = counter([[], [held]]);
    const cache = new ReservedFootprintsCache(source.load, 0);
    await cache.get();
    expect(await cache.get()).toEqual([held]);
    expect(source.reads()).toBe(2);
  });

  it('a failed read is not kept: the next caller tries again', async () => {
    let fail = true;
    const cache = new ReservedFootprintsCache(async () => {
      if (fail) throw new Error('database down');
      return [held];
    }, 60_000);
    await expect(cache.get()).rejects.toThrow('database down');
    fail = false;
    expect(await cache.get()).toEqual([held]);
  });
});
