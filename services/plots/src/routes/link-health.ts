import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { adminLinkHealthListSchema, adminLinkHealthQuerySchema } from '@pixel-atlas/contracts/link-health';
import { requireAdmin } from '@pixel-atlas/service-kit/internal-auth';
import { ADMIN_SESSION_SECURITY } from '@pixel-atlas/service-kit/openapi';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listLinkHealth } from '../domain/list-link-health.ts';
import type { PrismaClient } from '../db.ts';

export async function linkHealthRoutes(app: FastifyInstance, opts: { db: PrismaClient }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/link-health',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Plot links as the background checker last saw them, worst first (unreachable, failing, ...)',
        operationId: 'listLinkHealth',
        tags: ['admin', 'plots'],
        security: ADMIN_SESSION_SECURITY,
        querystring: adminLinkHealthQuerySchema,
        response: { 200: adminLinkHealthListSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => ({ links: await listLinkHealth({ db: opts.db, ...request.query }) }),
  );
}
