import { encodePlotListCompact } from '@pixel-atlas/contracts/plot-list-compact-codec';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { encodeJson, type EncodedJson } from '@pixel-atlas/service-kit/cached-json';
import { InvalidatedValue } from '@pixel-atlas/service-kit/invalidated-value';

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
  private readonly value: InvalidatedValue<PlotListBody>;

  constructor(
    private readonly load: () => Promise<Plot[]>,
    maxAgeMs: number,
    onError: (error: unknown) => void = () => undefined,
  ) {
    this.value = new InvalidatedValue({
      load: () => this.build(),
      ...(maxAgeMs > 0 && { maxAgeMs, whenOld: 'in-background' as const }),
      // The database is unreachable: an older list beats an error page for people browsing the map.
      keepOnError: onError,
    });
  }

  invalidate(): void {
    this.value.invalidate();
  }

  get(): Promise<PlotListBody> {
    return this.value.get();
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
