import { QueryClient } from '@tanstack/react-query';

/** Spec section 7: no refetch interval, no refetch on focus, never stale, no retries. Every query brings its own loader (src/api/queries.ts). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
