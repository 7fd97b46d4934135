import { encodePlotListCompact } from '@pixel-atlas/contracts/plot-list-compact-codec';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app-providers.tsx';
import { appRoutes, preloadLazyParts } from '../app-routes.tsx';
import { createQueryClient } from '../lib/query-client.ts';

// Screens are lazily loaded chunks in the app; loaded up front here they render in the same pass, as before.
await preloadLazyParts();

/** Renders the real route table at `path` with fresh providers, as the browser would. */
export function renderApp(path = '/') {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  // StrictMode as in main.tsx, so effects that misbehave when run twice fail here too.
  const result = render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  return { ...result, router, queryClient };
}

/** The fake gateway's route of the plot list as the app asks for it (the compact form), and its answer. */
export const PLOT_LIST_ROUTE = 'GET /api/plots?format=compact';
export function plotListResponse(plots: readonly Plot[]): Response {
  return jsonResponse(encodePlotListCompact(plots));
}

/** A fetch Response with a JSON body. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}
