/**
 * Requests the boot (src/boot/home-map-boot.ts) sent before the app loaded, handed once to the query that would send
 * the same: its first fetch waits on that request (answered or not) instead of sending a second. Later fetches go to
 * the network. Not the queries' initial data: the home screen hydrates with the cache as empty as it was when the
 * build prerendered it (src/map/components/use-atlas-data.ts shows the booted map's data meanwhile).
 */
const fetches = new Map<string, Promise<unknown>>();

/** Keeps the boot's request for `key` (a query key's path) until a query takes it. */
export function keepBootFetch<T>(key: string, promise: Promise<T>): Promise<T> {
  fetches.set(key, promise);
  // A failed boot request is not handed on: the query sends its own (and shows its own error).
  promise.catch(() => fetches.get(key) === promise && fetches.delete(key));
  return promise;
}

/** The boot's request for `key`, answered or not (taken: asked again, undefined). */
export function takeBootFetch<T>(key: string): Promise<T> | undefined {
  const promise = fetches.get(key);
  fetches.delete(key);
  return promise as Promise<T> | undefined;
}
