import { SCHEMA, TABLE, type PrismaClient, type Tx } from '../db.ts';

/**
 * A hold whose session we know as paid (an entitlement) is never released here, whatever asks: it goes only
 * when its plot is claimed, or when it expires.
 */
export const UNPAID_HOLD_SQL = `NOT EXISTS (SELECT 1 FROM "${SCHEMA}"."entitlements" e WHERE e."session_id" = f."session_id")`;

/** releaseHoldCommand: payments could not start the checkout, or the buyer cancelled; the spot is free again. */
export async function releaseHold({ db, holdId }: { db: PrismaClient | Tx; holdId: string }): Promise<{ released: boolean }> {
  const count = await db.$executeRawUnsafe(
    `DELETE FROM ${TABLE.footprints} f WHERE f."kind" = 'hold' AND f."hold_id" = $1 AND ${UNPAID_HOLD_SQL}`,
    holdId,
  );
  return { released: count > 0 };
}

/** payments.checkout.expired: the session ended unpaid (expired or cancelled), so its hold goes. */
export async function releaseSessionHold({ tx, sessionId }: { tx: Tx; sessionId: string }): Promise<void> {
  await tx.$executeRawUnsafe(
    `DELETE FROM ${TABLE.footprints} f WHERE f."kind" = 'hold' AND f."session_id" = $1 AND ${UNPAID_HOLD_SQL}`,
    sessionId,
  );
}
