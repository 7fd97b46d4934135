import { flaggedPlotSchema, type FlaggedPlot } from '@pixel-atlas/contracts/admin';
import { adminLinkHealthListSchema, type AdminLinkHealthEntry } from '@pixel-atlas/contracts/link-health';
import { topPlotsResponseSchema } from '@pixel-atlas/contracts/stats';
import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from './client.ts';

/*
 * The admin sections' queries: their paths start with ADMIN_API_PREFIX (./queries.ts), so signing out drops them.
 * Each answer is checked here, in the admin chunk (zod stays out of the first paint); anything malformed is left out
 * rather than breaking the page.
 */

const FLAGGED_PLOTS_PATH = '/api/admin/flagged-plots';
const LINK_HEALTH_PATH = '/api/admin/link-health';
const TOP_PLOTS_PATH = '/api/admin/top-plots';

/** The review queue: plots (and owners' edits) waiting for a decision. */
export function flaggedPlotsQuery() {
  return queryOptions({
    queryKey: [FLAGGED_PLOTS_PATH] as const,
    queryFn: async (): Promise<FlaggedPlot[]> => {
      const entries: unknown = await dataOf(api.GET(FLAGGED_PLOTS_PATH));
      if (!Array.isArray(entries)) return [];
      return entries.flatMap((entry) => {
        const parsed = flaggedPlotSchema.safeParse(entry);
        return parsed.success ? [parsed.data] : [];
      });
    },
  });
}

const FAILING_LINKS = { status: 'failing' } as const;

/** Plot links the background checker finds failing or unreachable. */
export function failingLinksQuery() {
  return queryOptions({
    queryKey: [LINK_HEALTH_PATH, FAILING_LINKS] as const,
    queryFn: async (): Promise<AdminLinkHealthEntry[]> => {
      const parsed = adminLinkHealthListSchema.safeParse(await dataOf(api.GET(LINK_HEALTH_PATH, { params: { query: FAILING_LINKS } })));
      return parsed.success ? parsed.data.links : [];
    },
  });
}

const TOP_PLOTS_WINDOW = { days: 30, limit: 20 } as const;

/** The most viewed plots of the last 30 days. */
export function topPlotsQuery() {
  return queryOptions({
    queryKey: [TOP_PLOTS_PATH, TOP_PLOTS_WINDOW] as const,
    queryFn: async () =>
      topPlotsResponseSchema
        .catch({ days: TOP_PLOTS_WINDOW.days, plots: [] })
        .parse(await dataOf(api.GET(TOP_PLOTS_PATH, { params: { query: TOP_PLOTS_WINDOW } }))),
  });
}
