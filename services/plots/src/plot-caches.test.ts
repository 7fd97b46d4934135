import { describe, expect, it } from 'vitest';
import { PlotCaches } from './plot-caches.ts';
import { PlotListCache } from './plot-list-cache.ts';
import { ReservedFootprintsCache } from './reserved-footprints-cache.ts';

/** Both copies over loads that count themselves; `reads()` reads each once and says how many loads each has made. */
function countingCaches() {
  const loads = { plotList: 0, reserved: 0 };
  const plotList = new PlotListCache(async () => {
    loads.plotList += 1;
    return [];
  }, 0);
  const reserved = new ReservedFootprintsCache(async () => {
    loads.reserved += 1;
    return [];
  }, 60_000);
  const caches = new PlotCaches(plotList, reserved);
  const reads = async () => {
    await Promise.all([plotList.get(), reserved.get()]);
    return { ...loads };
  };
  return { caches, reads };
}

describe('PlotCaches', () => {
  it('drops the copies each change shows in, and nothing else', async () => {
    const { caches, reads } = countingCaches();
    expect(await reads()).toEqual({ plotList: 1, reserved: 1 });
    caches.changed('plots.plot.claimed');
    expect(await reads()).toEqual({ plotList: 2, reserved: 2 });
    caches.changed('plots.plot.flagged');
    expect(await reads()).toEqual({ plotList: 3, reserved: 2 });
    caches.changed('payments.checkout.expired');
    expect(await reads()).toEqual({ plotList: 3, reserved: 3 });
    caches.holdsChanged();
    expect(await reads()).toEqual({ plotList: 3, reserved: 4 });
    caches.changed('contact.message.received');
    expect(await reads()).toEqual({ plotList: 3, reserved: 4 });
  });

  it('drops both for a reconnect (events may have been missed) and for a plots event it has no line for', async () => {
    const { caches, reads } = countingCaches();
    await reads();
    caches.changed('reconnect');
    expect(await reads()).toEqual({ plotList: 2, reserved: 2 });
    caches.changed('plots.something.new' as 'plots.plot.claimed');
    expect(await reads()).toEqual({ plotList: 3, reserved: 3 });
  });
});
