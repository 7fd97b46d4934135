import { contactRequestSchema, contactResponseSchema } from '@pixel-atlas/contracts/contact';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { submitContactMessage } from '../domain/submit-contact-message.ts';
import type { PrismaClient } from '../db.ts';

export async function contactRoutes(app: FastifyInstance, opts: { db: PrismaClient; rateLimit: { max: number; timeWindow: number } }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/contact',
    {
      config: { rateLimit: opts.rateLimit },
      schema: {
        summary: 'Send a message to the team',
        operationId: 'sendContactMessage',
        tags: ['contact'],
        body: contactRequestSchema,
        response: { 201: contactResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const result = await submitContactMessage({ db: opts.db, message: request.body, clientIp: request.clientIp, requestId: request.id });
      app.outbox.kick();
      return reply.status(201).send(result);
    },
  );
}
