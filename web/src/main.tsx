import './lib/zod-without-eval.ts';
import '@fontsource/press-start-2p/latin-400.css';
import './styles.css';
import { StrictMode, startTransition, useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app-providers.tsx';
import { createAppRouter, preloadRenderedScreen } from './app-routes.tsx';
import { installDialogHistory } from './lib/dialog-history.ts';
import { queryClient } from './lib/query-client.ts';
import { markServerRenderedPage } from './lib/server-rendered-page.ts';
import { hydrateServerState, isExpectedHydrationError } from './lib/server-state.ts';
import { installPageHideCleanup, resetOnFirstLoadOfSession } from './lib/session-housekeeping.ts';

resetOnFirstLoadOfSession(queryClient);
installPageHideCleanup();
// Before the router exists: its popstate listener must come after the dialogs' (see dialog-history.ts).
installDialogHistory();

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

/** A lazy part the server left to the browser is expected; any other recoverable error (a real mismatch) is reported. */
function reportUnexpectedHydrationError(error: unknown) {
  if (!isExpectedHydrationError(error)) console.error(error);
}

/**
 * Hydrates `container` (server-rendered markup of this very path) once the screen's chunk is in: suspended, its markup
 * would be thrown away and painted again. The nodes people already see stay (no second paint, so no later LCP, no
 * layout shift). In a transition, hydration is time-sliced (yields every few ms) rather than one long task.
 */
function hydrateWhenScreenIsIn(container: HTMLElement) {
  const hydrate = () =>
    startTransition(() => {
      hydrateRoot(container, app, { onRecoverableError: reportUnexpectedHydrationError });
    });
  const screenChunk = preloadRenderedScreen(window.location.pathname);
  if (screenChunk) void screenChunk.then(hydrate, hydrate);
  else hydrate();
}

const serverState = document.getElementById('pa-state');
if (serverState && root.childElementCount > 0) {
  // The gateway rendered this page (src/entry-server.tsx) with the data in #pa-state: the same queries go into the
  // cache first, so the app's first render is the server's markup, and nothing is fetched again.
  hydrateServerState(queryClient, serverState.textContent ?? '{}');
  // The gateway counted this page's view when it served it (the plot page must not count it again).
  markServerRenderedPage(window.location.pathname);
  prerendered?.remove();
  hydrateWhenScreenIsIn(root);
} else if (prerendered && prerendered.dataset.path === window.location.pathname && root.childElementCount === 0) {
  // The shell was rendered at build time for this very path (the home screen, or a screen without data such as /faq).
  hydrateWhenScreenIsIn(prerendered);
  root.remove();
} else {
  // Another path (the generic shell): render fresh, synchronously, so the prerendered part can go in the same task and
  // the browser never paints a frame with both, or with neither.
  flushSync(() => createRoot(root).render(app));
  prerendered?.remove();
}
