import type { ReservedFootprint } from '@pixel-atlas/contracts/plots';

/**
 * GET /api/reserved-footprints is polled by every open map (every ~30 s and on each live plot change),
 * so the list is read from the database at most once per `maxAgeMs` per replica. Holds change without
 * any event other replicas hear, so the age bound, not invalidation, is what keeps every replica close
 * to the truth; this replica also drops the list after its own changes (a hold it took, a claim it
 * made), so a buyer's second browser sees their own hold at once. 0 reads the database every time.
 */
export class ReservedFootprintsCache {
  private current: { list: ReservedFootprint[]; builtAt: number; generation: number } | null = null;
  private loading: { generation: number; promise: Promise<ReservedFootprint[]> } | null = null;
  private generation = 0;

  constructor(
    private readonly load: () => Promise<ReservedFootprint[]>,
    private readonly maxAgeMs: number,
  ) {}

  invalidate(): void {
    this.generation += 1;
  }

  async get(): Promise<ReservedFootprint[]> {
    const current = this.current;
    if (current && current.generation === this.generation && Date.now() - current.builtAt < this.maxAgeMs) return current.list;
    if (this.loading && this.loading.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const builtAt = Date.now();
    const promise = this.load().then(
      (list) => {
        if (!this.current || this.current.generation <= generation) this.current = { list, builtAt, generation };
        if (this.loading?.generation === generation) this.loading = null;
        return list;
      },
      (error: unknown) => {
        if (this.loading?.generation === generation) this.loading = null;
        throw error;
      },
    );
    this.loading = { generation, promise };
    return promise;
  }
}
