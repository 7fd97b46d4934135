import { describe, expect, it } from 'vitest';
import { InvalidatedValue } from './invalidated-value.ts';

/** A load the test finishes by hand. */
function manualLoads<T>() {
  const pending: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
  const load = () => new Promise<T>((resolve, reject) => pending.push({ resolve, reject }));
  return { pending, load };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('InvalidatedValue', () => {
  it('loads once for every reader at the same moment, and again after invalidate()', async () => {
    let loads = 0;
    const value = new InvalidatedValue({ load: async () => ++loads });
    expect(await Promise.all([value.get(), value.get(), value.get()])).toEqual([1, 1, 1]);
    expect(await value.get()).toBe(1);
    value.invalidate();
    expect(await value.get()).toBe(2);
    expect(value.invalidations).toBe(1);
  });

  it('peek() answers only a held, current value, without loading', async () => {
    let clock = 0;
    const value = new InvalidatedValue({ load: async () => 'loaded', maxAgeMs: 10, now: () => clock });
    expect(value.peek()).toBeUndefined();
    await value.get();
    expect(value.peek()).toBe('loaded');
    value.invalidate();
    expect(value.peek()).toBeUndefined();
    await value.get();
    clock = 10;
    expect(value.peek()).toBeUndefined();
  });

  it("with overtaken 'reload', never answers a load an invalidate() overtook: the reader waits for a load begun after it", async () => {
    const { pending, load } = manualLoads<string>();
    const value = new InvalidatedValue({ load, overtaken: 'reload' });
    const reader = value.get();
    await settle();
    value.invalidate();
    pending[0]!.resolve('before the change');
    while (pending.length < 2) await settle();
    pending[1]!.resolve('after the change');
    expect(await reader).toBe('after the change');
  });

  it('by default answers a read the load it waited on, and keeps only a load begun after the last invalidate()', async () => {
    const { pending, load } = manualLoads<string>();
    const value = new InvalidatedValue({ load });
    const reader = value.get();
    await settle();
    value.invalidate();
    pending[0]!.resolve('before the change');
    expect(await reader).toBe('before the change');
    const next = value.get();
    await settle();
    pending[1]!.resolve('after the change');
    expect(await next).toBe('after the change');
  });

  it("past maxAgeMs: 'reload' waits for a new load, 'in-background' answers the old value while one load runs", async () => {
    let clock = 0;
    let loads = 0;
    const reload = new InvalidatedValue({ load: async () => ++loads, maxAgeMs: 1000, whenOld: 'reload', now: () => clock });
    expect(await reload.get()).toBe(1);
    clock = 999;
    expect(await reload.get()).toBe(1);
    clock = 1000;
    expect(await reload.get()).toBe(2);

    const { pending, load } = manualLoads<string>();
    const background = new InvalidatedValue({ load, maxAgeMs: 1000, whenOld: 'in-background', now: () => clock });
    const first = background.get();
    pending[0]!.resolve('first');
    expect(await first).toBe('first');
    clock += 1000;
    expect(await background.get()).toBe('first');
    expect(await background.get()).toBe('first');
    expect(pending).toHaveLength(2);
    pending[1]!.resolve('second');
    while ((await background.get()) !== 'second') await settle();
  });

  it('a failed load: the error, or with keepOnError the value held before (told why); never kept', async () => {
    let down = false;
    const errors: unknown[] = [];
    const load = async () => {
      if (down) throw new Error('database down');
      return 'list';
    };
    const strict = new InvalidatedValue({ load });
    const lenient = new InvalidatedValue({ load, keepOnError: (error) => errors.push(error) });
    expect(await strict.get()).toBe('list');
    expect(await lenient.get()).toBe('list');
    down = true;
    strict.invalidate();
    lenient.invalidate();
    await expect(strict.get()).rejects.toThrow('database down');
    expect(await lenient.get()).toBe('list');
    expect(errors).toHaveLength(1);
    down = false;
    expect(await strict.get()).toBe('list');
  });
});
