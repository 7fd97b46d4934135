import { AppError } from '@pixel-atlas/service-kit/errors';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, type PrismaClient } from '../db.ts';
import { composeOwnerEmail, type Decision } from './compose-owner-email.ts';
import { lockPlot, toFlaggedPlot } from './review-item.ts';

export const PLOT_NOT_FOUND_MESSAGE = 'Plot not found';
export const ALREADY_DECIDED_MESSAGE = 'This plot has already been reviewed.';

export interface DecidePlotOptions {
  db: PrismaClient;
  plotId: string;
  /** Decide this owner's held edit of the plot instead of the plot itself. */
  editId?: string;
  decision: Decision;
  /** The signed-in admin, as the gateway vouched for it. */
  admin: string;
  requestId?: string;
  site: { name: string; publicOrigin?: string };
}

export interface DecidePlotResult {
  plotId: string;
  decision: Decision;
  decidedAt: string;
  /** True when an owner e-mail was queued (the notifier delivers it after this commit). */
  notificationQueued: boolean;
}

/**
 * Approves or rejects the plot's pending review. The decision, its audit row, the outbox event
 * (`moderation.plot.approved` / `moderation.plot.rejected`) and the owner's notification are written in
 * one transaction, under the plot's lock and with a conditional update: of two admins deciding at once,
 * exactly one succeeds and the other gets 409.
 */
export async function decidePlot({ db, plotId, editId, decision, admin, requestId, site }: DecidePlotOptions): Promise<DecidePlotResult> {
  const which = editId ? { kind: 'edit', editId } : { kind: 'plot' };
  return db.$transaction(
    async (tx) => {
      await lockPlot(tx, plotId);
      const item = await tx.reviewItem.findFirst({ where: { plotId, ...which, status: 'pending' } });
      if (!item) {
        const reviewed = await tx.reviewItem.count({ where: { plotId, ...which } });
        throw reviewed ? new AppError('ALREADY_DECIDED', ALREADY_DECIDED_MESSAGE) : new AppError('PLOT_NOT_FOUND', PLOT_NOT_FOUND_MESSAGE);
      }
      const decidedAt = new Date();
      const updated = await tx.reviewItem.updateMany({
        where: { id: item.id, status: 'pending' },
        data: { status: decision, decidedAt, decidedBy: admin, updatedAt: decidedAt },
      });
      if (updated.count !== 1) throw new AppError('ALREADY_DECIDED', ALREADY_DECIDED_MESSAGE);

      const audit = await tx.moderationAudit.create({
        data: { plotId, reviewItemId: item.id, decision, admin, decidedAt, snapshot: toFlaggedPlot(item), requestId },
      });
      if (item.editId) {
        // An owner's edit: plots applies or drops it; the plot itself and its owner's e-mail are not concerned.
        await enqueueEvent({
          tx,
          schema: SCHEMA,
          type: decision === 'approved' ? 'moderation.edit.approved' : 'moderation.edit.rejected',
          requestId,
          data: { plotId, editId: item.editId, decidedBy: admin, decidedAt: decidedAt.toISOString() },
        });
        return { plotId, decision, decidedAt: decidedAt.toISOString(), notificationQueued: false };
      }
      await enqueueEvent({
        tx,
        schema: SCHEMA,
        type: decision === 'approved' ? 'moderation.plot.approved' : 'moderation.plot.rejected',
        requestId,
        data: { plotId, decidedBy: admin, decidedAt: decidedAt.toISOString() },
      });

      const contact = await tx.plotContact.findUnique({ where: { plotId } });
      if (contact) {
        const email = composeOwnerEmail({ decision, plot: item, siteName: site.name, publicOrigin: site.publicOrigin });
        await tx.notification.create({
          data: { plotId, auditId: audit.id, email: contact.notificationEmail, kind: decision, subject: email.subject, body: email.text },
        });
      }
      return { plotId, decision, decidedAt: decidedAt.toISOString(), notificationQueued: Boolean(contact) };
    },
    { timeout: 15_000, maxWait: 10_000 },
  );
}
