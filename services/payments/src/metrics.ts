import { Counter, type Registry } from 'prom-client';

export interface PaymentsMetrics {
  checkoutSessionsCreated: Counter<'tier'>;
  paymentsVerified: Counter<'tier'>;
  checkoutsCancelled: Counter<'reason'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    paymentsMetrics: PaymentsMetrics;
  }
}

export function createPaymentsMetrics(registry: Registry): PaymentsMetrics {
  return {
    checkoutSessionsCreated: new Counter({
      name: 'checkout_sessions_created_total',
      help: 'Checkout sessions created, by tier',
      labelNames: ['tier'],
      registers: [registry],
    }),
    paymentsVerified: new Counter({
      name: 'payments_verified_total',
      help: 'Payments verified (first transition to paid), by tier',
      labelNames: ['tier'],
      registers: [registry],
    }),
    checkoutsCancelled: new Counter({
      name: 'checkouts_cancelled_total',
      help: 'Unpaid checkouts ended early and their holds released: by the buyer (cancel), or superseded by a newer checkout from the same client',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}
