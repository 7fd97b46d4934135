import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { positionAvailableQuerySchema, positionAvailableResponseSchema } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkPositionAvailable } from '../domain/check-position-available.ts';
import type { PrismaClient } from '../db.ts';
import type { LandSource } from '../domain/footprints.ts';

export async function positionRoutes(app: FastifyInstance, opts: { db: PrismaClient; land?: LandSource }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/position-available',
    {
      schema: {
        summary: 'Whether a plot of the tier (default basic) could be bought at (x, y): false with a reason otherwise',
        operationId: 'checkPositionAvailable',
        tags: ['plots'],
        querystring: positionAvailableQuerySchema,
        response: { 200: positionAvailableResponseSchema, 400: errorBodySchema, 502: errorBodySchema, 504: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return checkPositionAvailable({ db: opts.db, bus: app.bus, land: opts.land, ...request.query });
    },
  );
}
