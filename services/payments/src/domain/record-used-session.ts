import { SCHEMA, type Tx } from '../db.ts';

export interface UsedSession {
  sessionId: string;
  plotId: string;
  usedAt: Date;
  ipAddress: string | null;
}

/**
 * plots.plot.claimed: each session bought its plot. Records the used sessions and links their payments, for any
 * number of claims in one statement (idempotent: a session already recorded keeps its first record).
 */
export async function recordUsedSessions({ tx, uses }: { tx: Tx; uses: UsedSession[] }): Promise<void> {
  if (uses.length === 0) return;
  await tx.$executeRawUnsafe(
    `WITH "use" AS (
       SELECT * FROM unnest($1::text[], $2::uuid[], $3::timestamptz[], $4::text[]) AS "u"("session_id", "plot_id", "used_at", "ip_address")
     ), "recorded" AS (
       INSERT INTO "${SCHEMA}"."used_sessions" ("id", "session_id", "plot_id", "used_at", "ip_address")
       SELECT gen_random_uuid(), "session_id", "plot_id", "used_at", "ip_address" FROM "use"
       ON CONFLICT DO NOTHING
     )
     UPDATE "${SCHEMA}"."payments" AS "p" SET "plot_id" = "use"."plot_id" FROM "use" WHERE "p"."stripe_session_id" = "use"."session_id"`,
    uses.map((u) => u.sessionId),
    uses.map((u) => u.plotId),
    uses.map((u) => u.usedAt),
    uses.map((u) => u.ipAddress),
  );
}
