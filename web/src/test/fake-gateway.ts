import { vi } from 'vitest';

export type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;

/** A fake gateway: one handler list per "METHOD url", answered in order (the last one repeats). */
export function fakeGateway(routes: Record<string, Handler[]>) {
  const calls: Array<{ route: string; body: unknown }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const route = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push({ route, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const handlers = routes[route];
    if (!handlers) throw new Error(`unexpected request ${route}`);
    const handler = handlers.length > 1 ? handlers.shift()! : handlers[0];
    return handler(init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, countOf: (route: string) => calls.filter((call) => call.route === route).length };
}
