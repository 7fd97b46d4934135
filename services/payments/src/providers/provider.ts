import type { Tier } from '@pixel-atlas/contracts/tiers';

/** What we ask a payment provider for: one Checkout Session for one plot. */
export interface CreateProviderSessionInput {
  tier: Tier;
  size: number;
  x: number;
  y: number;
  amountCents: number;
  currency: string;
  /** Sent as the provider's idempotency key (the hold id): a retried create returns the same session. */
  idempotencyKey: string;
  expiresAt: Date;
  /** Site path the buyer returns to after paying; contains the literal `{CHECKOUT_SESSION_ID}`, which the provider replaces. */
  successPath: string;
  /** Site path the buyer returns to when they give up. */
  cancelPath: string;
  productName: string;
  metadata: Record<string, string>;
}

/** The provider's view of a session, reduced to what fulfilment checks. */
export interface ProviderSession {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  amountTotal: number | null;
  currency: string | null;
  metadata: Record<string, string>;
  /** Where the buyer can still finish paying: set only while the session is open (absent: not known). */
  url?: string | null;
  /** The address the buyer gave on the checkout page (Stripe: `customer_details.email`), once they gave it. */
  customerEmail: string | null;
}

export interface CheckoutProvider {
  readonly name: 'stripe' | 'test';
  createSession(input: CreateProviderSessionInput): Promise<{ id: string; url: string }>;
  /** null when the provider has never heard of the id. */
  retrieveSession(id: string): Promise<ProviderSession | null>;
  /**
   * Ends an open session so it can no longer be paid. 'expired': it is expired now (or already was), so no
   * money can arrive for it; 'complete': the buyer finished paying first (keep everything); null: unknown id.
   */
  expireSession(id: string): Promise<'expired' | 'complete' | null>;
}
