import type { Tier } from '@pixel-atlas/contracts/tiers';
import type { PrismaClient, Tx } from '../db.ts';

export interface EntitlementInput {
  sessionId: string;
  tier: Tier;
  amountCents?: number | null;
  currency?: string | null;
  footprint: { x: number; y: number; size: number } | null;
  paidAt?: Date | null;
}

/** payments.payment.verified (or payments' answer to our query): this session paid for a plot of this tier. */
export async function recordEntitlement({ db, entitlement }: { db: PrismaClient | Tx; entitlement: EntitlementInput }): Promise<void> {
  await db.entitlement.createMany({
    data: [
      {
        sessionId: entitlement.sessionId,
        tier: entitlement.tier,
        amountCents: entitlement.amountCents ?? null,
        currency: entitlement.currency ?? null,
        footprintX: entitlement.footprint?.x ?? null,
        footprintY: entitlement.footprint?.y ?? null,
        footprintSize: entitlement.footprint?.size ?? null,
        paidAt: entitlement.paidAt ?? new Date(),
      },
    ],
    skipDuplicates: true,
  });
}
