import { describe, expect, it, vi } from 'vitest';
import { LocalCopy } from './local-copy.ts';

/** A load the test finishes by hand. */
function manualLoads<T>() {
  const pending: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
  const load = () => new Promise<T>((resolve, reject) => pending.push({ resolve, reject }));
  return { pending, load };
}

describe('LocalCopy', () => {
  it('loads once and answers every reader from the copy until it is invalidated', async () => {
    let loads = 0;
    const copy = new LocalCopy(async () => ++loads);
    expect(await Promise.all([copy.get(), copy.get(), copy.get()])).toEqual([1, 1, 1]);
    expect(await copy.get()).toBe(1);
    copy.invalidate();
    expect(await copy.get()).toBe(2);
    expect(loads).toBe(2);
  });

  it('never returns a load that a change overtook: the reader waits for a load begun after the change', async () => {
    const { pending, load } = manualLoads<string>();
    const copy = new LocalCopy(load);
    const reader = copy.get();
    await Promise.resolve();
    expect(pending).toHaveLength(1);
    // The owner changed while our load was on its way: what it brings back may be the old data.
    copy.invalidate();
    pending[0]!.resolve('before the change');
    // The reader does not take it: it starts another load.
    await vi.waitFor(() => expect(pending).toHaveLength(2), { interval: 1 });
    pending[1]!.resolve('after the change');
    expect(await reader).toBe('after the change');
    expect(await copy.get()).toBe('after the change');
  });

  it('does not keep a failed load: the next reader asks again', async () => {
    let calls = 0;
    const copy = new LocalCopy(async () => {
      calls += 1;
      if (calls === 1) throw new Error('owner not answering');
      return 'loaded';
    });
    await expect(copy.get()).rejects.toThrow('owner not answering');
    expect(await copy.get()).toBe('loaded');
  });

  it('gives up when the copy keeps changing under every load', async () => {
    let copyRef: LocalCopy<number> | null = null;
    const copy = new LocalCopy(async () => {
      copyRef?.invalidate();
      return 1;
    });
    copyRef = copy;
    await expect(copy.get()).rejects.toThrow('kept changing');
  });
});
