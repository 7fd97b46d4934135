import { randomUUID } from 'node:crypto';
import { headers as natsHeaders } from '@nats-io/nats-core';
import { quoteIdent, type SqlClient } from './database.ts';
import type { EventBus } from './nats.ts';

/**
 * Events a consumer gave up on, kept in the consuming service's schema (`dead_letter_events`) so nothing is
 * lost: an event whose payload fails its schema, or whose handler failed for a non-transient reason on
 * every one of its attempts. `npm run events:dead-letters` lists them; `npm run events:replay` publishes
 * them again under a new message id (same event id), so the consumer's inbox applies each at most once.
 */
export const DEAD_LETTER_TABLE = 'dead_letter_events';

/** Header on a replayed copy naming the dead letter it came from. */
export const REPLAY_HEADER = 'Pixel-Atlas-Replay-Of';

export interface DeadLetterInput {
  schema: string;
  consumer: string;
  /** Null when the message was not an event envelope (no usable id). */
  eventId: string | null;
  /** Logical subject (the event type, without the deployment's subject prefix). */
  subject: string;
  /** The message body exactly as delivered. */
  payload: string;
  error: string;
  attempts: number;
  firstFailedAt: Date;
}

/**
 * Stores (or, for an event dead-lettered again after a replay, updates) the dead letter. Runs on its own,
 * outside the failed handler's transaction, which has rolled back.
 */
export async function recordDeadLetter(db: SqlClient, input: DeadLetterInput): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO ${quoteIdent(input.schema)}.${quoteIdent(DEAD_LETTER_TABLE)}
       ("event_id", "consumer", "subject", "payload", "error", "attempts", "first_failed_at", "last_failed_at")
     VALUES ($1::uuid, $2, $3, $4, $5, $6, $7::timestamptz, now())
     ON CONFLICT ("consumer", "event_id") DO UPDATE SET
       "subject" = EXCLUDED."subject", "payload" = EXCLUDED."payload", "error" = EXCLUDED."error",
       "attempts" = ${quoteIdent(DEAD_LETTER_TABLE)}."attempts" + EXCLUDED."attempts",
       "last_failed_at" = now(), "replayed_at" = NULL`,
    input.eventId,
    input.consumer,
    input.subject,
    input.payload,
    input.error.slice(0, 4000),
    input.attempts,
    input.firstFailedAt.toISOString(),
  );
}

/** The slice of pg's Pool / Client the CLI functions use. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

export interface DeadLetter {
  schema: string;
  id: string;
  eventId: string | null;
  consumer: string;
  subject: string;
  payload: string;
  error: string;
  attempts: number;
  firstFailedAt: Date;
  lastFailedAt: Date;
  replayedAt: Date | null;
}

/** Every schema of the database that has a dead-letter table (one per consuming service). */
export async function deadLetterSchemas(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ schema: string }>(
    `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = $1 ORDER BY table_schema`,
    [DEAD_LETTER_TABLE],
  );
  return rows.map((r) => r.schema);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ListOptions {
  schemas?: string[];
  includeReplayed?: boolean;
  /** A consumer name, or a dead letter id or event id. */
  target?: string;
}

export async function listDeadLetters(db: Queryable, options: ListOptions = {}): Promise<DeadLetter[]> {
  const schemas = options.schemas ?? (await deadLetterSchemas(db));
  const result: DeadLetter[] = [];
  for (const schema of schemas) {
    const where: string[] = [];
    const values: unknown[] = [];
    if (!options.includeReplayed) where.push(`"replayed_at" IS NULL`);
    if (options.target && UUID.test(options.target)) {
      values.push(options.target);
      where.push(`("id" = $${values.length}::uuid OR "event_id" = $${values.length}::uuid)`);
    } else if (options.target) {
      values.push(options.target);
      where.push(`"consumer" = $${values.length}`);
    }
    const { rows } = await db.query<Omit<DeadLetter, 'schema'>>(
      `SELECT "id"::text AS "id", "event_id"::text AS "eventId", "consumer", "subject", "payload", "error", "attempts",
              "first_failed_at" AS "firstFailedAt", "last_failed_at" AS "lastFailedAt", "replayed_at" AS "replayedAt"
         FROM ${quoteIdent(schema)}.${quoteIdent(DEAD_LETTER_TABLE)}
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY "first_failed_at", "id"`,
      values,
    );
    result.push(...rows.map((row) => ({ schema, ...row })));
  }
  return result;
}

export interface ReplayOutcome {
  deadLetter: DeadLetter;
  replayed: boolean;
  reason?: string;
}

/**
 * Publishes the matching dead letters again (unreplayed ones of a consumer, or one by id even if replayed
 * before) and marks them replayed. The copy keeps the event id, so the consumer's inbox applies it at most
 * once; it gets a new message id, so the stream's duplicate window doesn't drop it. Should it fail again it
 * comes back here with `replayed_at` cleared.
 */
export async function replayDeadLetters(
  db: Queryable,
  /** The bus to publish on, or one per event subject (with NATS auth, only the producing service may publish it). */
  bus: EventBus | ((subject: string) => Promise<EventBus>),
  target: string,
  schemas?: string[],
): Promise<ReplayOutcome[]> {
  const busFor = typeof bus === 'function' ? bus : async () => bus;
  const byId = UUID.test(target);
  const letters = await listDeadLetters(db, { schemas, target, includeReplayed: byId });
  const outcomes: ReplayOutcome[] = [];
  for (const letter of letters) {
    if (!letter.eventId) {
      outcomes.push({ deadLetter: letter, replayed: false, reason: 'not an event envelope: nothing a consumer could apply' });
      continue;
    }
    const table = `${quoteIdent(letter.schema)}.${quoteIdent(DEAD_LETTER_TABLE)}`;
    // Marked first: a copy that fails again at once clears the mark, and must not find it set after that.
    await db.query(`UPDATE ${table} SET "replayed_at" = now() WHERE "id" = $1::uuid`, [letter.id]);
    const h = natsHeaders();
    h.set(REPLAY_HEADER, letter.id);
    try {
      const publisher = await busFor(letter.subject);
      await publisher.js.publish(publisher.subject(letter.subject), letter.payload, {
        msgID: `${letter.eventId}:replay:${randomUUID()}`,
        headers: h,
      });
    } catch (error) {
      await db.query(`UPDATE ${table} SET "replayed_at" = NULL WHERE "id" = $1::uuid`, [letter.id]);
      throw error;
    }
    outcomes.push({ deadLetter: letter, replayed: true });
  }
  return outcomes;
}
