import type { MapLayout } from '@pixel-atlas/contracts/map';
import { useQuery } from '@tanstack/react-query';
import { apiJson, errorStatus } from '../lib/api.ts';
import type { ApiResponse } from '../lib/api-types.ts';

export const MAP_LAYOUT_QUERY_KEY = ['/api/map-layout'] as const;

/**
 * The layout, or null while no map exists (the service answers 404). One query for every screen
 * that needs it (home map, admin), so they share one cache entry of one shape.
 */
export function useMapLayout(options: { enabled?: boolean } = {}) {
  return useQuery<MapLayout | null>({
    queryKey: MAP_LAYOUT_QUERY_KEY,
    enabled: options.enabled,
    queryFn: async () => {
      try {
        return await apiJson<ApiResponse<'/api/map-layout'>>('GET', MAP_LAYOUT_QUERY_KEY[0]);
      } catch (error) {
        if (errorStatus(error) === 404) return null;
        throw error;
      }
    },
  });
}
