import { act, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
// The router's own RouterProvider (main.tsx takes react-router/dom's, the same with flushSync: another copy under vitest).
import { createBrowserRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from './app-providers.tsx';
import { appRoutes, preloadRenderedScreen } from './app-routes.tsx';
import { pageQueries, renderPage, type ServerPageData } from './entry-server.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { markServerRenderedPage } from './lib/server-rendered-page.ts';
import { hydrateServerState, isExpectedHydrationError } from './lib/server-state.ts';
import { fakeGateway } from './test/fake-gateway.ts';
import { ADA_PLOT_ID, adaPlot, plotWith } from './test/plot-fixture.ts';
import { jsonResponse } from './test/render-app.tsx';

/*
 * What main.tsx does with a page the gateway rendered: the server's markup and #pa-state in, the cache hydrated from
 * it, the screen's chunk loaded, hydrateRoot. React must adopt the markup as it is (no mismatch, the same nodes kept)
 * and ask the API for nothing the page already carries.
 */

const neighbour = plotWith({ id: '22222222-2222-4222-8222-222222222222', display_name: 'Grace', x: 14, y: 34 });
const regionPage = {
  region: { slug: 'creator-coast', name: 'Creator Coast', plotCount: 60, lastModified: '2026-11-22T10:00:00.000Z' },
  page: 2,
  pageCount: 2,
  plots: [adaPlot, neighbour],
};

function answered(pathname: string, search: string, bodies: unknown[]): ServerPageData {
  const queries = pageQueries(pathname, search) ?? [];
  return { queries: queries.map((query, index) => ({ queryKey: query.queryKey, data: bodies[index] })) };
}

const PAGES: Array<[string, string, ServerPageData]> = [
  [`/plot/${ADA_PLOT_ID}`, '', answered(`/plot/${ADA_PLOT_ID}`, '', [adaPlot, { plots: [neighbour] }])],
  [
    `/plot/${ADA_PLOT_ID}`,
    ' (not found)',
    { queries: [{ queryKey: pageQueries(`/plot/${ADA_PLOT_ID}`, '')![0]!.queryKey, error: { status: 404, body: '' } }] },
  ],
  ['/user/Ada%20Pixel', '', answered('/user/Ada%20Pixel', '', [{ username: 'Ada Pixel', plots: [adaPlot] }])],
  ['/regions', '', answered('/regions', '', [{ regions: [{ ...regionPage.region }] }])],
  ['/regions/creator-coast?page=2', '', answered('/regions/creator-coast', '?page=2', [regionPage])],
];

afterEach(() => {
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

describe('a server-rendered page in the browser', () => {
  it.each(PAGES)('%s%s hydrates without a mismatch, keeps its nodes and fetches nothing it carries', async (address, _label, data) => {
    const gateway = fakeGateway({
      // What the lazy map preview of the plot page asks for once it is in (not part of the server's page).
      'GET /api/map-layout': [() => jsonResponse({ error: { code: 'NOT_FOUND', message: 'no map' } }, { status: 404 })],
      'GET /api/plots?format=compact': [() => jsonResponse({ v: 1, plots: [] })],
    });
    const sendBeacon = vi.fn(() => true);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { sendBeacon }));
    window.history.replaceState(null, '', address);
    const { pathname } = window.location;
    const page = await renderPage(`${window.location.origin}${address}`, data);
    document.body.innerHTML = `<div id="root">${page.html}</div><script id="pa-state" type="application/json">${page.state}</script>`;
    const root = document.getElementById('root')!;
    const heading = root.querySelector('h1');
    expect(heading).not.toBeNull();
    const before = root.innerHTML;

    const queryClient = createQueryClient();
    hydrateServerState(queryClient, document.getElementById('pa-state')!.textContent);
    markServerRenderedPage(pathname);
    await preloadRenderedScreen(pathname);
    const recoverable: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error');
    await act(async () => {
      hydrateRoot(
        root,
        <StrictMode>
          <AppProviders queryClient={queryClient}>
            <RouterProvider router={createBrowserRouter(appRoutes)} />
          </AppProviders>
        </StrictMode>,
        { onRecoverableError: (error) => recoverable.push(error) },
      );
    });

    // A lazy part the server rendered as its fallback (the map preview) is the browser's to fill, as main.tsx knows.
    const unexpected = recoverable.filter((error) => !isExpectedHydrationError(error));
    expect(unexpected).toEqual([]);
    expect(consoleError.mock.calls.filter((call) => /hydrat|did not match|didn't match/i.test(call.map(String).join(' ')))).toEqual([]);
    // The very nodes the server sent, not a second copy painted over them.
    expect(root.querySelector('h1')).toBe(heading);
    expect(root.querySelector('h1')?.textContent).toBe(heading?.textContent);
    if (!address.startsWith('/plot/')) expect(root.innerHTML).toBe(before);
    const apiCalls = gateway.calls.map((call) => call.route).filter((route) => !/map-layout|format=compact/.test(route));
    expect(apiCalls).toEqual([]);
    // The gateway counted the plot page's view: the app does not count it again.
    expect(sendBeacon).not.toHaveBeenCalled();
  });
});
