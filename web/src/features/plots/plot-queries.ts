import { decodePlotListCompact, type PlotListCompact } from '@pixel-atlas/contracts/plot-list-compact-codec';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { apiJson } from '../../lib/api.ts';

/** Query keys of the plot screens; the default loader fetches the first element as the URL. */
export const PLOTS_QUERY_KEY = ['/api/plots'] as const;

/** The list of every plot is read in its compact form (a fraction of the bytes); PLOTS_QUERY_KEY still names it. */
export const PLOT_LIST_COMPACT_URL = '/api/plots?format=compact';

/**
 * The loader of PLOTS_QUERY_KEY: the spec's plots, from the compact list. A plots replica from before the compact
 * form (during a rolling deploy) ignores `format` and answers the spec's list itself, which is taken as it is.
 */
export async function fetchPlotList(): Promise<Plot[]> {
  const body = await apiJson<PlotListCompact | Plot[]>('GET', PLOT_LIST_COMPACT_URL);
  return Array.isArray(body) ? body : decodePlotListCompact(body);
}

export function plotQueryKey(id: string): readonly [string] {
  return [`/api/plots/${encodeURIComponent(id)}`];
}

export const USER_PLOTS_URL_PREFIX = '/api/users/';

export function userPlotsQueryKey(username: string): readonly [string] {
  return [`${USER_PLOTS_URL_PREFIX}${encodeURIComponent(username)}/plots`];
}

/** True for the key of any user page's plot list. */
export function isUserPlotsQueryKey(queryKey: readonly unknown[]): boolean {
  const url = String(queryKey[0]);
  return url.startsWith(USER_PLOTS_URL_PREFIX) && url.endsWith('/plots');
}
