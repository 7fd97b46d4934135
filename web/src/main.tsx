import '@fontsource/press-start-2p/latin-400.css';
import './styles.css';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app-providers.tsx';
import { createAppRouter } from './app-routes.tsx';
import { queryClient } from './lib/query-client.ts';
import { installPageHideCleanup, resetOnFirstLoadOfSession } from './lib/session-housekeeping.ts';

resetOnFirstLoadOfSession(queryClient);
installPageHideCleanup();

const root = document.getElementById('root');
if (!root) throw new Error('index.html is missing the #root element');

// The first render is synchronous so the prerendered shell (#app-shell, see vite.config.ts) can go in the same
// task: the browser never paints a frame with both, or with neither.
flushSync(() => {
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={createAppRouter()} />
      </AppProviders>
    </StrictMode>,
  );
});
document.getElementById('app-shell')?.remove();
