import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app-providers.tsx';
import { appRoutes, preloadPrerenderedScreen } from './app-routes.tsx';

export { PRERENDERED_SCREEN_PATHS } from './app-routes.tsx';
import { createQueryClient } from './lib/query-client.ts';

/**
 * Build-time only (vite.config.ts's prerender plugin): the app's own components rendered to HTML for index.html,
 * so the first screen needs no script. Lazy parts (the map, other screens) come out as their Suspense fallbacks, except
 * the screen a prerendered page is for (PRERENDERED_SCREEN_PATHS).
 */
export async function renderShell(pathname: string): Promise<string> {
  // A prerendered screen renders whole: its chunk is in before renderToString, which cannot wait for it.
  await preloadPrerenderedScreen(pathname);
  const handler = createStaticHandler(appRoutes);
  const context = await handler.query(new Request(new URL(pathname, 'http://localhost')));
  if (context instanceof Response) throw new Error(`prerendering ${pathname} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <AppProviders queryClient={createQueryClient()}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
}
