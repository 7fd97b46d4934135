import type { ReactNode } from 'react';
import { Outlet, ScrollRestoration, type Location } from 'react-router';
import { useLiveUpdates } from '../features/live/use-live-updates.ts';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

export function AppLayout() {
  // One live-update stream for every screen (map, plot and user pages).
  useLiveUpdates();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 bg-gold px-4 py-3 font-pixel text-xs text-ink-dark focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollRestoration getKey={scrollPositionKey} />
    </div>
  );
}

/** Top padding clears the fixed 64 px header on every static screen. */
export function PageContainer({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <div className={`mx-auto w-full max-w-4xl px-4 pt-24 pb-16 md:pt-28 ${className}`}>{children}</div>;
}

/**
 * React Router gives every fresh page load the key "default", so without this a position saved on one
 * page would be restored on the next full load of any other (e.g. /#claim-tile landing mid-FAQ).
 */
function scrollPositionKey(location: Location): string {
  return location.key === 'default' ? `initial:${location.pathname}${location.search}${location.hash}` : location.key;
}
