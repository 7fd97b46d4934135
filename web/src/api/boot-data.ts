/**
 * Answers the boot (src/boot/home-map-boot.ts) fetched before the app loaded, handed once to the query that would
 * fetch the same thing: its first value when the answer is already in (the query starts with it, nothing is fetched),
 * else the request under way (the query waits on it instead of sending a second). Later fetches go to the network.
 */
interface BootFetch {
  promise: Promise<unknown>;
  settled?: { value: unknown };
}

const fetches = new Map<string, BootFetch>();

/** Keeps the boot's request for `key` (a query key's path) until a query takes it. */
export function keepBootFetch<T>(key: string, promise: Promise<T>): Promise<T> {
  const entry: BootFetch = { promise };
  fetches.set(key, entry);
  promise.then(
    (value) => (entry.settled = { value }),
    // A failed boot request is not handed on: the query sends its own (and shows its own error).
    () => fetches.get(key) === entry && fetches.delete(key),
  );
  return promise;
}

/** The boot's answer for `key` if it is in (taken: asked again, undefined). */
export function takeBootValue<T>(key: string): T | undefined {
  const entry = fetches.get(key);
  if (!entry?.settled) return undefined;
  fetches.delete(key);
  return entry.settled.value as T;
}

/** The boot's request for `key`, answered or not (taken: asked again, undefined). */
export function takeBootFetch<T>(key: string): Promise<T> | undefined {
  const entry = fetches.get(key);
  if (!entry) return undefined;
  fetches.delete(key);
  return entry.promise as Promise<T>;
}
