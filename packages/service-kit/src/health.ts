import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type ReadinessCheck = () => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Registers a dependency `/readyz` must see working (database, NATS, ...). */
    addReadinessCheck(name: string, check: ReadinessCheck): void;
  }
}

const CHECK_TIMEOUT_MS = 2000;

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** `/healthz`: the process is alive. `/readyz`: it can serve (dependencies answer, not shutting down). */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    const checks = new Map<string, ReadinessCheck>();
    let closing = false;
    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
      checks.set(name, check);
    });
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      if (closing) return reply.status(503).send({ status: 'shutting-down' });
      const results: Record<string, string> = {};
      let ready = true;
      await Promise.all(
        [...checks].map(async ([name, check]) => {
          try {
            await withTimeout(check(), CHECK_TIMEOUT_MS);
            results[name] = 'ok';
          } catch (error) {
            ready = false;
            results[name] = error instanceof Error ? error.message : 'failed';
          }
        }),
      );
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not-ready', checks: results });
    });
  },
  { name: 'pixel-atlas-health' },
);
