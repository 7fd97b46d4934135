import type { FastifyInstance } from 'fastify';
import type { OpenApiDocument } from './openapi.ts';
import { createServiceApp } from './service.ts';

/**
 * A service's OpenAPI document from its route schemas alone: the kit's app, with the same OpenAPI settings as a
 * running service, and only the routes registered by `registerRoutes`. Nothing connects to a database or NATS, and
 * no handler runs, so the routes' runtime dependencies may be `usedOnlyByHandlers` stand-ins.
 */
export async function describeRoutes(service: string, registerRoutes: (app: FastifyInstance) => Promise<void>): Promise<OpenApiDocument> {
  const app = await createServiceApp({
    name: service,
    internalToken: 'describing routes only',
    trustRequestIdFrom: 'nobody',
    logLevel: 'silent',
  });
  try {
    await registerRoutes(app);
    await app.ready();
    return app.swagger() as unknown as OpenApiDocument;
  } finally {
    await app.close();
  }
}

/** Stands in for a route dependency that only request handlers touch, while `describeRoutes` runs none: any use throws. */
export function usedOnlyByHandlers<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      throw new Error(`${name}.${String(property)} was used while only describing routes`);
    },
  });
}
