import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { sessionClaimResponseSchema } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PrismaClient } from '../db.ts';
import { getSessionClaim } from '../domain/get-session-claim.ts';

export async function claimStateRoutes(app: FastifyInstance, opts: { db: PrismaClient }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/claim-plot/:sessionId',
    {
      schema: {
        summary: 'Whether a checkout session already claimed a plot, and which',
        operationId: 'getSessionClaim',
        tags: ['plots'],
        params: z.object({ sessionId: z.string().min(1).max(255) }),
        response: { 200: sessionClaimResponseSchema, 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      // A claim can happen at any moment (another browser): never cached.
      reply.header('cache-control', 'no-store');
      return getSessionClaim({ db: opts.db, sessionId: request.params.sessionId });
    },
  );
}
