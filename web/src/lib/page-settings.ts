import { useQueryClient } from '@tanstack/react-query';

/**
 * What a screen's markup depends on besides its data: the site's public origin (absolute URLs in structured data) and
 * the rel of outbound plot links (an operator setting of the gateway). A server-rendered page carries the values it
 * was rendered with in its query state, so the hydrating app writes the very same markup.
 */
export interface PageSettings {
  origin: string;
  /** Absent: the app's own default (OUTBOUND_LINK_REL in src/features/plots/outbound-link.tsx). */
  outboundLinkRel?: string;
}

/** Not an API path: no live update or prefix invalidation ever touches it. */
export const PAGE_SETTINGS_QUERY_KEY = ['page-settings'] as const;

function browserDefaults(): PageSettings {
  return { origin: typeof window === 'undefined' ? '' : window.location.origin };
}

/** The settings the page was rendered with (server-rendered), else this browser's. They never change within a page. */
export function usePageSettings(): PageSettings {
  return useQueryClient().getQueryData<PageSettings>(PAGE_SETTINGS_QUERY_KEY) ?? browserDefaults();
}

/** `path` on the site's origin; the bare path when no origin is known. */
export function absoluteUrl(origin: string, path: string): string {
  return origin ? new URL(path, origin).href : path;
}
