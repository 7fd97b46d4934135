import type { ReservedFootprint } from '@pixel-atlas/contracts/plots';
import { InvalidatedValue } from '@pixel-atlas/service-kit/invalidated-value';

/**
 * GET /api/reserved-footprints is polled by every open map (every ~30 s and on each live plot change),
 * so the list is read from the database at most once per `maxAgeMs` per replica. Holds change without
 * any event other replicas hear, so the age bound, not invalidation, is what keeps every replica close
 * to the truth; this replica also drops the list after its own changes (a hold it took, a claim it
 * made), so a buyer's second browser sees their own hold at once. 0 reads the database every time.
 */
export class ReservedFootprintsCache extends InvalidatedValue<ReservedFootprint[]> {
  constructor(load: () => Promise<ReservedFootprint[]>, maxAgeMs: number) {
    super({ load, maxAgeMs, whenOld: 'reload' });
  }
}
