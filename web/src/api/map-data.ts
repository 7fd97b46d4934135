import { decodePlotListCompact } from '@pixel-atlas/contracts/plot-list-compact-codec';
import type { Plot, ReservedFootprint } from '@pixel-atlas/contracts/plots';
import { api, dataOf } from './client.ts';
import { errorStatus } from './errors.ts';

/*
 * What the home map's first frame needs, fetched without TanStack Query or React: src/boot/home-map-boot.ts calls these
 * before the app has loaded, and the queries of src/api/queries.ts call the same ones.
 */

export const PLOT_LIST_PATH = '/api/plots';
export const MAP_LAYOUT_PATH = '/api/map-layout';
export const RESERVED_FOOTPRINTS_PATH = '/api/reserved-footprints';

/** The answer, or null when the server answers `status`: for these resources a state (no map, nobody signed in), not a failure. */
export async function nullOnStatus<T>(status: number, call: Promise<{ data?: T; response: Response }>): Promise<T | null> {
  try {
    return await dataOf(call);
  } catch (error) {
    if (errorStatus(error) === status) return null;
    throw error;
  }
}

/**
 * The spec's plots, decoded from the compact list. A plots replica from before the compact form (during a rolling
 * deploy) ignores `format` and answers the spec's list itself, which is taken as it is.
 */
export async function fetchPlotList(): Promise<Plot[]> {
  const body = await dataOf(api.GET(PLOT_LIST_PATH, { params: { query: { format: 'compact' } } }));
  return Array.isArray(body) ? body : decodePlotListCompact(body);
}

/** The layout, or null while no map exists (the service answers 404). */
export function fetchMapLayout() {
  return nullOnStatus(404, api.GET(MAP_LAYOUT_PATH));
}

export type MapLayoutAnswer = Awaited<ReturnType<typeof fetchMapLayout>>;

/** Land held while someone pays or under review. */
export function fetchReservedFootprints(): Promise<ReservedFootprint[]> {
  return dataOf(api.GET(RESERVED_FOOTPRINTS_PATH));
}
