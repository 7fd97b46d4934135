import type { Tier } from '@pixel-atlas/contracts/tiers';
import { SCHEMA, type PrismaClient, type Tx } from '../db.ts';

export interface EntitlementInput {
  sessionId: string;
  tier: Tier;
  amountCents?: number | null;
  currency?: string | null;
  footprint: { x: number; y: number; size: number } | null;
  paidAt?: Date | null;
  /** The address given at checkout, for the receipt; kept only until the claim copies it to the plot. */
  buyerEmail?: string | null;
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
        buyerEmail: entitlement.buyerEmail ?? null,
      },
    ],
    skipDuplicates: true,
  });
  // The event and the answer to our query race: what the first left out (the receipt's facts, from an older replica),
  // the second fills in; the address only for a session not yet claimed (a claim took its copy and cleared this one).
  if (entitlement.buyerEmail || entitlement.amountCents != null) {
    await db.$executeRawUnsafe(
      `UPDATE "${SCHEMA}"."entitlements"
          SET "amount_cents" = coalesce("amount_cents", $3), "currency" = coalesce("currency", $4),
              "buyer_email" = CASE WHEN EXISTS (SELECT 1 FROM "${SCHEMA}"."plots" WHERE "stripe_session_id" = $1)
                                   THEN "buyer_email" ELSE coalesce("buyer_email", $2) END
        WHERE "session_id" = $1 AND ("buyer_email" IS NULL OR "amount_cents" IS NULL OR "currency" IS NULL)`,
      entitlement.sessionId,
      entitlement.buyerEmail ?? null,
      entitlement.amountCents ?? null,
      entitlement.currency ?? null,
    );
  }
}
