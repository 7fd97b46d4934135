import { backoffDelay } from '@pixel-atlas/service-kit/backoff';
import type { FastifyBaseLogger } from 'fastify';
import { SCHEMA, type PrismaClient } from '../db.ts';

const TABLE = `"${SCHEMA}"."notifications"`;

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
}

/** Sends one e-mail or throws; null when no SMTP server is configured. */
export type Mailer = { send(email: OutgoingEmail): Promise<void> } | null;

export type DeliveryOutcome = 'sent' | 'logged' | 'retry' | 'failed';

export interface DeliverNotificationsOptions {
  db: PrismaClient;
  mailer: Mailer;
  log: FastifyBaseLogger;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  batchSize?: number;
  /** How long a claimed row stays invisible to other replicas while it is being sent. */
  leaseMs?: number;
  onOutcome?: (outcome: DeliveryOutcome) => void;
}

interface DueRow {
  id: string;
  plot_id: string;
  email: string;
  kind: string;
  subject: string;
  body: string;
  attempts: number;
}

/**
 * Delivers the notifications that are due, after the decisions that wrote them committed. Rows are
 * claimed with a lease (FOR UPDATE SKIP LOCKED, then next_attempt_at pushed ahead) so replicas never
 * send the same row at once and no transaction stays open while talking to the SMTP server; a
 * process that dies mid-send leaves the row due again when the lease ends (at-least-once).
 * Without a mailer the notification is recorded as 'logged' and written to the log, never dropped.
 * Returns how many rows were handled.
 */
export async function deliverDueNotifications(options: DeliverNotificationsOptions): Promise<number> {
  const { db, mailer, log, maxAttempts, retryBaseMs, retryMaxMs, batchSize = 10, leaseMs = 120_000, onOutcome } = options;
  const rows = await db.$queryRawUnsafe<DueRow[]>(
    `UPDATE ${TABLE} SET "attempts" = "attempts" + 1, "next_attempt_at" = now() + ($2 * interval '1 millisecond')
      WHERE "id" IN (
        SELECT "id" FROM ${TABLE} WHERE "status" = 'pending' AND "next_attempt_at" <= now()
        ORDER BY "next_attempt_at", "id" LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING "id"::text, "plot_id"::text, "email", "kind", "subject", "body", "attempts"`,
    batchSize,
    leaseMs,
  );
  for (const row of rows) {
    const context = { notificationId: row.id, plotId: row.plot_id, kind: row.kind, attempt: row.attempts };
    if (!mailer) {
      await db.notification.update({ where: { id: row.id }, data: { status: 'logged', lastError: null } });
      log.info(
        { ...context, to: row.email, subject: row.subject, text: row.body },
        'owner notification recorded (SMTP_URL not set, so not e-mailed)',
      );
      onOutcome?.('logged');
      continue;
    }
    try {
      await mailer.send({ to: row.email, subject: row.subject, text: row.body });
      await db.notification.update({ where: { id: row.id }, data: { status: 'sent', sentAt: new Date(), lastError: null } });
      log.info(context, 'owner notification e-mailed');
      onOutcome?.('sent');
    } catch (error) {
      const lastError = String((error as Error).message ?? error).slice(0, 500);
      if (row.attempts >= maxAttempts) {
        await db.notification.update({ where: { id: row.id }, data: { status: 'failed', lastError } });
        log.error({ ...context, err: error, to: row.email, subject: row.subject }, 'owner notification could not be e-mailed; giving up');
        onOutcome?.('failed');
      } else {
        const delay = backoffDelay(row.attempts, { baseMs: retryBaseMs, maxMs: retryMaxMs });
        await db.notification.update({ where: { id: row.id }, data: { lastError, nextAttemptAt: new Date(Date.now() + delay) } });
        log.warn({ ...context, err: error, retryInMs: delay }, 'owner notification not sent yet; will retry');
        onOutcome?.('retry');
      }
    }
  }
  return rows.length;
}
