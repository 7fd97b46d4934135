import { encodePlotListCompact } from '@pixel-atlas/contracts/plot-list-compact-codec';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { encodeJson, type EncodedJson } from '@pixel-atlas/service-kit/cached-json';

/** The plot list in the spec's shape (the document's own fields) and in the compact, columnar one. */
export interface PlotListBody extends EncodedJson {
  count: number;
  compact: EncodedJson;
  builtAt: number;
}

/**
 * GET /api/plots from memory: the list is serialised and compressed once per change, not per request.
 * `invalidate()` is called after this replica's own writes and when any replica's plot events arrive;
 * a request after an invalidation waits for the rebuild (a buyer sees their own plot at once). A body
 * older than maxAgeMs is served while a rebuild runs in the background (a safety net for a lost event).
 */
export class PlotListCache {
  private generation = 0;
  private current: { generation: number; body: PlotListBody } | null = null;
  private building: { generation: number; promise: Promise<PlotListBody> } | null = null;

  constructor(
    private readonly load: () => Promise<Plot[]>,
    private readonly maxAgeMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  invalidate(): void {
    this.generation += 1;
  }

  async get(): Promise<PlotListBody> {
    const current = this.current;
    if (current && current.generation === this.generation) {
      if (this.maxAgeMs > 0 && Date.now() - current.body.builtAt > this.maxAgeMs && !this.building) {
        this.rebuild().catch(this.onError);
      }
      return current.body;
    }
    try {
      return await this.rebuild();
    } catch (error) {
      // The database is unreachable: an older list beats an error page for people browsing the map.
      if (!current) throw error;
      this.onError(error);
      return current.body;
    }
  }

  private rebuild(): Promise<PlotListBody> {
    if (this.building && this.building.generation === this.generation) return this.building.promise;
    const generation = this.generation;
    const promise = this.build().then(
      (body) => {
        if (!this.current || this.current.generation <= generation) this.current = { generation, body };
        if (this.building?.generation === generation) this.building = null;
        return body;
      },
      (error) => {
        if (this.building?.generation === generation) this.building = null;
        throw error;
      },
    );
    this.building = { generation, promise };
    return promise;
  }

  private async build(): Promise<PlotListBody> {
    const plots = await this.load();
    const [spec, compact] = await Promise.all([
      encodeJson(plots),
      encodeJson(encodePlotListCompact(plots), { brotliQuality: COMPACT_BROTLI_QUALITY }),
    ]);
    return { ...spec, count: plots.length, compact, builtAt: Date.now() };
  }
}

/**
 * The compact list is a quarter of the spec's bytes before compression, so a higher brotli quality costs
 * about what quality 5 costs the spec's list, once per change, and saves bytes on every download.
 */
const COMPACT_BROTLI_QUALITY = 9;
