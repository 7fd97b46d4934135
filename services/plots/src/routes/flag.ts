import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { flagPlotRequestSchema, flagPlotResponseSchema } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  VISITOR_COOKIE,
  VISITOR_COOKIE_MAX_AGE_SECONDS,
  flagPlot,
  isVisitorCookie,
  newVisitorCookie,
  visitorFor,
} from '../domain/flag-plot.ts';
import type { PrismaClient } from '../db.ts';

export interface FlagRoutesOptions {
  /** The service's own client (the app's `db`). */
  db: PrismaClient;
  rateLimit: { max: number; timeWindow: number };
  /** Served over https: the visitor cookie is Secure. */
  secureCookie: boolean;
  /** After a new flag was written: drop the list cache (the plot is now flagged), count it. */
  onFlagged: (created: boolean) => void;
}

export async function flagRoutes(app: FastifyInstance, opts: FlagRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/flag-plot',
    {
      config: { rateLimit: opts.rateLimit },
      schema: {
        summary: 'Flag a plot for review: once per visitor per plot (visitor cookie, else client address); the plot stays visible',
        operationId: 'flagPlot',
        tags: ['plots'],
        body: flagPlotRequestSchema,
        response: { 200: flagPlotResponseSchema, 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      // Only a cookie we signed names a visitor: forged or unsigned values (a script minting a new one per
      // request) fall back to the client address, so they all count as one visitor.
      const presented = request.cookies[VISITOR_COOKIE];
      const unsigned = presented ? request.unsignCookie(presented) : null;
      const cookieValue = unsigned?.valid && isVisitorCookie(unsigned.value ?? undefined) ? unsigned.value : null;
      let issuedCookie: string | null = null;
      if (!cookieValue) {
        issuedCookie = newVisitorCookie();
        reply.setCookie(VISITOR_COOKIE, issuedCookie, {
          httpOnly: true,
          sameSite: 'lax',
          path: '/',
          secure: opts.secureCookie,
          maxAge: VISITOR_COOKIE_MAX_AGE_SECONDS,
          signed: true,
        });
      }
      const { plotId, reason } = request.body;
      const result = await flagPlot({
        db: opts.db,
        plotId,
        reason: reason?.trim() ? reason.trim() : null,
        visitor: visitorFor({ cookie: cookieValue, issuedCookie, clientIp: request.clientIp }),
        byCookie: cookieValue !== null,
        requestId: request.id,
      });
      if (result.created) app.outbox.kick();
      opts.onFlagged(result.created);
      request.log.info(
        { plotId, created: result.created, flagCount: result.flagCount },
        result.created ? 'plot flagged' : 'plot already flagged by this visitor',
      );
      reply.header('cache-control', 'no-store');
      return { flagged: true as const, plotId };
    },
  );
}
