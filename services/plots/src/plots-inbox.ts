import type { EventType } from '@pixel-atlas/contracts/events';
import { inboxPlugin, type EventHandlers } from '@pixel-atlas/service-kit/inbox';
import type { BackendService } from '@pixel-atlas/service-kit/backend-service';
import { SCHEMA, type PrismaClient, type Tx } from './db.ts';
import { decidePlotEdit } from './domain/decide-plot-edit.ts';
import { approvePlot, removePlot } from './domain/moderation-decisions.ts';
import { recordEntitlement } from './domain/record-entitlement.ts';
import { releaseSessionHold } from './domain/release-hold.ts';
import type { PlotsMetrics } from './metrics.ts';
import type { PlotCaches } from './plot-caches.ts';

export interface PlotsInboxOptions {
  app: BackendService<PrismaClient, PlotsMetrics>;
  caches: PlotCaches;
}

// An owner's held edit: approved, it replaces the plot's message and link; rejected, the plot stays as it is.
const applyEditDecision =
  (approved: boolean): NonNullable<EventHandlers<Tx>['moderation.edit.approved']> =>
  async (event, tx, log) => {
    const outcome = await decidePlotEdit({
      tx,
      editId: event.data.editId,
      approved,
      decidedAt: event.data.decidedAt,
      requestId: event.requestId,
    });
    log.info(
      { plotId: event.data.plotId, editId: event.data.editId, outcome, decidedBy: event.data.decidedBy },
      approved ? 'edit approval applied' : 'edit rejection applied',
    );
  };

/** The events plots consumes (payments' verdicts on checkouts, moderation's decisions), as the inbox plugin to register. */
export function plotsInbox({ app, caches }: PlotsInboxOptions) {
  const metrics = app.serviceMetrics;
  return inboxPlugin({
    db: () => app.db,
    consumers: [
      {
        durable: 'plots',
        schema: SCHEMA,
        afterCommit: (event) => {
          // This replica's copies now; other replicas hear the plots.* event a decision writes, which the kick relays.
          caches.changed(event.type as EventType);
          if (event.type.startsWith('moderation.')) app.outbox.kick();
        },
        handlers: {
          'payments.payment.verified': async (event, tx) =>
            recordEntitlement({
              db: tx,
              entitlement: {
                sessionId: event.data.sessionId,
                tier: event.data.tier,
                amountCents: event.data.amountCents,
                currency: event.data.currency,
                footprint: event.data.footprint,
                paidAt: new Date(event.occurredAt),
                buyerEmail: event.data.buyerEmail ?? null,
              },
            }),
          'payments.checkout.expired': async (event, tx) => releaseSessionHold({ tx, sessionId: event.data.sessionId }),
          // Moderation's decisions: publish a held plot, or remove a rejected one (footprint freed, row kept).
          'moderation.plot.approved': async (event, tx, log) => {
            const outcome = await approvePlot({
              tx,
              plotId: event.data.plotId,
              decidedAt: event.data.decidedAt,
              requestId: event.requestId,
            });
            metrics.moderationDecisions.inc({ outcome });
            log.info({ plotId: event.data.plotId, outcome, decidedBy: event.data.decidedBy }, 'moderation approval applied');
          },
          'moderation.plot.rejected': async (event, tx, log) => {
            const outcome = await removePlot({ tx, plotId: event.data.plotId, reason: 'rejected', requestId: event.requestId });
            metrics.moderationDecisions.inc({ outcome });
            log.info({ plotId: event.data.plotId, outcome, decidedBy: event.data.decidedBy }, 'moderation rejection applied');
          },
          'moderation.edit.approved': applyEditDecision(true),
          'moderation.edit.rejected': applyEditDecision(false),
        },
      },
    ],
  });
}
