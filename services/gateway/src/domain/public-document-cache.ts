import type { ContentEncoding } from '@pixel-atlas/service-kit/cached-json';
import { InvalidatedValue } from '@pixel-atlas/service-kit/invalidated-value';
import type { CallService, ServiceName } from '../upstreams.ts';

/**
 * The public documents every visitor loads (`GET /api/map-layout`, `GET /api/plots`, `GET /api/plots?format=compact`).
 * The gateway keeps each one in memory, encoded once, and answers visitors itself, as r/place served its board from a
 * 1 s CDN cache: a viral moment is thousands of identical reads, and each one proxied costs the gateway a round trip
 * and the bytes twice.
 *
 * Truthful within a second, and usually at once:
 * - an event that changes a document (the same `plots.>` and `map.layout.>` events the live map hears) marks it stale
 *   on every gateway replica, and the next visitor's request waits for a fresh copy;
 * - whatever happens to the events, a copy older than `maxAgeMs` is revalidated upstream with If-None-Match before it
 *   is served again (a 304 from the service keeps the bytes);
 * - one refresh per document at a time: a crowd arriving together waits on the same upstream request.
 * If the service cannot give a cacheable copy (an error, or no ETag), the cache steps aside for `maxAgeMs` (or until the
 * next event) and requests are proxied as before, the service's own answer included.
 * Each document in each encoding is one of the kit's `InvalidatedValue`s (one load at a time, dropped by an event,
 * reloaded past its age); the service's own bytes are kept, as it compressed them: the gateway never compresses a
 * document itself.
 */
export const CACHED_DOCUMENTS = ['/api/map-layout', '/api/plots', '/api/plots?format=compact'] as const;
export type CachedDocument = (typeof CACHED_DOCUMENTS)[number];

/** What a request is answered with: the document's validator and the bytes in the encoding it accepts. */
export interface CachedAnswer {
  readonly etag: string;
  readonly cacheControl: string;
  readonly bytes: Buffer;
  readonly contentEncoding?: string;
}

export interface UpstreamContext {
  requestId: string;
  clientIp: string;
}

export interface PublicDocumentCacheOptions {
  /** The gateway's service client (`app.callService`). */
  callService: CallService;
  maxAgeMs: number;
  /** The clock ages are measured on (tests move it). */
  now?: () => number;
}

/** null: the service gave no cacheable copy, and requests are proxied until the copy's age or the next event. */
type Held = CachedAnswer | null;

const serviceOf = (document: CachedDocument): ServiceName => (document === '/api/map-layout' ? 'map' : 'plots');

export class PublicDocumentCache {
  private readonly copies = new Map<string, InvalidatedValue<Held>>();
  /** The request a copy's next load is made for (its id and address reach the service's log). */
  private readonly asking = new Map<string, UpstreamContext>();

  constructor(private readonly options: PublicDocumentCacheOptions) {}

  /** The cached document a request asks for, or null when it asks for anything else (other queries included). */
  static documentFor(method: string, url: string): CachedDocument | null {
    if (method !== 'GET' && method !== 'HEAD') return null;
    return (CACHED_DOCUMENTS as readonly string[]).includes(url) ? (url as CachedDocument) : null;
  }

  /** Something changed: every copy is revalidated before it is served again. */
  invalidate(): void {
    for (const copy of this.copies.values()) copy.invalidate();
  }

  /** The document in `encoding` when memory holds it fresh, without waiting for anything; else undefined (ask `get`). */
  peek(document: CachedDocument, encoding: ContentEncoding): CachedAnswer | undefined {
    return this.copies.get(`${document} ${encoding}`)?.peek() ?? undefined;
  }

  /**
   * The document in `encoding`, fresh: from memory, or fetched (a copy past its age or an event is revalidated with
   * If-None-Match); null when the service could not give a cacheable copy.
   */
  get(document: CachedDocument, encoding: ContentEncoding, context: UpstreamContext): Promise<CachedAnswer | null> {
    const key = `${document} ${encoding}`;
    this.asking.set(key, context);
    let copy = this.copies.get(key);
    if (!copy) {
      let previous: Held = null;
      copy = new InvalidatedValue<Held>({
        maxAgeMs: this.options.maxAgeMs,
        now: this.options.now,
        load: async () => {
          previous = await this.load(document, encoding, previous, this.asking.get(key) ?? context);
          return previous;
        },
      });
      this.copies.set(key, copy);
    }
    return copy.get();
  }

  /** The service's answer: a new version, the previous one confirmed (304: the same object, so heads built on it stay), or null. */
  private async load(document: CachedDocument, encoding: ContentEncoding, previous: Held, context: UpstreamContext): Promise<Held> {
    const headers: Record<string, string> = { 'accept-encoding': encoding };
    if (previous) headers['if-none-match'] = previous.etag;
    try {
      const { response } = await this.options.callService(serviceOf(document), {
        path: document,
        headers,
        requestId: context.requestId,
        clientIp: context.clientIp,
      });
      if (response.status === 304 && previous) return previous;
      const etag = response.headers.get('etag');
      if (response.status !== 200 || !etag) {
        await response.body?.cancel();
        return null;
      }
      const contentEncoding = response.headers.get('content-encoding');
      return {
        etag,
        cacheControl: response.headers.get('cache-control') ?? 'no-cache',
        bytes: Buffer.from(await response.arrayBuffer()),
        contentEncoding: contentEncoding && contentEncoding !== 'identity' ? contentEncoding : undefined,
      };
    } catch {
      return null;
    }
  }
}
