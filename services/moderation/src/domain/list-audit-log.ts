import type { FlaggedPlot, ModerationAuditEntry } from '@pixel-atlas/contracts/admin';
import type { PrismaClient } from '../db.ts';

export interface ListAuditLogOptions {
  db: PrismaClient;
  limit: number;
}

/** The most recent decisions, newest first, each with what the admin saw and how the owner e-mail went. */
export async function listAuditLog({ db, limit }: ListAuditLogOptions): Promise<ModerationAuditEntry[]> {
  const rows = await db.moderationAudit.findMany({ orderBy: [{ decidedAt: 'desc' }, { id: 'desc' }], take: limit });
  const notifications = await db.notification.findMany({ where: { auditId: { in: rows.map((r) => r.id) } } });
  const byAudit = new Map(notifications.map((n) => [n.auditId, n]));
  return rows.map((row) => {
    const notification = byAudit.get(row.id);
    return {
      id: row.id,
      plotId: row.plotId,
      decision: row.decision as ModerationAuditEntry['decision'],
      admin: row.admin,
      decidedAt: row.decidedAt.toISOString(),
      snapshot: row.snapshot as unknown as FlaggedPlot,
      notification: notification
        ? {
            status: notification.status as NonNullable<ModerationAuditEntry['notification']>['status'],
            attempts: notification.attempts,
            lastError: notification.lastError,
          }
        : null,
    };
  });
}
