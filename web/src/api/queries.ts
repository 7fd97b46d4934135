import type { Plot, ReservedFootprint } from '@pixel-atlas/contracts/plots';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { takeBootFetch } from './boot-data.ts';
import { api, dataOf } from './client.ts';
import {
  MAP_LAYOUT_PATH,
  PLOT_LIST_PATH,
  RESERVED_FOOTPRINTS_PATH,
  fetchMapLayout,
  fetchPlotList,
  fetchReservedFootprints,
  nullOnStatus,
  type MapLayoutAnswer,
} from './map-data.ts';

export { fetchPlotList };

/*
 * One factory per resource of the public API. A key is the path as the API document names it, then that path's
 * parameters, so a path alone is the key prefix of all its pages (what the live updates refetch). No zod here: the app
 * shell imports this module, and zod stays out of the first paint.
 */

const PLOT_PATH = '/api/plots/{id}';
const USER_PLOTS_PATH = '/api/users/{username}/plots';
const PRICES_PATH = '/api/prices';
const VERIFY_SESSION_PATH = '/api/verify-session/{sessionId}';
const SESSION_CLAIM_PATH = '/api/claim-plot/{sessionId}';
const MANAGE_PAGE_PATH = '/api/manage/{token}';
const ADMIN_ME_PATH = '/api/admin/me';
const REGIONS_PATH = '/api/regions';
const REGION_PAGE_PATH = '/api/regions/{slug}';
const PLOT_NEIGHBOURS_PATH = '/api/plots/{id}/neighbours';

/** The list of every plot. It is read in its compact form (a fraction of the bytes); the key names the list itself. */
export const PLOTS_QUERY_KEY = [PLOT_LIST_PATH] as const;

/**
 * The home page's boot (src/boot/home-map-boot.ts) may have asked for the list before the app loaded: the query's
 * first fetch waits on that request instead of asking again.
 */
export function plotsQuery() {
  return queryOptions({
    queryKey: PLOTS_QUERY_KEY,
    queryFn: () => takeBootFetch<Plot[]>(PLOT_LIST_PATH) ?? fetchPlotList(),
  });
}

/** The key prefix of every plot page. */
export const PLOT_PAGES_QUERY_KEY = [PLOT_PATH] as const;

export function plotQuery(id: string) {
  return queryOptions({
    queryKey: [PLOT_PATH, id] as const,
    queryFn: () => dataOf(api.GET(PLOT_PATH, { params: { path: { id } } })),
  });
}

/** The key prefix of every plot's neighbour list. */
export const PLOT_NEIGHBOURS_QUERY_KEY = [PLOT_NEIGHBOURS_PATH] as const;

/** The plots nearest to a plot on the map (its page's "Neighbours"). */
export function plotNeighboursQuery(id: string) {
  return queryOptions({
    queryKey: [PLOT_NEIGHBOURS_PATH, id] as const,
    queryFn: () => dataOf(api.GET(PLOT_NEIGHBOURS_PATH, { params: { path: { id } } })),
  });
}

/** The directory's list of regions with their plot counts (/regions). */
export function regionsQuery() {
  return queryOptions({ queryKey: [REGIONS_PATH] as const, queryFn: () => dataOf(api.GET(REGIONS_PATH)) });
}

/** The key prefix of every region page. */
export const REGION_PAGES_QUERY_KEY = [REGION_PAGE_PATH] as const;

/** One page of a region's plots (/regions/:slug?page=N). */
export function regionPageQuery(slug: string, page: number) {
  return queryOptions({
    queryKey: [REGION_PAGE_PATH, slug, page] as const,
    queryFn: () => dataOf(api.GET(REGION_PAGE_PATH, { params: { path: { slug }, query: { page } } })),
  });
}

/** The key prefix of every user page's plot list. */
export const USER_PLOTS_QUERY_KEY = [USER_PLOTS_PATH] as const;

export function userPlotsQuery(username: string) {
  return queryOptions({
    queryKey: [USER_PLOTS_PATH, username] as const,
    queryFn: () => dataOf(api.GET(USER_PLOTS_PATH, { params: { path: { username } } })),
  });
}

/**
 * The layout, or null while no map exists (the service answers 404). One entry for every screen that needs it (home
 * map, strip, admin), of one shape.
 */
export function mapLayoutQuery() {
  return queryOptions({
    queryKey: [MAP_LAYOUT_PATH] as const,
    // As the plot list: the boot's request, if it made one.
    queryFn: () => takeBootFetch<MapLayoutAnswer>(MAP_LAYOUT_PATH) ?? fetchMapLayout(),
  });
}

/** Land held while someone pays or under review. */
export function reservedFootprintsQuery() {
  return queryOptions({
    queryKey: [RESERVED_FOOTPRINTS_PATH] as const,
    // As the plot list: the boot's request, if it made one (it asks once the map's first frame is drawn).
    queryFn: () => takeBootFetch<ReservedFootprint[]>(RESERVED_FOOTPRINTS_PATH) ?? fetchReservedFootprints(),
  });
}

/** What a checkout charges per tier. */
export function pricesQuery() {
  return queryOptions({ queryKey: [PRICES_PATH] as const, queryFn: () => dataOf(api.GET(PRICES_PATH)) });
}

/** The /claim page's verification of the checkout session it came back with. */
export function verifySessionQuery(sessionId: string) {
  return queryOptions({
    queryKey: [VERIFY_SESSION_PATH, sessionId] as const,
    queryFn: () => dataOf(api.GET(VERIFY_SESSION_PATH, { params: { path: { sessionId } } })),
  });
}

/**
 * The plot the session claimed, as plots knows it the moment the claim commits (verify-session learns it a moment
 * later, from an event): /claim in a second browser says "already claimed" even within that moment.
 */
export function sessionClaimQuery(sessionId: string) {
  return queryOptions({
    queryKey: [SESSION_CLAIM_PATH, sessionId] as const,
    queryFn: () => dataOf(api.GET(SESSION_CLAIM_PATH, { params: { path: { sessionId } } })),
  });
}

/**
 * After a claim the cached verification is out of date (queries never go stale here): Back to /claim would
 * otherwise show the form again for a spent session. The server now says the same (used, with the plot).
 */
export function markSessionUsed(queryClient: QueryClient, sessionId: string, plotId: string): void {
  queryClient.setQueryData(verifySessionQuery(sessionId).queryKey, (current) => (current ? { ...current, used: true, plotId } : current));
}

/** The owner page's data; the token is the key (a rotated token is another page). */
export function managePageQuery(token: string) {
  return queryOptions({
    queryKey: [MANAGE_PAGE_PATH, token] as const,
    queryFn: () => dataOf(api.GET(MANAGE_PAGE_PATH, { params: { path: { token } } })),
  });
}

/** Every admin-only query's key starts with this path prefix, so sign-out can drop them all. */
export const ADMIN_API_PREFIX = '/api/admin/';

/** The signed-in admin; null when nobody is signed in (the server answers 401). */
export function adminMeQuery() {
  return queryOptions({
    queryKey: [ADMIN_ME_PATH] as const,
    queryFn: () => nullOnStatus(401, api.GET(ADMIN_ME_PATH)),
  });
}
