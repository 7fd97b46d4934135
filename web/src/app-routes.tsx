import { Suspense, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './components/app-layout.tsx';
import { RouteErrorPage } from './components/route-error-page.tsx';
import { hasBootedMap } from './boot/booted-map.ts';
import { lazyComponent, type LazyComponent } from './lib/lazy-component.tsx';
import { matchServerRenderedScreen, type ServerRenderedScreen } from './lib/server-rendered-pages.ts';
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
const RegionPage = lazyComponent(() => import('./pages/region-page.tsx'), 'RegionPage');
const RegionsPage = lazyComponent(() => import('./pages/regions-page.tsx'), 'RegionsPage');
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
  RegionPage,
  RegionsPage,
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

/** The screens the gateway renders per request (src/entry-server.tsx, src/lib/server-rendered-pages.ts). */
const SERVER_RENDERED_SCREENS: Record<ServerRenderedScreen, LazyComponent> = {
  plot: PlotPage,
  user: UserPage,
  regions: RegionsPage,
  region: RegionPage,
};

/**
 * The chunk of the screen at `pathname` when that screen comes rendered in the page (prerendered at build time, or by
 * the gateway per request): loaded before the screen is rendered on the server, and before the browser hydrates it (a
 * lazy screen that suspended there would be thrown away and painted again). Null when the path has none.
 */
export function preloadRenderedScreen(pathname: string): Promise<unknown> | null {
  // The home screen's map box holds the map the page's boot drew (src/boot/): the map's chunk comes first, so the
  // component that takes that map over replaces the box in the same commit (a suspended map would show the box's
  // placeholder, without the map, for as long as its chunk takes).
  if (pathname === '/' && hasBootedMap()) return HomeMap.preload();
  const prerendered = PRERENDERED_SCREENS[pathname];
  if (prerendered) return prerendered.preload();
  const match = matchServerRenderedScreen(pathname);
  return match ? SERVER_RENDERED_SCREENS[match.screen].preload() : null;
}

/** Loads every lazily loaded part now (tests render the route table without waiting on chunks). */
export function preloadLazyParts(): Promise<unknown> {
  return Promise.all(lazyParts.map((part) => part.preload()));
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
      { path: 'regions', element: <Screen of={RegionsPage} /> },
      { path: 'regions/:slug', element: <Screen of={RegionPage} /> },
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
