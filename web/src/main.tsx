import './lib/zod-without-eval.ts';
import '@fontsource/press-start-2p/latin-400.css';
import './styles.css';
import { StrictMode, startTransition, useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app-providers.tsx';
import { createAppRouter, preloadPrerenderedScreen, prepareServerRenderedScreen } from './app-routes.tsx';
import { installDialogHistory } from './lib/dialog-history.ts';
import { queryClient } from './lib/query-client.ts';
import { markServerRenderedPage } from './lib/server-rendered-page.ts';
import { installPageHideCleanup, resetOnFirstLoadOfSession } from './lib/session-housekeeping.ts';

resetOnFirstLoadOfSession(queryClient);
installPageHideCleanup();
// Before the router exists: its popstate listener must come after the dialogs' (see dialog-history.ts).
installDialogHistory();

/** How long a gateway-rendered page waits for the app's own screen (chunk and data) before the app takes over anyway. */
const SERVER_PAGE_PATIENCE_MS = 4000;

const root = document.getElementById('root');
if (!root) throw new Error('index.html is missing the #root element');
const prerendered = document.getElementById('app-shell');

/** Marks `<html data-app="live">` once the first commit is done: the buttons people see now work (tests wait on it). */
function MarkLive({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.app = 'live';
  }, []);
  return children;
}

const app = (
  <StrictMode>
    <MarkLive>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={createAppRouter()} />
      </AppProviders>
    </MarkLive>
  </StrictMode>
);

/**
 * The build renders lazy parts (the map, other screens) as their Suspense fallbacks: renderToString cannot wait for
 * them, so it marks those boundaries for the client (React's error 419), which is the intended outcome here. Any other
 * recoverable error (a real mismatch between the shell and the app) is still reported.
 */
function reportUnexpectedHydrationError(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  if (/\b419\b|could not finish this Suspense boundary/.test(message)) return;
  console.error(error);
}

if (prerendered && prerendered.dataset.path === window.location.pathname && root.childElementCount === 0) {
  // The shell was rendered at build time for this very path (the home screen, or a screen without data such as /faq):
  // hydrate it in place. The nodes people already see stay (no second paint of the first screen, so no later LCP).
  // In a transition, hydration is time-sliced (yields every few ms) rather than one long task blocking input.
  const hydrate = () =>
    startTransition(() => {
      hydrateRoot(prerendered, app, { onRecoverableError: reportUnexpectedHydrationError });
    });
  // A prerendered lazy screen hydrates once its chunk is in: suspended, its server markup would be thrown away.
  const screenChunk = preloadPrerenderedScreen(window.location.pathname);
  if (screenChunk) void screenChunk.then(hydrate, hydrate);
  else hydrate();
  root.remove();
} else {
  // Another path (the generic shell, or a gateway-rendered share page in #root): render fresh, synchronously, so the
  // prerendered part can go in the same task and the browser never paints a frame with both, or with neither.
  const mount = () => {
    flushSync(() => createRoot(root).render(app));
    prerendered?.remove();
  };
  if (root.childElementCount === 0) mount();
  else {
    // The gateway counted this page's view when it rendered it (the plot page must not count it again).
    markServerRenderedPage(window.location.pathname);
    // A share page the gateway rendered stays on screen until the app can show the same screen in full; a slow API
    // does not keep the app away for long (the server's page is a working page meanwhile: plain links). Nothing is
    // blank meanwhile, so the app renders in a transition: time-sliced, one commit swaps the pages.
    const patience = new Promise((resolve) => setTimeout(resolve, SERVER_PAGE_PATIENCE_MS));
    void Promise.race([prepareServerRenderedScreen(window.location.pathname, queryClient), patience]).finally(() => {
      const reactRoot = createRoot(root);
      startTransition(() => reactRoot.render(app));
      prerendered?.remove();
    });
  }
}
