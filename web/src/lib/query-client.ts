import { QueryClient } from '@tanstack/react-query';
import { fetchPlotList, PLOTS_QUERY_KEY } from '../features/plots/plot-queries.ts';
import { getQueryFn } from './api.ts';

/** Spec section 7: no refetch interval, no refetch on focus, never stale, no retries. */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  client.setQueryDefaults(PLOTS_QUERY_KEY, { queryFn: fetchPlotList });
  return client;
}

export const queryClient = createQueryClient();
