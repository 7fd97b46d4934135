import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppLayout } from './components/app-layout.tsx';
import { RouteErrorPage } from './components/route-error-page.tsx';
import { AboutPage } from './pages/about-page.tsx';
import { AdminPage } from './pages/admin-page.tsx';
import { ClaimPage } from './pages/claim-page.tsx';
import { ContactPage } from './pages/contact-page.tsx';
import { DemoPage } from './pages/demo-page.tsx';
import { FaqPage } from './pages/faq-page.tsx';
import { HomePage } from './pages/home-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { PlotPage } from './pages/plot-page.tsx';
import { PrivacyPage } from './pages/privacy-page.tsx';
import { TermsPage } from './pages/terms-page.tsx';
import { UserPage } from './pages/user-page.tsx';

/** Spec section 2's route table. */
export const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'claim', element: <ClaimPage /> },
      { path: 'plot/:id', element: <PlotPage /> },
      { path: 'user/:username', element: <UserPage /> },
      { path: 'about', element: <AboutPage /> },
      { path: 'faq', element: <FaqPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'terms', element: <TermsPage /> },
      { path: 'privacy', element: <PrivacyPage /> },
      { path: 'demo', element: <DemoPage /> },
      { path: 'admin', element: <AdminPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
