import type { LinkHealth, LinkHealthStatus } from '@pixel-atlas/contracts/link-health';
import type { PrismaClient } from '../db.ts';
import { isUuid } from '../plot-dto.ts';

const UNCHECKED: LinkHealth = { status: 'unchecked', lastOkAt: null, lastCheckedAt: null, lastError: null };

export interface LinkCheckRow {
  url: string;
  status: string;
  lastOkAt: Date | null;
  lastCheckedAt: Date | null;
  lastError: string | null;
}

/** A check row as the contract's shape; a row about another URL than the plot's current link says nothing about it. */
export function toLinkHealth(row: LinkCheckRow | null, currentLink: string | null): LinkHealth {
  if (!row || !currentLink || row.url !== currentLink) return UNCHECKED;
  return {
    status: row.status as LinkHealthStatus,
    lastOkAt: row.lastOkAt?.toISOString() ?? null,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}

/**
 * The health of a plot's current link, for its owner (and the admin). A plot without a link, or whose link
 * changed since the last check, is `unchecked`. Unknown plots are unchecked too: the caller has already
 * decided who may ask (the owner's token).
 */
export async function getLinkHealth({ db, plotId }: { db: PrismaClient; plotId: string }): Promise<LinkHealth> {
  if (!isUuid(plotId)) return UNCHECKED;
  const plot = await db.plot.findUnique({ where: { id: plotId }, select: { link: true, linkCheck: true } });
  return toLinkHealth(plot?.linkCheck ?? null, plot?.link ?? null);
}
