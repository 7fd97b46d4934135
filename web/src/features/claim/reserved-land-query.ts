/**
 * The reserved-land query key, alone in a module without zod or React: the app shell's live-update
 * hook refetches it on every plot change, and must stay small for the first paint.
 */
export const RESERVED_FOOTPRINTS_QUERY_KEY = ['/api/reserved-footprints'] as const;
