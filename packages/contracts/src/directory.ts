import { z } from 'zod';
import { plotSchema } from './plots.ts';

/**
 * The directory: `/regions` and `/regions/:slug?page=N`, the crawlable path to every public plot
 * (`/` → region page 1 → region page k → `/plot/:id`, so each plot is within 3 links of `/`).
 * Only plots the public map shows ever appear here, in the counts too.
 */

/** Plots per region page: a phone scrolls through it, and 8,100 plots need few pages per region. */
export const DIRECTORY_PAGE_SIZE = 48;
/** Nearest visible plots a plot page links to. */
export const NEIGHBOUR_COUNT = 6;
/** Pages past this are refused (400) before any query runs. */
export const DIRECTORY_MAX_PAGE = 10_000;

export { regionSlug, UNCHARTED_REGION } from './region-catalog.ts';

export const regionSummarySchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    plotCount: z.number().int().min(0),
    /** The latest claim or change of a plot in the region (ISO 8601); null when it has none. */
    lastModified: z.string().nullable(),
  })
  .meta({ id: 'RegionSummary' });
export type RegionSummary = z.infer<typeof regionSummarySchema>;

/** `GET /api/regions`: the 13 regions in REGION_DEFINITIONS order (empty ones too), then Uncharted only when it has plots. */
export const regionListSchema = z.object({ regions: z.array(regionSummarySchema) }).meta({ id: 'RegionList' });
export type RegionList = z.infer<typeof regionListSchema>;

export const regionSlugParamsSchema = z.object({ slug: z.string().min(1).max(80) });

export const regionPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(DIRECTORY_MAX_PAGE).default(1),
});
export type RegionPageQuery = z.infer<typeof regionPageQuerySchema>;

/** `GET /api/regions/:slug?page=N`: plots ordered by y, then x; pageCount is at least 1 (page 1 of an empty region). */
export const regionPageSchema = z
  .object({
    region: regionSummarySchema,
    page: z.number().int().min(1),
    pageCount: z.number().int().min(1),
    plots: z.array(plotSchema),
  })
  .meta({ id: 'RegionPage' });
export type RegionPage = z.infer<typeof regionPageSchema>;

/** `GET /api/plots/:id/neighbours`: up to NEIGHBOUR_COUNT nearest visible plots, nearest first, the plot itself excluded. */
export const plotNeighboursSchema = z.object({ plots: z.array(plotSchema) }).meta({ id: 'PlotNeighbours' });
export type PlotNeighbours = z.infer<typeof plotNeighboursSchema>;
