/** Query keys of the plot screens; the default loader fetches the first element as the URL. */
export const PLOTS_QUERY_KEY = ['/api/plots'] as const;

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
