import Stripe from 'stripe';
import type { CheckoutProvider, CreateProviderSessionInput, ProviderSession } from './provider.ts';

export interface StripeSettings {
  secretKey: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

export function createStripeClient(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    host: settings.host,
    port: settings.port,
    protocol: settings.protocol,
    telemetry: false,
    // We retry ourselves where it is safe (idempotency keys); a hung provider must not hang a request for long.
    maxNetworkRetries: 0,
    timeout: 20_000,
  });
}

/** Real Stripe Checkout (hosted page), through the official SDK. */
export class StripeCheckoutProvider implements CheckoutProvider {
  readonly name = 'stripe' as const;

  /** publicOrigin: where Stripe's hosted page sends the buyer back (the gateway's public address). */
  constructor(
    readonly stripe: Stripe,
    private readonly publicOrigin: string,
  ) {}

  async createSession(input: CreateProviderSessionInput): Promise<{ id: string; url: string }> {
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: input.amountCents,
              product_data: {
                name: input.productName,
                description: `${input.size}×${input.size} plot at (${input.x}, ${input.y})`,
              },
            },
          },
        ],
        success_url: `${this.publicOrigin}${input.successPath}`,
        cancel_url: `${this.publicOrigin}${input.cancelPath}`,
        metadata: input.metadata,
        payment_intent_data: { metadata: input.metadata },
        expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      },
      { idempotencyKey: input.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { id: session.id, url: session.url };
  }

  async expireSession(id: string): Promise<'expired' | 'complete' | null> {
    try {
      await this.stripe.checkout.sessions.expire(id);
      return 'expired';
    } catch (error) {
      // Stripe refuses to expire a session that is not open: already expired, or complete (paid first).
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      const session = await this.retrieveSession(id);
      if (!session) return null;
      if (session.status === 'open') throw error;
      return session.status;
    }
  }

  async retrieveSession(id: string): Promise<ProviderSession | null> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(id);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.code === 'resource_missing' || error.statusCode === 404))
        return null;
      throw error;
    }
    return {
      id: session.id,
      status: (session.status ?? 'open') as ProviderSession['status'],
      paymentStatus: session.payment_status as ProviderSession['paymentStatus'],
      amountTotal: session.amount_total ?? null,
      currency: session.currency ?? null,
      metadata: session.metadata ?? {},
      url: session.status === 'open' ? (session.url ?? null) : null,
      // Checkout always asks for an address in payment mode; customer_email is what we passed in, if anything.
      customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
    };
  }
}
