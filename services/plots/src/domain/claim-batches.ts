import { PreparedStatement, type Queryable } from '@pixel-atlas/service-kit/database';
import { TIER_SIZE } from '@pixel-atlas/contracts/tiers';
import { SCHEMA, TABLE } from '../db.ts';
import { FOOTPRINT_LOCK_NAMESPACE, footprintLockBlocks, isRetryableTransactionError } from './footprints.ts';

/**
 * Hands what callers submit to `run` in batches: a submission that finds the batcher idle goes at once, alone; the
 * ones that arrive while a batch is in the database go together in the next. Under load one round trip and one commit
 * serve many requests (each socket write costs this machine's processes a few tenths of a millisecond, and each
 * commit the database a WAL flush); at rest nothing waits. One batch at a time: batches of one replica never wait on
 * each other's locks.
 */
export class StatementBatcher<Input, Output> {
  private queue: Array<{ input: Input; resolve: (output: Output) => void; reject: (error: unknown) => void }> = [];
  private running = false;

  constructor(
    private readonly run: (inputs: Input[]) => Promise<Output[]>,
    private readonly maxBatch: number,
  ) {}

  submit(input: Input): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const outputs = await this.run(batch.map((item) => item.input));
        batch.forEach((item, i) => item.resolve(outputs[i]!));
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    this.running = false;
  }
}

export interface ClaimStateQuery {
  x: number;
  y: number;
  tier: keyof typeof TIER_SIZE;
  sessionId: string;
}

export interface ClaimState {
  /** Our copy of the session's paid tier (null: payments must be asked). */
  tier: string | null;
  /** A plot was already made with this session. */
  used: boolean;
  /** A plot, or another session's live hold, overlaps the claimed footprint (advisory: the constraint decides). */
  taken: boolean;
  /**
   * The session's claim tries, this one included, when this statement counted it: the local entitlement is of the
   * claimed tier and the session is unused (null otherwise: refused before any cost, or payments must be asked first).
   */
  attempts: number | null;
  /** The address the buyer gave at checkout (our copy of the entitlement's), for the receipt. */
  buyerEmail: string | null;
}

/**
 * What the claim's first checks need, for every claim of the batch in one statement: the local entitlement, whether
 * the session already made a plot, whether the footprint (of the claimed tier's size: a claim for another tier is
 * refused before `taken` is looked at) is free or held by this session, and, when the session is paid for this tier and
 * unused, this try counted against the session's bound (every later step may cost an image decode). Two claims of one
 * session in one batch are counted once: the bound is on decodes, and the second is refused before its decode.
 */
const readClaimStates = new PreparedStatement<ClaimState & { n: number }>(
  'plots.read_claim_states',
  `WITH "claim" AS (
     SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[]) WITH ORDINALITY AS "c"("x", "y", "size", "session_id", "tier", "n")
   ), "state" AS (
     SELECT "claim"."n", "claim"."session_id", "claim"."tier" AS "claimed_tier",
            (SELECT "tier" FROM "${SCHEMA}"."entitlements" WHERE "session_id" = "claim"."session_id") AS "tier",
            (SELECT "buyer_email" FROM "${SCHEMA}"."entitlements" WHERE "session_id" = "claim"."session_id") AS "buyer_email",
            EXISTS (SELECT 1 FROM ${TABLE.plots} WHERE "stripe_session_id" = "claim"."session_id") AS "used",
            EXISTS (SELECT 1 FROM ${TABLE.footprints} AS "f"
                     WHERE int4range("f"."x", "f"."x" + "f"."size") && int4range("claim"."x", "claim"."x" + "claim"."size")
                       AND int4range("f"."y", "f"."y" + "f"."size") && int4range("claim"."y", "claim"."y" + "claim"."size")
                       AND ("f"."kind" = 'plot' OR ("f"."kind" = 'hold' AND "f"."expires_at" > now() AND "f"."session_id" IS DISTINCT FROM "claim"."session_id"))) AS "taken"
       FROM "claim"
   ), "counted" AS (
     UPDATE "${SCHEMA}"."entitlements" AS "e" SET "claim_attempts" = "e"."claim_attempts" + 1
       FROM "state"
      WHERE "e"."session_id" = "state"."session_id" AND "e"."tier" = "state"."claimed_tier" AND NOT "state"."used"
      RETURNING "e"."session_id", "e"."claim_attempts"
   )
   SELECT "state"."n"::int, "state"."tier", "state"."used", "state"."taken", "counted"."claim_attempts" AS "attempts",
          "state"."buyer_email" AS "buyerEmail"
     FROM "state" LEFT JOIN "counted" ON "counted"."session_id" = "state"."session_id"
    ORDER BY "state"."n"`,
);

/** Everything `write_claim` stores for one claim (see migration `write_claim_function`). */
export interface ClaimWrite {
  plotId: string;
  zone: string;
  tier: string;
  x: number;
  y: number;
  size: number;
  displayName: string;
  message: string;
  link: string | null;
  visible: boolean;
  regionName: string | null;
  sessionId: string;
  notificationEmail: string | null;
  createdAt: Date;
  avatar: Buffer;
  manageTokenHash: string;
  eventId: string;
  eventType: string;
  eventPayload: string;
  requestId: string | null;
}

/** A claim's write refused by the exclusion constraint or a unique index, shaped as pg's own error for `failures.ts`. */
export class ClaimWriteRefused extends Error {
  readonly severity = 'ERROR';

  constructor(
    readonly code: string,
    readonly constraint: string | undefined,
  ) {
    super(`claim write refused: ${code}${constraint ? ` (${constraint})` : ''}`);
    this.name = 'ClaimWriteRefused';
  }
}

/** null: written; otherwise why this claim was not (the others of its batch are unaffected). */
export type ClaimWriteOutcome = { error: unknown } | null;

/** Many claims in one call and one transaction (migration `write_claims_function`). */
const writeClaims = new PreparedStatement<{ n: number; sql_state: string | null; constraint_name: string | null }>(
  'plots.write_claims',
  `SELECT "n", "sql_state", "constraint_name" FROM "${SCHEMA}"."write_claims"($1::int, $2::int[], $3::uuid[], $4::text[], $5::text[],
     $6::int[], $7::int[], $8::int[], $9::text[], $10::text[], $11::text[], $12::boolean[], $13::text[], $14::text[], $15::text[],
     $16::timestamptz[], $17::bytea[], $18::text[], $19::uuid[], $20::text[], $21::jsonb[], $22::text[])`,
);

/** One claim in its own call, for a batch that failed as a whole (so one bad claim cannot fail its neighbours). */
const writeClaim = new PreparedStatement<object>(
  'plots.write_claim',
  `SELECT "${SCHEMA}"."write_claim"($1::int, $2::int[], $3::uuid, $4, $5, $6::int, $7::int, $8::int, $9, $10, $11, $12::boolean, $13,
     $14, $15, $16::timestamptz, $17::bytea, $18, $19::uuid, $20, $21::jsonb, $22)`,
);

const column = <K extends keyof ClaimWrite>(writes: ClaimWrite[], key: K) => writes.map((write) => write[key]);

async function writeAlone(pg: Queryable, write: ClaimWrite): Promise<ClaimWriteOutcome> {
  try {
    await writeClaim.rows(pg, [
      FOOTPRINT_LOCK_NAMESPACE,
      footprintLockBlocks(write),
      write.plotId,
      write.zone,
      write.tier,
      write.x,
      write.y,
      write.size,
      write.displayName,
      write.message,
      write.link,
      write.visible,
      write.regionName,
      write.sessionId,
      write.notificationEmail,
      write.createdAt,
      write.avatar,
      write.manageTokenHash,
      write.eventId,
      write.eventType,
      write.eventPayload,
      write.requestId,
    ]);
    return null;
  } catch (error) {
    return { error };
  }
}

async function writeBatch(pg: Queryable, writes: ClaimWrite[]): Promise<ClaimWriteOutcome[]> {
  if (writes.length === 1) return [await writeAlone(pg, writes[0]!)];
  const blocks = [...new Set(writes.flatMap((write) => footprintLockBlocks(write)))].sort((a, b) => a - b);
  let rows;
  try {
    rows = await writeClaims.rows(pg, [
      FOOTPRINT_LOCK_NAMESPACE,
      blocks,
      column(writes, 'plotId'),
      column(writes, 'zone'),
      column(writes, 'tier'),
      column(writes, 'x'),
      column(writes, 'y'),
      column(writes, 'size'),
      column(writes, 'displayName'),
      column(writes, 'message'),
      column(writes, 'link'),
      column(writes, 'visible'),
      column(writes, 'regionName'),
      column(writes, 'sessionId'),
      column(writes, 'notificationEmail'),
      column(writes, 'createdAt'),
      column(writes, 'avatar'),
      column(writes, 'manageTokenHash'),
      column(writes, 'eventId'),
      column(writes, 'eventType'),
      column(writes, 'eventPayload'),
      column(writes, 'requestId'),
    ]);
  } catch (error) {
    // A deadlock (the exclusion constraint's index, against another replica) is each claim's to retry; anything else
    // may be one claim's fault: each is written alone, and only that one fails.
    if (isRetryableTransactionError(error)) return writes.map(() => ({ error }));
    const outcomes: ClaimWriteOutcome[] = [];
    for (const write of writes) outcomes.push(await writeAlone(pg, write));
    return outcomes;
  }
  const refused = new Map(rows.filter((row) => row.sql_state).map((row) => [row.n, row]));
  return writes.map((_, i) => {
    const row = refused.get(i + 1);
    return row ? { error: new ClaimWriteRefused(row.sql_state!, row.constraint_name ?? undefined) } : null;
  });
}

/** The claim's statements of one replica, batched (see StatementBatcher). */
export class ClaimBatches {
  private readonly states: StatementBatcher<ClaimStateQuery, ClaimState>;
  private readonly writes: StatementBatcher<ClaimWrite, ClaimWriteOutcome>;

  constructor(pg: Queryable, maxBatch = 64) {
    this.states = new StatementBatcher(async (claims) => {
      const rows = await readClaimStates.rows(pg, [
        claims.map((c) => c.x),
        claims.map((c) => c.y),
        claims.map((c) => TIER_SIZE[c.tier]),
        claims.map((c) => c.sessionId),
        claims.map((c) => c.tier),
      ]);
      const byClaim = new Map(
        rows.map(({ n, tier, used, taken, attempts, buyerEmail }) => [n, { tier, used, taken, attempts, buyerEmail }]),
      );
      return claims.map((_, i) => byClaim.get(i + 1) ?? { tier: null, used: false, taken: false, attempts: null, buyerEmail: null });
    }, maxBatch);
    this.writes = new StatementBatcher((writes) => writeBatch(pg, writes), maxBatch);
  }

  readState(claim: ClaimStateQuery): Promise<ClaimState> {
    return this.states.submit(claim);
  }

  /** Resolves once the claim is written; rejects with why it was not (pg's error, or ClaimWriteRefused). */
  async write(claim: ClaimWrite): Promise<void> {
    const outcome = await this.writes.submit(claim);
    if (outcome) throw outcome.error;
  }
}
