import type { TopPlots } from '@pixel-atlas/contracts/stats';
import { tierSchema } from '@pixel-atlas/contracts/tiers';
import { SCHEMA, type PrismaClient } from '../db.ts';

/** The admin's top plots over the last `days` UTC days: most viewed first, then most clicked; public plots only. */
export async function listTopPlots({ db, days, limit }: { db: PrismaClient; days: number; limit: number }): Promise<TopPlots> {
  const rows = await db.$queryRawUnsafe<
    Array<{ plot_id: string; display_name: string; tier: string; views: number; profile_opens: number; clicks: number }>
  >(
    `SELECT p."id" AS plot_id, p."display_name", p."tier",
            sum(s."views")::int AS views, sum(s."profile_opens")::int AS profile_opens, sum(s."clicks")::int AS clicks
       FROM "${SCHEMA}"."plot_daily_stats" s
       JOIN "${SCHEMA}"."plots" p ON p."id" = s."plot_id" AND p."removed_at" IS NULL
      WHERE s."day" > (now() AT TIME ZONE 'utc')::date - $1::int
      GROUP BY p."id"
      ORDER BY views DESC, clicks DESC, profile_opens DESC, p."display_name"
      LIMIT $2`,
    days,
    limit,
  );
  return {
    days,
    plots: rows.map((r) => ({
      plotId: r.plot_id,
      displayName: r.display_name,
      tier: tierSchema.catch('basic').parse(r.tier),
      views: r.views,
      profileOpens: r.profile_opens,
      clicks: r.clicks,
    })),
  };
}
