import { gunzipSync } from 'node:zlib';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { describe, expect, it, vi } from 'vitest';
import { PlotListCache } from './plot-list-cache.ts';

const plot = (n: number) => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` }) as unknown as Plot;

describe('PlotListCache', () => {
  it('builds once per change, and a request after an invalidation waits for the new list', async () => {
    let loads = 0;
    let rows = [plot(1)];
    const cache = new PlotListCache(async () => {
      loads += 1;
      return rows;
    }, 0);
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(JSON.parse(gunzipSync(a.gzip).toString())).toEqual([plot(1)]);
    rows = [plot(1), plot(2)];
    cache.invalidate();
    const c = await cache.get();
    expect(loads).toBe(2);
    expect(c.count).toBe(2);
    expect(c.etag).not.toBe(a.etag);
  });

  it('serves the last good list when a rebuild fails (database down), and fails only with nothing to serve', async () => {
    let down = false;
    const errors: unknown[] = [];
    const cache = new PlotListCache(
      async () => {
        if (down) throw new Error('connect ECONNREFUSED');
        return [plot(1)];
      },
      0,
      (error) => errors.push(error),
    );
    const good = await cache.get();
    down = true;
    cache.invalidate();
    expect(await cache.get()).toBe(good);
    expect(errors).toHaveLength(1);
    const empty = new PlotListCache(async () => {
      throw new Error('connect ECONNREFUSED');
    }, 0);
    await expect(empty.get()).rejects.toThrow('ECONNREFUSED');
  });

  it('a change during a rebuild is not lost: the older build is not taken as current', async () => {
    let release: (() => void) | null = null;
    let version = 1;
    const cache = new PlotListCache(async () => {
      const seen = version;
      if (seen === 1) await new Promise<void>((r) => (release = r));
      return [plot(seen)];
    }, 0);
    const slow = cache.get();
    await vi.waitFor(() => expect(release).toBeTypeOf('function'), { interval: 1 }); // the first load is on its way
    version = 2;
    cache.invalidate();
    const fresh = await cache.get();
    release!();
    await slow;
    expect((await cache.get()).etag).toBe(fresh.etag);
    expect(JSON.parse((await cache.get()).identity.toString())).toEqual([plot(2)]);
  });

  it('past its max age it serves the old body while rebuilding in the background', async () => {
    // The cache reads Date.now(): step it past the max age instead of waiting for it (vi.waitFor moves it on by its
    // polling interval too, far short of another minute).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      let loads = 0;
      const cache = new PlotListCache(async () => [plot(++loads)], 60_000);
      const first = await cache.get();
      vi.setSystemTime(Date.now() + 60_001);
      expect(await cache.get()).toBe(first);
      expect(loads).toBe(2); // the rebuild began
      await vi.waitFor(async () => expect((await cache.get()).identity.toString()).toContain(plot(2).id));
      expect(loads).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
