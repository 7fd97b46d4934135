import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';

/*
 * The query cache of a server-rendered page, carried to the browser in <script id="pa-state" type="application/json">.
 * Failed queries travel too (a plot that is not found renders its not-found screen on both sides); an Error does not
 * survive JSON, so it goes as its message, which is all the app reads of it ("<status>: <body>", src/api/errors.ts).
 */

/** The dehydrated cache as JSON that is safe inside a <script> element: no '<' (so no '</script>' nor '<!--'). */
export function serializeServerState(queryClient: QueryClient): string {
  const state = dehydrate(queryClient, {
    shouldDehydrateQuery: (query) => query.state.status !== 'pending',
    shouldRedactErrors: () => false,
  });
  return JSON.stringify(state, (_key, value: unknown) => (value instanceof Error ? { message: value.message } : value))
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function revivedError(value: unknown): unknown {
  if (value === null || value === undefined || value instanceof Error) return value;
  const message = typeof value === 'object' && 'message' in value && typeof value.message === 'string' ? value.message : '';
  return new Error(message);
}

/**
 * Puts a server-rendered page's queries into the app's cache before it hydrates. A failed query is not fetched again
 * when its screen mounts (retryOnMount off for that key): the first render must show what the server showed, or
 * hydration would meet a loading state where the server wrote a not-found screen.
 */
export function hydrateServerState(queryClient: QueryClient, json: string): void {
  const state = JSON.parse(json) as DehydratedState;
  for (const query of state.queries) {
    if (query.state.status !== 'error') continue;
    query.state.error = revivedError(query.state.error) as Error;
    query.state.fetchFailureReason = revivedError(query.state.fetchFailureReason) as Error | null;
    queryClient.setQueryDefaults(query.queryKey, { retryOnMount: false });
  }
  hydrate(queryClient, state);
}

/**
 * renderToString cannot wait for a lazy part (the map, the map preview, other screens): it renders the part's Suspense
 * fallback and marks the boundary for the browser to render (React's error 419; in a development build, a sentence
 * naming renderToString), which is the intended outcome. Any other recoverable error in hydration is a real mismatch.
 */
export function isExpectedHydrationError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /\b419\b|could not finish this Suspense boundary|renderToString" which does not support Suspense/.test(message);
}
