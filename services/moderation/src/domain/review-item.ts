import type { FlaggedPlot } from '@pixel-atlas/contracts/admin';
import { tierSchema } from '@pixel-atlas/contracts/tiers';
import type { Tx } from '../db.ts';
import type { ReviewItem } from '../generated/prisma/client.ts';

/** A plot as events describe it: what the admin needs to judge it. */
export interface PlotSnapshot {
  plotId: string;
  displayName: string;
  zone: string;
  tier: string;
  x: number;
  y: number;
  message: string;
  link: string | null;
  createdAt: string;
}

export type ReviewSource = 'screen' | 'visitor' | 'both';

/** Reasons kept per review: flags still count beyond this, their free texts stop being added. */
export const MAX_REASONS = 50;

/**
 * Serialises every change to one plot's reviews (events from several consumers and replicas, admins
 * deciding at once) with a transaction-scoped advisory lock keyed by the plot id.
 */
export async function lockPlot(tx: Tx, plotId: string): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended('moderation.plot:' || $1, 0))`, plotId);
}

/** Union of two reason lists, order kept, each reason once, at most MAX_REASONS. */
export function mergeReasons(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second].map((r) => r.trim()).filter(Boolean))].slice(0, MAX_REASONS);
}

export function mergeSource(current: string, incoming: 'screen' | 'visitor'): ReviewSource {
  return current === incoming ? incoming : 'both';
}

export function snapshotColumns(snapshot: PlotSnapshot) {
  return {
    plotId: snapshot.plotId,
    displayName: snapshot.displayName,
    zone: snapshot.zone,
    tier: snapshot.tier,
    x: snapshot.x,
    y: snapshot.y,
    message: snapshot.message,
    link: snapshot.link,
    plotCreatedAt: new Date(snapshot.createdAt),
  };
}

/** The admin's view of a review (the contract's FlaggedPlot; `id` is the plot id). */
export function toFlaggedPlot(item: ReviewItem): FlaggedPlot {
  return {
    id: item.plotId,
    display_name: item.displayName,
    zone: item.zone,
    tier: tierSchema.catch('basic').parse(item.tier),
    x: item.x,
    y: item.y,
    message: item.message,
    link: item.link,
    created_at: item.plotCreatedAt.toISOString(),
    flag_count: item.flagCount,
    reasons: item.reasons,
    source: item.source as ReviewSource,
    kind: item.kind === 'edit' ? 'edit' : 'plot',
    edit_id: item.editId,
    current: item.kind === 'edit' ? { message: item.currentMessage ?? '', link: item.currentLink } : null,
  };
}
