import type { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app-providers.tsx';
import { appRoutes, preloadRenderedScreen } from './app-routes.tsx';
import { PageHeadContext, type PageHead } from './hooks/use-page-meta.ts';
import { PAGE_SETTINGS_QUERY_KEY, type PageSettings } from './lib/page-settings.ts';
import { createQueryClient } from './lib/query-client.ts';
import { matchServerRenderedScreen, pageQueries, type PageQuery } from './lib/server-rendered-pages.ts';
import { serializeServerState } from './lib/server-state.ts';

/*
 * The app's screens rendered on the server, by the same components the browser then hydrates (main.tsx). Built by
 * `npm run build -w @pixel-atlas/web` into web/dist-server/entry-server.js: one ES module with everything inside (no
 * bare imports), which the gateway imports (per request: pageQueries, renderPage) and the build itself uses to
 * prerender dist/index.html, dist/app.html and dist/screens/*.html (renderShell).
 */

export { pageQueries, type PageQuery };
export { PRERENDERED_SCREEN_PATHS } from './app-routes.tsx';

/** One API answer the gateway fetched for a page: its JSON body, or the status (and body text) it failed with. */
export interface ServerPageQuery {
  queryKey: readonly unknown[];
  data?: unknown;
  error?: { status: number; body?: string };
}
export interface ServerPageData {
  queries: ServerPageQuery[];
}

export interface RenderPageOptions {
  /** rel of the plots' outbound links (the gateway's OUTBOUND_LINK_REL); the app's default when absent. */
  outboundLinkRel?: string;
}

export interface RenderedPage {
  /** The inner HTML of <div id="root">. */
  html: string;
  /** For <script id="pa-state" type="application/json">: JSON with no '<' in it. */
  state: string;
  /** 200; 404 for a screen that says "not found"; 503 when the page's own resource could not be loaded. */
  status: number;
  /** The screen's document title and meta description (what the app sets in the browser). */
  title?: string;
  description?: string;
}

/** The query keys of a server-rendered page (pageQueries without the API paths); null for any other path. */
export function serverQueryKeys(pathname: string, search: string): Array<readonly unknown[]> | null {
  return pageQueries(pathname, search)?.map((query) => query.queryKey) ?? null;
}

/**
 * A query the API failed, as the app's client would have it failed (src/api/client.ts words it "<status>: <body>"),
 * and not tried again on mount: the screen renders its failure (not found, say), as the browser will when it hydrates
 * (src/lib/server-state.ts).
 */
function seedFailedQuery(queryClient: QueryClient, query: ServerPageQuery, status: number, body = '') {
  const error = new Error(`${status}: ${body}`);
  const now = Date.now();
  queryClient.setQueryDefaults(query.queryKey, { retryOnMount: false });
  queryClient.getQueryCache().build(
    queryClient,
    { queryKey: query.queryKey },
    {
      data: undefined,
      dataUpdateCount: 0,
      dataUpdatedAt: 0,
      error,
      errorUpdateCount: 1,
      errorUpdatedAt: now,
      fetchFailureCount: 1,
      fetchFailureReason: error,
      fetchMeta: null,
      isInvalidated: false,
      status: 'error',
      fetchStatus: 'idle',
    },
  );
}

/**
 * What the page answers: the page's own resource (the first of pageQueries) decides. A user without plots is a page
 * (the API's 404 there means nobody by that name has claimed yet); elsewhere 400/404 is a not-found screen.
 */
function pageStatus(pathname: string, search: string, data: ServerPageData): number {
  const own = pageQueries(pathname, search)?.[0];
  if (!own) return 404;
  const key = JSON.stringify(own.queryKey);
  const answer = data.queries.find((query) => JSON.stringify(query.queryKey) === key);
  if (!answer?.error) return answer ? 200 : 503;
  const notFound = answer.error.status === 404 || answer.error.status === 400;
  if (notFound) return matchServerRenderedScreen(pathname)?.screen === 'user' ? 200 : 404;
  return 503;
}

/** The app at `url` (its layout and the screen), rendered by a static router around the given query client. */
async function renderApp(url: URL, queryClient: QueryClient, recordHead: ((head: PageHead) => void) | null): Promise<string> {
  // The screen renders whole: its chunk is in before renderToString, which cannot wait for it (a lazy part that is not,
  // such as the plot page's map preview, comes out as its Suspense fallback, and the browser renders it).
  await preloadRenderedScreen(url.pathname);
  const handler = createStaticHandler(appRoutes);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error(`rendering ${url.pathname} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <PageHeadContext value={recordHead}>
      <AppProviders queryClient={queryClient}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </PageHeadContext>,
  );
}

/**
 * A server-rendered page (/plot/:id, /user/:username, /regions, /regions/:slug): `url` is the page's public address
 * (absolute: its origin goes into the structured data), `data` the API answers pageQueries named for it.
 */
export async function renderPage(url: string, data: ServerPageData, options: RenderPageOptions = {}): Promise<RenderedPage> {
  const address = new URL(url, 'http://localhost');
  const queryClient = createQueryClient();
  const settings: PageSettings = {
    origin: /^https?:\/\//i.test(url) ? address.origin : '',
    ...(options.outboundLinkRel ? { outboundLinkRel: options.outboundLinkRel } : {}),
  };
  queryClient.setQueryData(PAGE_SETTINGS_QUERY_KEY, settings);
  for (const query of data.queries) {
    if (query.error) seedFailedQuery(queryClient, query, query.error.status, query.error.body);
    else if (query.data !== undefined) queryClient.setQueryData(query.queryKey, query.data);
  }
  const head: PageHead = {};
  // The screen's last word wins (a screen names its title once; nested ones would be the more specific).
  const html = await renderApp(address, queryClient, ({ title, description }) => {
    head.title = title;
    if (description !== undefined) head.description = description;
  });
  return {
    html,
    state: serializeServerState(queryClient),
    status: pageStatus(address.pathname, address.search, data),
    title: head.title,
    description: head.description,
  };
}

/**
 * Build-time only (vite.config.ts's prerender plugin): the app's first screen rendered to HTML for index.html, so it
 * needs no script. Lazy parts (the map, other screens) come out as their Suspense fallbacks, except the screen a
 * prerendered page is for (PRERENDERED_SCREEN_PATHS).
 */
export async function renderShell(pathname: string): Promise<string> {
  return renderApp(new URL(pathname, 'http://localhost'), createQueryClient(), null);
}
