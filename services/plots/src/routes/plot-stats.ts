import { clientKey, ipv6PrefixFromEnv } from '@pixel-atlas/service-kit/client-key';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import {
  PLOT_VIEWS_MAX_BODY_BYTES,
  plotViewsRequestSchema,
  plotViewsResponseSchema,
  statBeaconRequestSchema,
  topPlotsQuerySchema,
  topPlotsResponseSchema,
  type StatKind,
} from '@pixel-atlas/contracts/stats';
import { requireAdmin } from '@pixel-atlas/service-kit/internal-auth';
import { ADMIN_SESSION_SECURITY } from '@pixel-atlas/service-kit/openapi';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listTopPlots } from '../domain/list-top-plots.ts';
import { recordPlotStat, recordPlotStats, type RecordStatOutcome } from '../domain/record-plot-stat.ts';
import type { PrismaClient } from '../db.ts';
import { ownedPlots, ownedPlotsIn } from '../owner-cookie.ts';

/** A beacon is a few dozen bytes of JSON. */
const BEACON_BODY_LIMIT = 1024;

export interface PlotStatsRoutesOptions {
  /** The service's own client (the app's `db`). */
  db: PrismaClient;
  /** Beacons per client address per window: every one is a database write. */
  rateLimit: { max: number; timeWindow: number };
  /**
   * Keys the hash that stands for a visitor (see `visitorHash`): shared by every replica, so a repeat counts once
   * whichever replica hears it.
   */
  visitorSecret: string;
  /** Every beacon answered, with what became of it. */
  onRecorded: (beacon: { kind: StatKind; outcome: RecordStatOutcome | 'owner' }) => void;
  /** Every entry of the gateway's batches of views, with what became of it. */
  onViewRecorded?: (view: { kind: StatKind; outcome: RecordStatOutcome | 'owner' }) => void;
}

export async function plotStatsRoutes(app: FastifyInstance, opts: PlotStatsRoutesOptions) {
  // navigator.sendBeacon sends a string as text/plain (a simple request, no preflight): read it as JSON here.
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: BEACON_BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new AppError('BAD_REQUEST', 'The body must be JSON'), undefined);
    }
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const ipv6Prefix = ipv6PrefixFromEnv();

  routes.post(
    '/api/plot-stats',
    {
      bodyLimit: BEACON_BODY_LIMIT,
      config: { rateLimit: opts.rateLimit },
      schema: {
        summary: 'Count one view, profile open or outbound click of a plot (counts only; obvious bots are not counted)',
        operationId: 'recordPlotStat',
        tags: ['stats'],
        body: statBeaconRequestSchema,
        response: {
          204: z.null().describe("Counted, or ignored (a bot, an unknown plot, the plot's owner)"),
          400: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      // The owner's own visits are not their plot's audience (the owner cookie, set where they proved ownership).
      if (ownedPlots(request).includes(request.body.plotId.toLowerCase())) {
        opts.onRecorded({ kind: request.body.kind, outcome: 'owner' });
        return reply.status(204).send(null);
      }
      const outcome = await recordPlotStat({
        db: opts.db,
        plotId: request.body.plotId,
        kind: request.body.kind,
        userAgent: request.headers['user-agent'],
        // No cookie is set for this: a visitor is its client (an IPv4 address, an IPv6 /64) with its user agent. People
        // behind one address with the same browser count as one, which errs on the side of fewer.
        visitor: `${clientKey(request.clientIp || request.ip, ipv6Prefix)}\n${request.headers['user-agent'] ?? ''}`,
        secret: opts.visitorSecret,
      });
      opts.onRecorded({ kind: request.body.kind, outcome });
      return reply.status(204).send(null);
    },
  );

  routes.post(
    '/internal/plot-views',
    {
      bodyLimit: PLOT_VIEWS_MAX_BODY_BYTES,
      // Before the body is read: only the gateway (with the internal token) may have up to 1 MB parsed here.
      onRequest: async (request) => {
        if (!request.fromGateway) throw new AppError('FORBIDDEN', 'Only the gateway reports views');
      },
      schema: {
        // Not part of the public API (the gateway never proxies /internal/*): left out of the document.
        hide: true,
        summary: "The gateway's batch of views of the plot pages and badges it served, each counted as a beacon is",
        operationId: 'recordPlotViews',
        body: plotViewsRequestSchema,
        response: { 200: plotViewsResponseSchema, 400: errorBodySchema, 403: errorBodySchema, 413: errorBodySchema },
      },
    },
    async (request) => {
      const { views } = request.body;
      // As for a beacon: the owner's own views are not their plot's audience (the owner cookie the browser sent).
      const byOwner = views.map((view) => ownedPlotsIn(request, view.ownerCookie).includes(view.plotId.toLowerCase()));
      const counted = views.filter((_, i) => !byOwner[i]);
      const outcomes = await recordPlotStats({
        db: opts.db,
        entries: counted.map(({ plotId, kind, visitor, userAgent }) => ({ plotId, kind, visitor, userAgent })),
        secret: opts.visitorSecret,
      });
      let next = 0;
      for (const [i, view] of views.entries()) {
        opts.onViewRecorded?.({ kind: view.kind, outcome: byOwner[i] ? 'owner' : outcomes[next++]! });
      }
      return { counted: outcomes.filter((outcome) => outcome === 'counted').length };
    },
  );

  routes.get(
    '/api/admin/top-plots',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'The most viewed plots over the last days (views, profile opens, outbound clicks)',
        operationId: 'listTopPlots',
        tags: ['admin', 'stats'],
        security: ADMIN_SESSION_SECURITY,
        querystring: topPlotsQuerySchema,
        response: { 200: topPlotsResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => listTopPlots({ db: opts.db, days: request.query.days, limit: request.query.limit }),
  );
}
