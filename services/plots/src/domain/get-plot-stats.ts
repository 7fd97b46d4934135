import { STATS_DAYS, type PlotStats } from '@pixel-atlas/contracts/stats';
import { SCHEMA, type PrismaClient } from '../db.ts';

/** The last STATS_DAYS UTC days of one plot, oldest first, with every day present (zeros where nothing happened). */
export async function getPlotStats({
  db,
  plotId,
  days = STATS_DAYS,
}: {
  db: PrismaClient;
  plotId: string;
  days?: number;
}): Promise<PlotStats> {
  const rows = await db.$queryRawUnsafe<Array<{ day: string; views: number; profile_opens: number; clicks: number; badge_views: number }>>(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
            coalesce(s."views", 0)::int AS views, coalesce(s."profile_opens", 0)::int AS profile_opens, coalesce(s."clicks", 0)::int AS clicks,
            coalesce(s."badge_views", 0)::int AS badge_views
       FROM generate_series((now() AT TIME ZONE 'utc')::date - ($2::int - 1), (now() AT TIME ZONE 'utc')::date, interval '1 day') AS d(day)
       LEFT JOIN "${SCHEMA}"."plot_daily_stats" s ON s."plot_id" = $1::uuid AND s."day" = d.day::date
      ORDER BY d.day`,
    plotId,
    days,
  );
  return {
    days: rows.map((r) => ({ day: r.day, views: r.views, profileOpens: r.profile_opens, clicks: r.clicks, badgeViews: r.badge_views })),
  };
}
