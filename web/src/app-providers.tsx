import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { useToast } from './hooks/use-toast.ts';
import { lazyComponent } from './lib/lazy-component.tsx';
import { whenIdle } from './lib/when-idle.ts';

/** The toaster is not part of the first screen: its chunk loads when the browser is idle. */
const Toaster = lazyComponent(() => import('./components/toaster.tsx'), 'Toaster');

/** Loads the toaster's chunk now (tests, so the first toast renders in the same pass). */
export function preloadToaster(): Promise<unknown> {
  return Toaster.preload();
}

/**
 * Mounts the toaster with the first toast and keeps it mounted (its close animation outlives a toast). The chunk is fetched at idle time beforehand, so the first toast does not wait for the network.
 */
function DeferredToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  useEffect(() => whenIdle(() => void Toaster.preload().catch(() => undefined), { timeoutMs: 3000, fallbackMs: 1000 }), []);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}
