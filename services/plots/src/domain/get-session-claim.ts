import type { SessionClaim } from '@pixel-atlas/contracts/plots';
import type { PrismaClient } from '../db.ts';

/**
 * The plot a checkout session bought, read where the claim is written (`plots.stripe_session_id` is unique), so it is
 * true from the moment the claim commits. A removed plot still used its session, but there is no plot to show.
 */
export async function getSessionClaim({ db, sessionId }: { db: PrismaClient; sessionId: string }): Promise<SessionClaim> {
  const plot = await db.plot.findUnique({
    where: { stripeSessionId: sessionId },
    select: { id: true, displayName: true, removedAt: true },
  });
  if (!plot) return { sessionId, claimed: false, plotId: null, display_name: null };
  const shown = plot.removedAt === null;
  return { sessionId, claimed: true, plotId: shown ? plot.id : null, display_name: shown ? plot.displayName : null };
}
