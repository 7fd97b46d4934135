import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { encodePlotListCompact } from '@pixel-atlas/contracts/plot-list-compact-codec';
import type { Plot } from '@pixel-atlas/contracts/plots';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** One serialised document, in every encoding we serve, with its validator. */
export interface EncodedDocument {
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** The plot list in the spec's shape (the document's own fields) and in the compact, columnar one. */
export interface PlotListBody extends EncodedDocument {
  count: number;
  compact: EncodedDocument;
  builtAt: number;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** Picks the best encoding the client accepts (q=0 refuses one). */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
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
    const [spec, compact] = await Promise.all([encodeDocument(plots, 5), encodeDocument(encodePlotListCompact(plots), COMPACT_BROTLI_QUALITY)]);
    return { ...spec, count: plots.length, compact, builtAt: Date.now() };
  }
}

/**
 * The compact list is a quarter of the spec's bytes before compression, so a higher brotli quality costs
 * about what quality 5 costs the spec's list, once per change, and saves bytes on every download.
 */
const COMPACT_BROTLI_QUALITY = 9;

async function encodeDocument(document: unknown, brotliQuality: number): Promise<EncodedDocument> {
  const identity = Buffer.from(JSON.stringify(document));
  const [gz, br] = await Promise.all([
    gzipAsync(identity, { level: 6 }),
    brotliAsync(identity, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
  ]);
  const etag = `W/"${createHash('sha1').update(identity).digest('base64url')}"`;
  return { etag, identity, gzip: gz, br };
}
