import type { PrismaClient } from '../db.ts';

/** attachHoldCommand: the hold now belongs to the checkout session (claims by that session may use it). */
export async function attachHold({
  db,
  holdId,
  sessionId,
}: {
  db: PrismaClient;
  holdId: string;
  sessionId: string;
}): Promise<{ attached: boolean }> {
  const { count } = await db.footprint.updateMany({ where: { kind: 'hold', holdId }, data: { sessionId } });
  return { attached: count > 0 };
}
