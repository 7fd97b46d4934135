import type { paths } from '@pixel-atlas/api-types';
import createClient, { type Middleware } from 'openapi-fetch';

/**
 * Spec section 7: any non-OK answer becomes Error(`${status}: ${bodyText || statusText}`); screens read the status and
 * the server's `{error:{code, message}}` back out of it (./errors.ts) to choose the spec's messages.
 */
const failOnErrorStatus: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    const bodyText = await response.text();
    throw new Error(`${response.status}: ${bodyText || response.statusText}`);
  },
};

/**
 * The one client of the public API, typed by the OpenAPI document. Every call carries cookies; a JSON content type is
 * sent only with a body. No call is given TanStack's abort signal: consuming it makes TanStack cancel and re-send a
 * request whenever its last observer remounts.
 */
export const api = createClient<paths>({
  // A Request needs an absolute URL outside a page's own document (jsdom, Node); the build's prerender never calls.
  baseUrl: globalThis.location?.origin ?? '',
  credentials: 'include',
  // Looked up at each call rather than captured once, so the fetch a test stubs is the one that answers.
  fetch: (request) => globalThis.fetch(request),
});
api.use(failOnErrorStatus);

/** The parsed body of a successful call; an empty one (which no query may hold) fails like an error answer. */
export async function dataOf<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined) throw new Error(`${response.status}: ${response.statusText}`);
  return data;
}
