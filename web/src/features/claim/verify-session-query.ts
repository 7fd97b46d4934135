import type { QueryClient } from '@tanstack/react-query';
import type { ApiResponse } from '../../lib/api-types.ts';

export type VerifiedSession = ApiResponse<'/api/verify-session/{sessionId}'>;

/** The /claim page's verification; the default loader fetches the first element as the URL. */
export function verifySessionQueryKey(sessionId: string): readonly [string] {
  return [`/api/verify-session/${encodeURIComponent(sessionId)}`];
}

/**
 * After a claim the cached verification is out of date (queries never go stale here): Back to /claim would
 * otherwise show the form again for a spent session. The server now says the same (used, with the plot).
 */
export function markSessionUsed(queryClient: QueryClient, sessionId: string, plotId: string): void {
  queryClient.setQueryData<VerifiedSession>(verifySessionQueryKey(sessionId), (current) => (current ? { ...current, used: true, plotId } : current));
}
