import { isTier } from '@pixel-atlas/contracts/tiers';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from '../db.ts';
import { emailOwnerLink, type OwnerLinkReceipt } from './email-owner-link.ts';

export interface SendClaimReceiptOptions {
  db: PrismaClient;
  bus: EventBus;
  log: FastifyBaseLogger;
  plot: { id: string; display_name: string; x: number; y: number };
  sessionId: string;
  email: string;
  token: string;
  retryDelayMs?: number;
}

/**
 * After a claim committed: the buyer's receipt (what was paid, for which plot, and the owner link) goes to the address
 * left at checkout or on the claim. The payment's facts are our copy of the entitlement; the entitlement's copy of the
 * address is dropped now that the plot keeps it (personal data, kept once). Without the payment's facts (an
 * entitlement from before they were recorded) the e-mail is the bare owner link.
 */
export async function sendClaimReceipt(options: SendClaimReceiptOptions): Promise<'sent' | 'not-configured' | 'failed'> {
  const { db, sessionId } = options;
  let receipt: OwnerLinkReceipt | undefined;
  try {
    const paid = await db.entitlement.findUnique({
      where: { sessionId },
      select: { tier: true, amountCents: true, currency: true, paidAt: true },
    });
    if (paid && isTier(paid.tier) && paid.amountCents !== null && paid.currency) {
      receipt = {
        tier: paid.tier,
        amountCents: paid.amountCents,
        currency: paid.currency,
        paidAt: (paid.paidAt ?? new Date()).toISOString(),
      };
    }
    await db.entitlement.updateMany({ where: { sessionId, buyerEmail: { not: null } }, data: { buyerEmail: null } });
  } catch (error) {
    options.log.warn({ err: error, plotId: options.plot.id }, 'the payment for the receipt could not be read: owner link only');
  }
  return emailOwnerLink({ ...options, receipt });
}
