import { z } from 'zod';
import { tierSchema } from './tiers.ts';

/**
 * What is counted per plot per day (counts only: no address, cookie or user agent is stored).
 * `view`: /plot/:id shown (server-rendered by the gateway, or opened inside the app); `profile_open`: the plot's
 * profile opened on the map; `click`: its outbound link followed (a beacon on the click; the href is untouched);
 * `badge_view`: the owner's embeddable badge (/badge/:id.svg) loaded, wherever it is embedded (counted by the gateway).
 */
export const statKindSchema = z.enum(['view', 'profile_open', 'click', 'badge_view']);
export type StatKind = z.infer<typeof statKindSchema>;

/** What a browser's beacon may report: a badge view is heard only by the gateway that serves the badge. */
export const beaconKindSchema = z.enum(['view', 'profile_open', 'click']);
export type BeaconKind = z.infer<typeof beaconKindSchema>;

/** `POST /api/plot-stats` (a `navigator.sendBeacon` body): 204, whatever happens (a beacon never waits nor retries). */
export const statBeaconRequestSchema = z.object({ plotId: z.uuid(), kind: beaconKindSchema }).meta({ id: 'StatBeacon' });
export type StatBeacon = z.infer<typeof statBeaconRequestSchema>;

/**
 * Who a visitor is, for counting once per day: the client key (an IPv4 address, an IPv6 prefix), '\n', the user agent,
 * cut to this length (the beacon's and the gateway's views alike, so both name the same visitor).
 */
export const STAT_VISITOR_MAX = 700;
export const PLOT_VIEWS_MAX_ENTRIES = 1000;
/** The largest body `POST /internal/plot-views` reads. */
export const PLOT_VIEWS_MAX_BODY_BYTES = 1024 * 1024;

/**
 * `POST /internal/plot-views`: the gateway's batch of views of the pages and badges it served (never proxied from
 * outside; it needs the internal token). Each entry is counted as a beacon is: bots, the owner's own views and repeats
 * of a visitor that day are not.
 */
export const plotViewsRequestSchema = z
  .object({
    views: z
      .array(
        z.object({
          plotId: z.uuid(),
          kind: z.enum(['view', 'badge_view']),
          visitor: z.string().min(1).max(STAT_VISITOR_MAX),
          userAgent: z.string().max(4096),
          /** The `pa_owns` cookie's value as the browser sent it (signed by plots): the owner's views are not counted. */
          ownerCookie: z.string().max(8192).optional(),
        }),
      )
      .max(PLOT_VIEWS_MAX_ENTRIES),
  })
  .meta({ id: 'PlotViews' });
export type PlotViewsRequest = z.infer<typeof plotViewsRequestSchema>;
export const plotViewsResponseSchema = z.object({ counted: z.number().int().min(0) }).meta({ id: 'PlotViewsCounted' });

export const STATS_DAYS = 30;

/**
 * The signed HttpOnly cookie that lists the plots a browser proved it owns (a claim, the owner page): their views,
 * profile opens and clicks from that browser are not counted. Set by plots; the gateway passes it on with the views
 * it counts for pages it renders.
 */
export const OWNER_COOKIE = 'pa_owns';

export const plotStatsDaySchema = z.object({
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  views: z.number().int(),
  profileOpens: z.number().int(),
  clicks: z.number().int(),
  /** Loads of the plot's embeddable badge. */
  badgeViews: z.number().int(),
});
export type PlotStatsDay = z.infer<typeof plotStatsDaySchema>;

/** The last STATS_DAYS days, oldest first, every day present (zeros included). */
export const plotStatsSchema = z.object({ days: z.array(plotStatsDaySchema) }).meta({ id: 'PlotStats' });
export type PlotStats = z.infer<typeof plotStatsSchema>;

export const topPlotsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(STATS_DAYS),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const topPlotSchema = z.object({
  plotId: z.uuid(),
  displayName: z.string(),
  tier: tierSchema,
  views: z.number().int(),
  profileOpens: z.number().int(),
  clicks: z.number().int(),
});
/** `GET /api/admin/top-plots?days&limit`: most viewed first (then clicks). */
export const topPlotsResponseSchema = z.object({ days: z.number().int(), plots: z.array(topPlotSchema) }).meta({ id: 'TopPlots' });
export type TopPlots = z.infer<typeof topPlotsResponseSchema>;

/**
 * Obvious bots, by user agent: crawlers, link previewers, monitors, scripts and tools, and requests with no agent.
 * Not a defence (an agent is the client's word), just what keeps the counts honest for well-behaved robots.
 */
const BOT_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|preview|lighthouse|pagespeed|ia_archiver|monitor|uptime|pingdom|checker|validator|curl\/|wget\/|python-|python\/|aiohttp|httpx|go-http-client|java\/|okhttp|node-fetch|undici|axios\/|libwww|scrapy|phantomjs|^mozilla\/5\.0$/i;

export function isObviousBot(userAgent: string | undefined | null): boolean {
  if (!userAgent || userAgent.trim().length < 10) return true;
  return BOT_AGENT.test(userAgent.slice(0, 512));
}
