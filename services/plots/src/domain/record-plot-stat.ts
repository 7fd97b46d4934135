import { createHmac } from 'node:crypto';
import { isObviousBot, type StatKind } from '@pixel-atlas/contracts/stats';
import { SCHEMA, type PrismaClient } from '../db.ts';

const COLUMN: Record<StatKind, string> = { view: 'views', profile_open: 'profile_opens', click: 'clicks' };

export type RecordStatOutcome = 'counted' | 'repeat' | 'bot' | 'unknown-plot';

/**
 * What is kept of a visitor: a keyed hash (HMAC-SHA-256, cut to 128 bits) of the visitor with the plot, kind and day.
 * Without the key nobody can test an address against it, and the same visitor gives unrelated values for another plot
 * or another day, so the rows link nothing beyond "already counted today".
 */
export function visitorHash(options: { secret: string; visitor: string; plotId: string; kind: StatKind; day: string }): Buffer {
  return createHmac('sha256', options.secret)
    .update(`${options.day}\n${options.plotId}\n${options.kind}\n${options.visitor}`)
    .digest()
    .subarray(0, 16);
}

/**
 * Adds one to today's (UTC) count of a visible plot, once per visitor, plot, kind and day: a repeat (a reload, a
 * script hammering one plot) is not counted again. `visitor` names the visitor (the route uses its client key and user
 * agent); only `visitorHash` of it is stored. Obvious bots (by user agent) are not counted; unknown, hidden and
 * removed plots are not either. Visitor rows older than yesterday are deleted in the same statement.
 */
export async function recordPlotStat(options: {
  db: PrismaClient;
  plotId: string;
  kind: StatKind;
  userAgent: string | undefined;
  visitor: string;
  secret: string;
  now?: Date;
}): Promise<RecordStatOutcome> {
  if (isObviousBot(options.userAgent)) return 'bot';
  const column = COLUMN[options.kind];
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  const visitor = visitorHash({ secret: options.secret, visitor: options.visitor, plotId: options.plotId, kind: options.kind, day });
  // One round trip: the plot must be visible, the visitor new for today, and only then the count goes up.
  const [result] = await options.db.$queryRawUnsafe<Array<{ known: number; counted: number }>>(
    `WITH plot AS (
       SELECT "id" FROM "${SCHEMA}"."plots" WHERE "id" = $1::uuid AND "visible" AND "removed_at" IS NULL
     ), purged AS (
       DELETE FROM "${SCHEMA}"."plot_stat_visitors" WHERE "day" < $2::date - 1
     ), first_visit AS (
       INSERT INTO "${SCHEMA}"."plot_stat_visitors" ("plot_id", "day", "kind", "visitor")
       SELECT "id", $2::date, $3, $4::bytea FROM plot
       ON CONFLICT DO NOTHING RETURNING "plot_id"
     ), counted AS (
       INSERT INTO "${SCHEMA}"."plot_daily_stats" ("plot_id", "day", "${column}")
       SELECT "plot_id", $2::date, 1 FROM first_visit
       ON CONFLICT ("plot_id", "day") DO UPDATE SET "${column}" = "plot_daily_stats"."${column}" + 1
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM plot)::int AS known, (SELECT count(*) FROM counted)::int AS counted`,
    options.plotId,
    day,
    options.kind,
    visitor,
  );
  if (!result?.known) return 'unknown-plot';
  return result.counted ? 'counted' : 'repeat';
}
