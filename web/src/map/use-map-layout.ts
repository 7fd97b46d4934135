import { useQuery } from '@tanstack/react-query';
import { mapLayoutQuery } from '../api/queries.ts';

/** The layout, or null while no map exists: one query for every screen that needs it (home map, admin). */
export function useMapLayout(options: { enabled?: boolean } = {}) {
  return useQuery({ ...mapLayoutQuery(), enabled: options.enabled });
}
