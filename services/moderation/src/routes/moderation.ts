import {
  flaggedPlotListSchema,
  moderationAuditListSchema,
  moderationAuditQuerySchema,
  plotDecisionRequestSchema,
  plotDecisionResponseSchema,
} from '@pixel-atlas/contracts/admin';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { requireAdmin } from '@pixel-atlas/service-kit/internal-auth';
import { ADMIN_SESSION_SECURITY } from '@pixel-atlas/service-kit/openapi';
import type { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Decision } from '../domain/compose-owner-email.ts';
import { decidePlot } from '../domain/decide-plot.ts';
import { listAuditLog } from '../domain/list-audit-log.ts';
import { listFlaggedPlots } from '../domain/list-flagged-plots.ts';
import type { ModerationMetrics } from '../metrics.ts';
import type { PrismaClient } from '../db.ts';

export interface ModerationRoutesOptions {
  /** The service's own client (the app's `db`). */
  db: PrismaClient;
  site: { name: string; publicOrigin?: string };
  metrics: ModerationMetrics;
  notifier: PollingWorker;
}

export async function moderationRoutes(app: FastifyInstance, opts: ModerationRoutesOptions) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/flagged-plots',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Plots waiting for review, oldest first',
        operationId: 'listFlaggedPlots',
        tags: ['admin', 'moderation'],
        security: ADMIN_SESSION_SECURITY,
        response: { 200: flaggedPlotListSchema, 401: errorBodySchema },
      },
    },
    async () => listFlaggedPlots({ db: opts.db }),
  );

  for (const [path, decision, operationId, summary] of [
    ['/api/admin/approve-plot', 'approved', 'approvePlot', 'Approve a plot under review (it becomes visible)'],
    ['/api/admin/reject-plot', 'rejected', 'rejectPlot', 'Reject a plot under review (it is removed, without refund)'],
  ] as Array<[string, Decision, string, string]>) {
    routes.post(
      path,
      {
        preHandler: requireAdmin,
        schema: {
          summary,
          operationId,
          tags: ['admin', 'moderation'],
          security: ADMIN_SESSION_SECURITY,
          body: plotDecisionRequestSchema,
          response: {
            200: plotDecisionResponseSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
            409: errorBodySchema,
          },
        },
      },
      async (request) => {
        const admin = request.adminUser!;
        const { plotId, editId } = request.body;
        const result = await decidePlot({ db: opts.db, plotId, editId, decision, admin, requestId: request.id, site: opts.site });
        app.outbox.kick();
        if (result.notificationQueued) opts.notifier.kick();
        opts.metrics.decisions.inc({ decision });
        request.log.info({ admin, plotId: result.plotId, editId, decision }, editId ? 'owner edit reviewed' : 'plot reviewed');
        return { plotId: result.plotId, decision: result.decision, decidedAt: result.decidedAt };
      },
    );
  }

  routes.get(
    '/api/admin/moderation/audit',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Recent moderation decisions, newest first (the audit log)',
        operationId: 'listModerationAudit',
        tags: ['admin', 'moderation'],
        security: ADMIN_SESSION_SECURITY,
        querystring: moderationAuditQuerySchema,
        response: { 200: moderationAuditListSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => ({ entries: await listAuditLog({ db: opts.db, limit: request.query.limit }) }),
  );
}
