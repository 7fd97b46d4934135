import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

/** Makes metrics on one registry, so nobody lists `registers` (or forgets to and lands on prom-client's global one). */
export interface MetricFactory {
  counter<L extends string = string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L>;
  gauge<L extends string = string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L>;
  histogram<L extends string = string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L>;
}

/**
 * The one way to make metrics: `define` builds them on `registry` (the app's `app.metrics`, served on /metrics)
 * and its result, typed, is what callers increment. Metrics are made once per registry: a name made twice throws.
 */
export function defineMetrics<M>(registry: Registry, define: (m: MetricFactory) => M): M {
  const registers = [registry];
  return define({
    counter: (config) => new Counter({ ...config, registers }),
    gauge: (config) => new Gauge({ ...config, registers }),
    histogram: (config) => new Histogram({ ...config, registers }),
  });
}

/**
 * One registry per app (not prom-client's global one) so several apps can live in one test process.
 * Requests are labelled by route template, never the raw URL, to keep label cardinality bounded.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { service: string; exposeOnMainPort?: boolean }) => {
    const registry = new Registry();
    registry.setDefaultLabels({ service: opts.service });
    collectDefaultMetrics({ register: registry });
    const { duration, requests, errors } = defineMetrics(registry, (m) => ({
      duration: m.histogram({
        name: 'http_request_duration_seconds',
        help: 'HTTP request duration by route template',
        labelNames: ['method', 'route', 'status_code'],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      }),
      requests: m.counter({
        name: 'http_requests_total',
        help: 'HTTP requests by route template and status',
        labelNames: ['method', 'route', 'status_code'],
      }),
      errors: m.counter({
        name: 'http_request_errors_total',
        help: 'HTTP responses with status >= 500',
        labelNames: ['method', 'route'],
      }),
    }));
    app.decorate('metrics', registry);
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      if (route === '/metrics') return;
      const labels = { method: request.method, route, status_code: String(reply.statusCode) };
      duration.observe(labels, reply.elapsedTime / 1000);
      requests.inc(labels);
      if (reply.statusCode >= 500) errors.inc({ method: request.method, route });
    });
    // On a port facing the internet /metrics is an explicit 404 (not the SPA's fallback page); Prometheus
    // scrapes the operations port (server.ts) instead.
    const expose = opts.exposeOnMainPort ?? true;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!expose)
        return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route for GET ${request.url.split('?')[0]}` } });
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'pixel-atlas-metrics' },
);
