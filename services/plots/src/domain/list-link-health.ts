import type { AdminLinkHealthEntry } from '@pixel-atlas/contracts/link-health';
import type { PrismaClient } from '../db.ts';
import { toLinkHealth } from './get-link-health.ts';

export interface ListLinkHealthOptions {
  db: PrismaClient;
  /** 'failing' lists failing and unreachable links; 'unreachable' only those. */
  status: 'all' | 'failing' | 'unreachable';
  limit: number;
}

const WORST_FIRST: Record<string, number> = { unreachable: 0, failing: 1, unchecked: 2, ok: 3 };

/** The admin's link-health list: the worst links first (unreachable, failing, longest failing first). */
export async function listLinkHealth({ db, status, limit }: ListLinkHealthOptions): Promise<AdminLinkHealthEntry[]> {
  const statuses = status === 'unreachable' ? ['unreachable'] : status === 'failing' ? ['failing', 'unreachable'] : undefined;
  const rows = await db.linkCheck.findMany({
    where: { ...(statuses ? { status: { in: statuses } } : {}), plot: { removedAt: null, visible: true } },
    include: { plot: { select: { displayName: true, link: true } } },
    orderBy: [{ failingSince: { sort: 'asc', nulls: 'last' } }, { plotId: 'asc' }],
    take: limit,
  });
  return rows
    .map((row) => ({
      plotId: row.plotId,
      displayName: row.plot.displayName,
      link: row.url,
      consecutiveFailures: row.consecutiveFailures,
      failingSince: row.failingSince?.toISOString() ?? null,
      ...toLinkHealth(row, row.plot.link),
    }))
    .sort((a, b) => (WORST_FIRST[a.status] ?? 9) - (WORST_FIRST[b.status] ?? 9));
}
