import type { PrismaClient, Tx } from '../db.ts';

/** releaseHoldCommand: payments could not start the checkout; the spot is free again. */
export async function releaseHold({ db, holdId }: { db: PrismaClient | Tx; holdId: string }): Promise<{ released: boolean }> {
  const { count } = await db.footprint.deleteMany({ where: { kind: 'hold', holdId } });
  return { released: count > 0 };
}

/** payments.checkout.expired: the session ended unpaid, so its hold goes. */
export async function releaseSessionHold({ tx, sessionId }: { tx: Tx; sessionId: string }): Promise<void> {
  await tx.footprint.deleteMany({ where: { kind: 'hold', sessionId } });
}
