import type { EventType } from '@pixel-atlas/contracts/events';
import type { PlotListCache } from './plot-list-cache.ts';
import type { ReservedFootprintsCache } from './reserved-footprints-cache.ts';

type Copy = 'plotList' | 'reserved';

/**
 * Which of this replica's copies each change makes stale: the one table behind every invalidation in plots. A change
 * is named by the event it wrote or heard, so a write made here (which drops its copies after commit, for the buyer
 * who reads next) and the same event heard from another replica on `plots.>` drop the same copies.
 */
const STALE_AFTER: Partial<Record<EventType, readonly Copy[]>> = {
  // A claim or a removal changes both the list and the land taken.
  'plots.plot.claimed': ['plotList', 'reserved'],
  'plots.plot.removed': ['plotList', 'reserved'],
  'plots.plot.flagged': ['plotList'],
  'plots.plot.published': ['plotList'],
  'plots.plot.updated': ['plotList'],
  'plots.edit.submitted': ['plotList'],
  'plots.link.unreachable': ['plotList'],
  // Moderation's decisions, applied by this replica's inbox (others hear the plots.* event it writes).
  'moderation.plot.approved': ['plotList', 'reserved'],
  'moderation.plot.rejected': ['plotList', 'reserved'],
  'moderation.edit.approved': ['plotList', 'reserved'],
  // An expired checkout releases its hold.
  'payments.checkout.expired': ['reserved'],
};

/** Anything else heard on `plots.>` (a type added later) or a reconnect that may have missed events: drop both. */
const EVERYTHING: readonly Copy[] = ['plotList', 'reserved'];

export class PlotCaches {
  constructor(
    readonly plotList: PlotListCache,
    readonly reserved: ReservedFootprintsCache,
  ) {}

  /** An event this replica wrote (after its commit) or heard: the copies it makes stale are dropped. */
  changed(event: EventType | 'reconnect'): void {
    const stale = event === 'reconnect' ? EVERYTHING : (STALE_AFTER[event] ?? (event.startsWith('plots.') ? EVERYTHING : []));
    for (const copy of stale) this[copy].invalidate();
  }

  /** A checkout hold was taken or released here: holds have no event, and other replicas catch up by age. */
  holdsChanged(): void {
    this.reserved.invalidate();
  }
}
