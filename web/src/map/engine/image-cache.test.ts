import { describe, expect, it, vi } from 'vitest';
import { createImageCache } from './image-cache.ts';

function deferredLoader() {
  const pending = new Map<string, { resolve: (image: CanvasImageSource) => void; reject: (error: Error) => void }>();
  const load = vi.fn(
    (url: string) =>
      new Promise<CanvasImageSource>((resolve, reject) => {
        pending.set(url, { resolve, reject });
      }),
  );
  return { load, pending };
}

const image = (name: string) => ({ name }) as unknown as CanvasImageSource;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('image cache', () => {
  it('loads nothing until asked, then returns the image once it has loaded', async () => {
    const { load, pending } = deferredLoader();
    const onLoad = vi.fn();
    const cache = createImageCache({ load, onLoad });
    expect(load).not.toHaveBeenCalled();
    expect(cache.get('/a.png')).toBeNull();
    expect(cache.get('/a.png')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    pending.get('/a.png')!.resolve(image('a'));
    await settle();
    expect(onLoad).toHaveBeenCalledWith('/a.png');
    expect(cache.get('/a.png')).toEqual(image('a'));
  });

  it('peeks at an image already loaded without starting a load for one that is not', async () => {
    const { load, pending } = deferredLoader();
    const cache = createImageCache({ load });
    expect(cache.peek('/a.png?size=large')).toBeNull();
    expect(load).not.toHaveBeenCalled();
    cache.get('/a.png?size=large');
    expect(cache.peek('/a.png?size=large')).toBeNull();
    pending.get('/a.png?size=large')!.resolve(image('a'));
    await vi.waitFor(() => expect(cache.peek('/a.png?size=large')).toEqual(image('a')));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not retry a failed image (the initials stay instead)', async () => {
    const { load, pending } = deferredLoader();
    const cache = createImageCache({ load });
    cache.get('/broken.png');
    pending.get('/broken.png')!.reject(new Error('404'));
    await settle();
    expect(cache.get('/broken.png')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('limits concurrent downloads', async () => {
    const { load, pending } = deferredLoader();
    const cache = createImageCache({ load, maxConcurrent: 2 });
    for (const name of ['1', '2', '3', '4']) cache.get(`/${name}.png`);
    expect(load).toHaveBeenCalledTimes(2);
    pending.get('/1.png')!.resolve(image('1'));
    await settle();
    expect(load).toHaveBeenCalledTimes(3);
    expect(cache.pendingCount()).toBe(3);
  });

  it('tells a burst of arrivals together, and the last one at once', async () => {
    vi.useFakeTimers();
    try {
      const { load, pending } = deferredLoader();
      const onLoad = vi.fn();
      const cache = createImageCache({ load, onLoad, batchMs: 100 });
      for (const name of ['1', '2', '3']) cache.get(`/${name}.png`);
      pending.get('/1.png')!.resolve(image('1'));
      await vi.advanceTimersByTimeAsync(0);
      pending.get('/2.png')!.resolve(image('2'));
      await vi.advanceTimersByTimeAsync(0);
      // Still loading the third: the first two wait for the batch.
      expect(onLoad).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(100);
      expect(onLoad.mock.calls.map(([url]) => url)).toEqual(['/1.png', '/2.png']);
      pending.get('/3.png')!.resolve(image('3'));
      await vi.advanceTimersByTimeAsync(0);
      expect(onLoad).toHaveBeenLastCalledWith('/3.png');
      expect(onLoad).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps an avatar for every plot the grid can hold by default', async () => {
    const { load, pending } = deferredLoader();
    const cache = createImageCache({ load, maxConcurrent: 10_000 });
    for (let i = 0; i < 2_000; i++) cache.get(`/${i}.png`);
    for (const { resolve } of pending.values()) resolve(image('x'));
    await settle();
    expect(cache.get('/0.png')).toEqual(image('x'));
    expect(load).toHaveBeenCalledTimes(2_000);
  });

  it('forgets the least recently used images beyond its bound', async () => {
    const { load, pending } = deferredLoader();
    const cache = createImageCache({ load, maxEntries: 2 });
    for (const name of ['1', '2', '3']) {
      cache.get(`/${name}.png`);
      pending.get(`/${name}.png`)!.resolve(image(name));
      await settle();
    }
    expect(cache.get('/3.png')).toEqual(image('3'));
    expect(cache.get('/2.png')).toEqual(image('2'));
    expect(cache.get('/1.png')).toBeNull();
    expect(load).toHaveBeenCalledTimes(4);
  });
});
