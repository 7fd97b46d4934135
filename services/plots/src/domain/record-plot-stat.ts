import { isObviousBot, type StatKind } from '@pixel-atlas/contracts/stats';
import { SCHEMA, type PrismaClient } from '../db.ts';

const COLUMN: Record<StatKind, string> = { view: 'views', profile_open: 'profile_opens', click: 'clicks' };

export type RecordStatOutcome = 'counted' | 'bot' | 'unknown-plot';

/**
 * Adds one to today's (UTC) count of a visible plot: one upsert, nothing about the visitor is kept. Obvious
 * bots (by user agent) are not counted; unknown, hidden and removed plots are not either (the statement
 * inserts nothing for them).
 */
export async function recordPlotStat(options: {
  db: PrismaClient;
  plotId: string;
  kind: StatKind;
  userAgent: string | undefined;
}): Promise<RecordStatOutcome> {
  if (isObviousBot(options.userAgent)) return 'bot';
  const column = COLUMN[options.kind];
  const inserted = await options.db.$executeRawUnsafe(
    `INSERT INTO "${SCHEMA}"."plot_daily_stats" ("plot_id", "day", "${column}")
       SELECT "id", (now() AT TIME ZONE 'utc')::date, 1 FROM "${SCHEMA}"."plots"
        WHERE "id" = $1::uuid AND "visible" AND "removed_at" IS NULL
     ON CONFLICT ("plot_id", "day") DO UPDATE SET "${column}" = "plot_daily_stats"."${column}" + 1`,
    options.plotId,
  );
  return inserted ? 'counted' : 'unknown-plot';
}
