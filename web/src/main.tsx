import '@fontsource/press-start-2p/latin-400.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app-providers.tsx';
import { createAppRouter } from './app-routes.tsx';
import { queryClient } from './lib/query-client.ts';
import { installUnloadCleanup, resetOnFirstLoadOfSession } from './lib/session-housekeeping.ts';

resetOnFirstLoadOfSession(queryClient);
installUnloadCleanup();

const root = document.getElementById('root');
if (!root) throw new Error('index.html is missing the #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
