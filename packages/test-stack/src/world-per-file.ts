import { afterAll, beforeAll } from 'vitest';
import { startWorld, type World, type WorldOptions } from './world.ts';

/**
 * The world of the test file that calls this: started in a beforeAll (so the hook timeout bounds a start that hangs),
 * closed in an afterAll. What it returns stands for the started world, so it can be a module-level constant that
 * tests, hooks and helpers read like the world itself; touching it before the file's first hook has run throws.
 * Options given as a function are read when the world starts, after the hooks registered before this call (a mail
 * server whose port the world needs, say).
 */
export function worldPerFile(options: WorldOptions | (() => WorldOptions) = {}): World {
  let started: World | undefined;
  beforeAll(async () => {
    started = await startWorld(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => started?.close());
  const current = (): World => {
    if (!started) throw new Error('the world starts in beforeAll: use it inside tests, hooks and the helpers they call');
    return started;
  };
  // Forwarding every read to the started world, not copying it: restart() and stop() replace its apps in place.
  return new Proxy({} as World, {
    get: (_target, key) => Reflect.get(current(), key),
    set: (_target, key, value) => Reflect.set(current(), key, value),
    has: (_target, key) => Reflect.has(current(), key),
  });
}
