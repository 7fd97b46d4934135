import type { MetricFactory } from '@pixel-atlas/service-kit/metrics';

/** The payments service's own metrics (`app.serviceMetrics`). */
export function paymentsMetrics(m: MetricFactory) {
  return {
    checkoutSessionsCreated: m.counter({
      name: 'checkout_sessions_created_total',
      help: 'Checkout sessions created, by tier',
      labelNames: ['tier'],
    }),
    paymentsVerified: m.counter({
      name: 'payments_verified_total',
      help: 'Payments verified (first transition to paid), by tier',
      labelNames: ['tier'],
    }),
    checkoutsCancelled: m.counter({
      name: 'checkouts_cancelled_total',
      help: 'Unpaid checkouts ended early and their holds released: by the buyer (cancel), or superseded by a newer checkout from the same client',
      labelNames: ['reason'],
    }),
  };
}

export type PaymentsMetrics = ReturnType<typeof paymentsMetrics>;
