import type { Tx } from '../db.ts';

export interface RecordUsedSessionOptions {
  tx: Tx;
  sessionId: string;
  plotId: string;
  usedAt: Date;
  ipAddress: string | null;
}

/** plots.plot.claimed: the session bought this plot. Records the used session and links the payment (idempotent). */
export async function recordUsedSession({ tx, sessionId, plotId, usedAt, ipAddress }: RecordUsedSessionOptions): Promise<void> {
  await tx.usedSession.createMany({ data: [{ sessionId, plotId, usedAt, ipAddress }], skipDuplicates: true });
  await tx.payment.updateMany({ where: { stripeSessionId: sessionId }, data: { plotId } });
}
