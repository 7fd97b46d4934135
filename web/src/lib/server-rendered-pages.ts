import { matchRoutes } from 'react-router';
import { plotNeighboursQuery, plotQuery, regionPageQuery, regionsQuery, userPlotsQuery } from '../api/queries.ts';

/**
 * The screens the gateway renders on the server (src/entry-server.tsx) and the app then hydrates (main.tsx): which API
 * answers each one needs, under the query keys its components read. One table for both sides, so the server's data is
 * exactly what the hydrating screen looks up.
 */

/** One API answer a page needs: `path` is what the gateway GETs, `queryKey` where the answer goes in the query cache. */
export interface PageQuery {
  queryKey: readonly unknown[];
  path: string;
}

export type ServerRenderedScreen = 'plot' | 'user' | 'regions' | 'region';

const SERVER_RENDERED_ROUTES: Array<{ path: string; id: ServerRenderedScreen }> = [
  { path: '/plot/:id', id: 'plot' },
  { path: '/user/:username', id: 'user' },
  { path: '/regions', id: 'regions' },
  { path: '/regions/:slug', id: 'region' },
];

/**
 * The server-rendered screen at `pathname` and its parameters, decoded exactly as the app's router decodes them
 * (matchRoutes: case-insensitive, one trailing slash, percent-decoding per segment); null for any other path.
 */
export function matchServerRenderedScreen(pathname: string): { screen: ServerRenderedScreen; params: Record<string, string> } | null {
  const match = matchRoutes(SERVER_RENDERED_ROUTES, pathname)?.[0];
  if (!match) return null;
  const params = Object.fromEntries(Object.entries(match.params).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { screen: match.route.id, params };
}

/**
 * `?page=N` of a region page: 1 when absent; null (the page does not exist: 404) for anything but a plain number
 * from 1 (leading zeros, signs, fractions are other addresses). `?page=1` and no parameter are the same page. The API
 * refuses a page past its own ceiling (400), which the page shows as not found too. (No zod-bearing contract here:
 * this module is in the app's first chunk.)
 */
export function regionPageNumber(search: string): number | null {
  const raw = new URLSearchParams(search).get('page');
  if (raw === null) return 1;
  return /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : null;
}

const segment = encodeURIComponent;

/**
 * The API answers a server-rendered page is made of, the page's own resource first; null when `pathname` is not a
 * server-rendered page. An empty list: the address itself names nothing (a region page number that cannot exist).
 */
export function pageQueries(pathname: string, search: string): PageQuery[] | null {
  const match = matchServerRenderedScreen(pathname);
  if (!match) return null;
  const { params } = match;
  switch (match.screen) {
    case 'plot': {
      const id = params.id ?? '';
      return [
        { queryKey: plotQuery(id).queryKey, path: `/api/plots/${segment(id)}` },
        { queryKey: plotNeighboursQuery(id).queryKey, path: `/api/plots/${segment(id)}/neighbours` },
      ];
    }
    case 'user': {
      const username = params.username ?? '';
      return [{ queryKey: userPlotsQuery(username).queryKey, path: `/api/users/${segment(username)}/plots` }];
    }
    case 'regions':
      return [{ queryKey: regionsQuery().queryKey, path: '/api/regions' }];
    case 'region': {
      const slug = params.slug ?? '';
      const page = regionPageNumber(search);
      if (page === null) return [];
      return [{ queryKey: regionPageQuery(slug, page).queryKey, path: `/api/regions/${segment(slug)}?page=${page}` }];
    }
  }
}
