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
