import { vi } from 'vitest';

export type Handler = (request: Request) => Response | Promise<Response>;

/** The route a request is answered by: "METHOD /path?query", the way tests name it. */
function routeOf(request: Request): string {
  const url = new URL(request.url, window.location.origin);
  return `${request.method} ${url.origin === window.location.origin ? '' : url.origin}${url.pathname}${url.search}`;
}

/** The JSON body a request sent, if any. */
async function sentBody(request: Request): Promise<unknown> {
  const text = await request.clone().text();
  return text ? JSON.parse(text) : undefined;
}

/** A fake gateway: one handler list per "METHOD url", answered in order (the last one repeats). */
export function fakeGateway(routes: Record<string, Handler[]>) {
  const calls: Array<{ route: string; body: unknown }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    const call: { route: string; body: unknown } = { route: routeOf(request), body: undefined };
    calls.push(call);
    call.body = await sentBody(request);
    const handlers = routes[call.route];
    const handler = handlers && (handlers.length > 1 ? handlers.shift() : handlers[0]);
    if (!handler) throw new Error(`unexpected request ${call.route}`);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, countOf: (route: string) => calls.filter((call) => call.route === route).length };
}
