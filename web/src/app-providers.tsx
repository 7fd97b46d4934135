import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';
import { Toaster } from './components/toaster.tsx';

/** Spec section 9: tooltips open after a 700 ms hover delay. */
export const TOOLTIP_DELAY_MS = 700;

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS}>
        {children}
        <Toaster />
      </TooltipPrimitive.Provider>
    </QueryClientProvider>
  );
}
