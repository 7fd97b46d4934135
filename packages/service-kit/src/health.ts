// `schema.hide` (probes stay out of the API document) is declared by @fastify/swagger.
import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type ReadinessCheck = () => Promise<void>;

export interface Readiness {
  ready: boolean;
  status: 'ready' | 'not-ready' | 'shutting-down';
  /** Per check: 'ok' or the failure's message (which may name hosts and ports: internal only). */
  checks: Record<string, string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Registers a dependency `/readyz` must see working (database, NATS, ...). `describe` adds what the operator needs
     * to tell a dependency that is away from one that is saturated (say, a pool's queue) to a check that timed out.
     */
    addReadinessCheck(name: string, check: ReadinessCheck, describe?: () => string): void;
    /** Runs every readiness check now. */
    readiness(): Promise<Readiness>;
  }
}

const CHECK_TIMEOUT_MS = 2000;

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/**
 * `/healthz`: the process is alive. `/readyz`: it can serve (dependencies answer, not shutting down).
 * With `detailed: false` (a port facing the internet) `/readyz` says only ready or not: a failing check's
 * message names internal hosts and ports, so the details stay on the operations port (server.ts).
 */
export const healthPlugin = fp(
  async (app: FastifyInstance, opts: { detailed?: boolean }) => {
    const detailed = opts.detailed ?? true;
    const checks = new Map<string, { check: ReadinessCheck; describe?: () => string }>();
    let closing = false;
    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck, describe?: () => string) => {
      checks.set(name, { check, describe });
    });
    app.decorate('readiness', async (): Promise<Readiness> => {
      if (closing) return { ready: false, status: 'shutting-down', checks: {} };
      const results: Record<string, string> = {};
      let ready = true;
      await Promise.all(
        [...checks].map(async ([name, { check, describe }]) => {
          try {
            await withTimeout(check(), CHECK_TIMEOUT_MS);
            results[name] = 'ok';
          } catch (error) {
            ready = false;
            const message = error instanceof Error ? error.message : 'failed';
            results[name] = describe ? `${message} (${describe()})` : message;
          }
        }),
      );
      return { ready, status: ready ? 'ready' : 'not-ready', checks: results };
    });
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      const { ready, status, checks: results } = await app.readiness();
      if (status === 'shutting-down') return reply.status(503).send({ status });
      return reply.status(ready ? 200 : 503).send(detailed ? { status, checks: results } : { status });
    });
  },
  { name: 'pixel-atlas-health' },
);
