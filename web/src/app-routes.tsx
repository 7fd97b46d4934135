import type { QueryClient } from '@tanstack/react-query';
import { Suspense, type ComponentType } from 'react';
import { createBrowserRouter, matchPath, type RouteObject } from 'react-router';
import { plotQuery, userPlotsQuery } from './api/queries.ts';
import { AppLayout } from './components/app-layout.tsx';
import { RouteErrorPage } from './components/route-error-page.tsx';
import { lazyComponent, type LazyComponent } from './lib/lazy-component.tsx';
import { HomeMap, HomePage } from './pages/home-page.tsx';

/*
 * Only the home screen ships in the entry chunk (it is what most visits open, and index.html carries its
 * prerendered first screen). Every other screen is its own chunk, fetched when visited. React.lazy rather
 * than the router's `lazy` routes: those keep the router uninitialised, so the first paint of a lazy screen
 * would drop the header too; with React.lazy the layout renders at once and only <main> waits.
 */
const AboutPage = lazyComponent(() => import('./pages/about-page.tsx'), 'AboutPage');
const AdminPage = lazyComponent(() => import('./pages/admin-page.tsx'), 'AdminPage');
const ClaimPage = lazyComponent(() => import('./pages/claim-page.tsx'), 'ClaimPage');
const ContactPage = lazyComponent(() => import('./pages/contact-page.tsx'), 'ContactPage');
const DemoPage = lazyComponent(() => import('./pages/demo-page.tsx'), 'DemoPage');
const FaqPage = lazyComponent(() => import('./pages/faq-page.tsx'), 'FaqPage');
const ManagePage = lazyComponent(() => import('./pages/manage-page.tsx'), 'ManagePage');
const NotFoundPage = lazyComponent(() => import('./pages/not-found-page.tsx'), 'NotFoundPage');
const OwnerLinkPage = lazyComponent(() => import('./pages/owner-link-page.tsx'), 'OwnerLinkPage');
const PlotPage = lazyComponent(() => import('./pages/plot-page.tsx'), 'PlotPage');
const PrivacyPage = lazyComponent(() => import('./pages/privacy-page.tsx'), 'PrivacyPage');
const TermsPage = lazyComponent(() => import('./pages/terms-page.tsx'), 'TermsPage');
const UserPage = lazyComponent(() => import('./pages/user-page.tsx'), 'UserPage');

const lazyParts: LazyComponent[] = [
  AboutPage,
  AdminPage,
  ClaimPage,
  ContactPage,
  DemoPage,
  FaqPage,
  ManagePage,
  NotFoundPage,
  OwnerLinkPage,
  PlotPage,
  PrivacyPage,
  TermsPage,
  UserPage,
  HomeMap,
];

/**
 * Screens without data of their own: the build prerenders each one whole (vite.config.ts writes
 * dist/screens/<name>.html, the gateway serves it for that path) and the browser hydrates it in place, so their text
 * is on screen before any script runs.
 */
const PRERENDERED_SCREENS: Record<string, LazyComponent> = {
  '/about': AboutPage,
  '/faq': FaqPage,
  '/terms': TermsPage,
  '/privacy': PrivacyPage,
};
export const PRERENDERED_SCREEN_PATHS = Object.keys(PRERENDERED_SCREENS);

/**
 * The chunk of the prerendered screen at `pathname`, loaded before the screen is rendered at build time or hydrated in
 * the browser (a lazy screen that suspended there would be thrown away and painted again); null when the path has none.
 */
export function preloadPrerenderedScreen(pathname: string): Promise<unknown> | null {
  return PRERENDERED_SCREENS[pathname]?.preload() ?? null;
}

/** Loads every lazily loaded part now (tests render the route table without waiting on chunks). */
export function preloadLazyParts(): Promise<unknown> {
  return Promise.all(lazyParts.map((part) => part.preload()));
}

/**
 * The gateway renders /plot/:id and /user/:username itself (crawlers, link previews, and a first paint before any
 * script). The app takes that page over only once its own screen can render in full at once: the screen's chunk and
 * its data are in. Replacing it sooner would show the empty frame below, then paint the same text again later
 * (the page's largest paint would come seconds after it was already on screen).
 */
export function prepareServerRenderedScreen(pathname: string, queryClient: QueryClient): Promise<unknown> {
  const plot = matchPath('/plot/:id', pathname);
  if (plot?.params.id) return Promise.all([PlotPage.preload(), queryClient.prefetchQuery(plotQuery(plot.params.id))]);
  const user = matchPath('/user/:username', pathname);
  if (user?.params.username) {
    return Promise.all([UserPage.preload(), queryClient.prefetchQuery(userPlotsQuery(user.params.username))]);
  }
  return Promise.resolve();
}

/** A lazily loaded screen; the space below the header stays empty for the moment its chunk takes. */
function Screen({ of: Page }: { of: ComponentType }) {
  return (
    <Suspense fallback={<div className="min-h-dvh" aria-busy="true" />}>
      <Page />
    </Suspense>
  );
}

/** Spec section 2's route table. */
export const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'claim', element: <Screen of={ClaimPage} /> },
      { path: 'plot/:id', element: <Screen of={PlotPage} /> },
      { path: 'user/:username', element: <Screen of={UserPage} /> },
      { path: 'about', element: <Screen of={AboutPage} /> },
      { path: 'faq', element: <Screen of={FaqPage} /> },
      { path: 'contact', element: <Screen of={ContactPage} /> },
      { path: 'terms', element: <Screen of={TermsPage} /> },
      { path: 'privacy', element: <Screen of={PrivacyPage} /> },
      { path: 'demo', element: <Screen of={DemoPage} /> },
      { path: 'admin', element: <Screen of={AdminPage} /> },
      { path: 'manage/:token', element: <Screen of={ManagePage} /> },
      { path: 'owner-link', element: <Screen of={OwnerLinkPage} /> },
      { path: '*', element: <Screen of={NotFoundPage} /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
