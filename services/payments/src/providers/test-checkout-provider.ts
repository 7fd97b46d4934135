import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../db.ts';
import type { TestCheckoutSession } from '../generated/prisma/client.ts';
import type { CheckoutProvider, CreateProviderSessionInput, ProviderSession } from './provider.ts';

/** Where the test checkout page lives (proxied by the gateway under /api/test-checkout). */
export const TEST_CHECKOUT_PATH = '/api/test-checkout';

/**
 * The built-in test checkout: sessions live in the payments schema and are "paid" by a button on our own
 * page. It takes no money and exists so the whole flow runs on a fresh machine; env validation refuses it
 * when NODE_ENV=production. It behaves like Stripe where fulfilment looks: status, payment_status,
 * amount_total, currency, metadata, expiry.
 */
export class TestCheckoutProvider implements CheckoutProvider {
  readonly name = 'test' as const;

  constructor(private readonly db: PrismaClient) {}

  async createSession(input: CreateProviderSessionInput): Promise<{ id: string; url: string }> {
    const id = `cs_test_pa_${randomBytes(18).toString('base64url')}`;
    // Same idempotency key, same session (like Stripe's Idempotency-Key).
    const row = await this.db.testCheckoutSession.upsert({
      where: { idempotencyKey: input.idempotencyKey },
      update: {},
      create: {
        id,
        idempotencyKey: input.idempotencyKey,
        tier: input.tier,
        amountTotal: input.amountCents,
        currency: input.currency,
        x: input.x,
        y: input.y,
        metadata: input.metadata,
        successUrl: input.successPath,
        cancelUrl: input.cancelPath,
        expiresAt: input.expiresAt,
      },
    });
    return { id: row.id, url: `${TEST_CHECKOUT_PATH}/${encodeURIComponent(row.id)}` };
  }

  async retrieveSession(id: string): Promise<ProviderSession | null> {
    const row = await this.get(id);
    if (!row) return null;
    return {
      id: row.id,
      status: row.status as ProviderSession['status'],
      paymentStatus: row.paymentStatus as ProviderSession['paymentStatus'],
      amountTotal: row.amountTotal,
      currency: row.currency,
      metadata: row.metadata as Record<string, string>,
      url: row.status === 'open' ? `${TEST_CHECKOUT_PATH}/${encodeURIComponent(row.id)}` : null,
      customerEmail: row.customerEmail,
    };
  }

  /** The session as it stands now (an open session past its expiry is expired first). */
  async get(id: string): Promise<TestCheckoutSession | null> {
    await this.db.testCheckoutSession.updateMany({
      where: { id, status: 'open', expiresAt: { lte: new Date() } },
      data: { status: 'expired' },
    });
    return this.db.testCheckoutSession.findUnique({ where: { id } });
  }

  /** Cancel, or a newer checkout from the same client: an open session expires at once (the same atomic step pay takes). */
  async expireSession(id: string): Promise<'expired' | 'complete' | null> {
    await this.db.testCheckoutSession.updateMany({ where: { id, status: 'open' }, data: { status: 'expired' } });
    const row = await this.db.testCheckoutSession.findUnique({ where: { id }, select: { status: true } });
    if (!row) return null;
    return row.status === 'complete' ? 'complete' : 'expired';
  }

  /**
   * The "Pay (test mode)" button: an open, unexpired session becomes complete and paid (once), with the address the
   * buyer typed for the receipt (like Stripe's customer_details.email).
   */
  async pay(id: string, customerEmail: string | null = null): Promise<TestCheckoutSession | null> {
    await this.db.testCheckoutSession.updateMany({
      where: { id, status: 'open', expiresAt: { gt: new Date() } },
      data: { status: 'complete', paymentStatus: 'paid', completedAt: new Date(), customerEmail },
    });
    return this.get(id);
  }
}
