import type { FastifyInstance } from 'fastify';
import type { Counter, Gauge, Histogram } from 'prom-client';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { defineMetrics } from './metrics.ts';
import { createServiceApp } from './service.ts';

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serviceApp(): Promise<FastifyInstance> {
  app = await createServiceApp({
    name: 'counting',
    internalToken: 'metrics-test-internal-token-0123456789',
    logLevel: 'silent',
    trustRequestIdFrom: 'nobody',
  });
  return app;
}

describe('defineMetrics', () => {
  it('makes a typed set on the app registry, served on /metrics with the service label', async () => {
    const counting = await serviceApp();
    let queued = 0;
    const metrics = defineMetrics(counting.metrics, (m) => ({
      claims: m.counter({ name: 'test_claims_total', help: 'Claims, by tier', labelNames: ['tier'] }),
      pings: m.counter({ name: 'test_pings_total', help: 'Pings' }),
      queue: m.gauge({
        name: 'test_queue_length',
        help: 'Items waiting, read when scraped',
        collect() {
          this.set(queued);
        },
      }),
      latency: m.histogram({ name: 'test_latency_seconds', help: 'Latency', labelNames: ['step'], buckets: [0.1, 1] }),
    }));
    expectTypeOf(metrics.claims).toEqualTypeOf<Counter<'tier'>>();
    expectTypeOf(metrics.pings).toEqualTypeOf<Counter>();
    expectTypeOf(metrics.queue).toEqualTypeOf<Gauge>();
    expectTypeOf(metrics.latency).toEqualTypeOf<Histogram<'step'>>();

    metrics.claims.inc({ tier: 'gold' });
    metrics.pings.inc(2);
    metrics.latency.observe({ step: 'decode' }, 0.5);
    queued = 3;

    const scraped = await counting.inject('/metrics');
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('# HELP test_claims_total Claims, by tier');
    expect(scraped.body).toContain('test_claims_total{tier="gold",service="counting"} 1');
    expect(scraped.body).toContain('test_pings_total{service="counting"} 2');
    expect(scraped.body).toContain('test_queue_length{service="counting"} 3');
    expect(scraped.body).toContain('test_latency_seconds_bucket{le="1",service="counting",step="decode"} 1');
    // Beside the kit's own metrics, on the same registry.
    expect(scraped.body).toContain('http_requests_total');
  });

  it('refuses a metric name the registry already has (a set is made once per app)', async () => {
    const counting = await serviceApp();
    const define = () => defineMetrics(counting.metrics, (m) => ({ once: m.counter({ name: 'test_once_total', help: 'Made once' }) }));
    define();
    expect(define).toThrow(/already been registered/);
    expect(() => defineMetrics(counting.metrics, (m) => m.counter({ name: 'http_requests_total', help: 'A kit metric' }))).toThrow(
      /already been registered/,
    );
  });
});
