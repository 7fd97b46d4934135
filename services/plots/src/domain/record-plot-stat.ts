import { createHmac } from 'node:crypto';
import { isObviousBot, STAT_VISITOR_MAX, type StatKind } from '@pixel-atlas/contracts/stats';
import { SCHEMA, type PrismaClient } from '../db.ts';

export type RecordStatOutcome = 'counted' | 'repeat' | 'bot' | 'unknown-plot';

/** One thing to count: a plot, what happened to it, and who did it. */
export interface PlotStatEntry {
  plotId: string;
  kind: StatKind;
  userAgent: string | undefined;
  /** The visitor (the routes use its client key and user agent); only `visitorHash` of it is stored. */
  visitor: string;
}

/**
 * What is kept of a visitor: a keyed hash (HMAC-SHA-256, cut to 128 bits) of the visitor with the plot, kind and day.
 * Without the key nobody can test an address against it, and the same visitor gives unrelated values for another plot
 * or another day, so the rows link nothing beyond "already counted today". The visitor is cut to STAT_VISITOR_MAX
 * first, so a beacon and the gateway's batch (which cuts it the same way) name one visitor alike.
 */
export function visitorHash(options: { secret: string; visitor: string; plotId: string; kind: StatKind; day: string }): Buffer {
  return createHmac('sha256', options.secret)
    .update(`${options.day}\n${options.plotId}\n${options.kind}\n${options.visitor.slice(0, STAT_VISITOR_MAX)}`)
    .digest()
    .subarray(0, 16);
}

/**
 * Adds one to today's (UTC) count of a visible plot, once per visitor, plot, kind and day: a repeat (a reload, a
 * script hammering one plot) is not counted again. Obvious bots (by user agent) are not counted; unknown, hidden and
 * removed plots are not either. Visitor rows older than yesterday are deleted in the same statement.
 */
export async function recordPlotStat(
  options: PlotStatEntry & { db: PrismaClient; secret: string; now?: Date },
): Promise<RecordStatOutcome> {
  const [outcome] = await recordPlotStats({ db: options.db, secret: options.secret, now: options.now, entries: [options] });
  return outcome!;
}

/**
 * `recordPlotStat` for many entries in one statement (the gateway's batches of views): the outcome of each entry, in
 * order. Two equal entries in one batch count once, as two beacons would.
 */
export async function recordPlotStats(options: {
  db: PrismaClient;
  entries: readonly PlotStatEntry[];
  secret: string;
  now?: Date;
}): Promise<RecordStatOutcome[]> {
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  // An id's case does not make it another plot (nor its visitor another visitor).
  const keys = options.entries.map((entry) =>
    isObviousBot(entry.userAgent)
      ? null
      : visitKey(
          entry.plotId.toLowerCase(),
          entry.kind,
          visitorHash({ secret: options.secret, visitor: entry.visitor, plotId: entry.plotId.toLowerCase(), kind: entry.kind, day }),
        ),
  );
  const wanted = keys.filter((key): key is string => key !== null);
  if (!wanted.length) return keys.map(() => 'bot');
  const { known, inserted } = await countFirstVisits(options.db, day, wanted);
  const fresh = new Set(inserted);
  return keys.map((key) => {
    if (key === null) return 'bot';
    if (!known.has(key.slice(0, key.indexOf('\t')))) return 'unknown-plot';
    return fresh.delete(key) ? 'counted' : 'repeat';
  });
}

/** plot id, kind and visitor hash (hex), tab-separated: what one row of plot_stat_visitors stands for. */
const visitKey = (plotId: string, kind: string, hash: Buffer | string) =>
  `${plotId}\t${kind}\t${typeof hash === 'string' ? hash : hash.toString('hex')}`;

/**
 * One round trip: the plots must be visible, each visitor new for today, and only then the counts go up (one upsert per
 * plot, in plot order so concurrent batches lock rows in the same order). Returns the visible plots among those named
 * and the visits inserted (the first of the day), as visit keys. Data-modifying CTEs run whether read or not.
 */
async function countFirstVisits(db: PrismaClient, day: string, keys: string[]): Promise<{ known: Set<string>; inserted: string[] }> {
  const parts = keys.map((key) => key.split('\t') as [string, string, string]);
  const rows = await db.$queryRawUnsafe<Array<{ plot_id: string; kind: string | null; visitor: string | null }>>(
    `WITH input AS (
       SELECT DISTINCT i."plot_id"::uuid AS "plot_id", i."kind", decode(i."visitor", 'hex') AS "visitor"
         FROM unnest($2::text[], $3::text[], $4::text[]) AS i("plot_id", "kind", "visitor")
     ), plot AS (
       SELECT "id" FROM "${SCHEMA}"."plots"
        WHERE "id" IN (SELECT "plot_id" FROM input) AND "visible" AND "removed_at" IS NULL
     ), purged AS (
       DELETE FROM "${SCHEMA}"."plot_stat_visitors" WHERE "day" < $1::date - 1
     ), first_visit AS (
       INSERT INTO "${SCHEMA}"."plot_stat_visitors" ("plot_id", "day", "kind", "visitor")
       SELECT i."plot_id", $1::date, i."kind", i."visitor" FROM input i JOIN plot p ON p."id" = i."plot_id"
        ORDER BY i."plot_id", i."kind", i."visitor"
       ON CONFLICT DO NOTHING RETURNING "plot_id", "kind", "visitor"
     ), per_plot AS (
       SELECT "plot_id",
              count(*) FILTER (WHERE "kind" = 'view')::int AS views,
              count(*) FILTER (WHERE "kind" = 'profile_open')::int AS profile_opens,
              count(*) FILTER (WHERE "kind" = 'click')::int AS clicks,
              count(*) FILTER (WHERE "kind" = 'badge_view')::int AS badge_views
         FROM first_visit GROUP BY "plot_id"
     ), counted AS (
       INSERT INTO "${SCHEMA}"."plot_daily_stats" ("plot_id", "day", "views", "profile_opens", "clicks", "badge_views")
       SELECT "plot_id", $1::date, views, profile_opens, clicks, badge_views FROM per_plot ORDER BY "plot_id"
       ON CONFLICT ("plot_id", "day") DO UPDATE SET
         "views" = "plot_daily_stats"."views" + EXCLUDED."views",
         "profile_opens" = "plot_daily_stats"."profile_opens" + EXCLUDED."profile_opens",
         "clicks" = "plot_daily_stats"."clicks" + EXCLUDED."clicks",
         "badge_views" = "plot_daily_stats"."badge_views" + EXCLUDED."badge_views"
     )
     SELECT "id"::text AS plot_id, NULL::text AS kind, NULL::text AS visitor FROM plot
     UNION ALL
     SELECT "plot_id"::text, "kind", encode("visitor", 'hex') FROM first_visit`,
    day,
    parts.map((p) => p[0]),
    parts.map((p) => p[1]),
    parts.map((p) => p[2]),
  );
  const known = new Set<string>();
  const inserted: string[] = [];
  for (const row of rows) {
    if (row.kind === null || row.visitor === null) known.add(row.plot_id);
    else inserted.push(visitKey(row.plot_id, row.kind, row.visitor));
  }
  return { known, inserted };
}
