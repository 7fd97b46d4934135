import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
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
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route template',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route template and status',
      labelNames: ['method', 'route', 'status_code'],
      registers: [registry],
    });
    const errors = new Counter({
      name: 'http_request_errors_total',
      help: 'HTTP responses with status >= 500',
      labelNames: ['method', 'route'],
      registers: [registry],
    });
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
      if (!expose) return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route for GET ${request.url.split('?')[0]}` } });
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'pixel-atlas-metrics' },
);
