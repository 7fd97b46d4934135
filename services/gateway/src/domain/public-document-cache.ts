import http from 'node:http';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import { encodeJsonBytes, type EncodedJson } from '@pixel-atlas/service-kit/cached-json';

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
 *   is served again (a 304 from the service keeps the bytes; no re-encoding);
 * - one refresh per document at a time: a crowd arriving together waits on the same upstream request.
 * If the service cannot give a cacheable copy (an error, or no ETag), the cache steps aside for `maxAgeMs` (or until the
 * next event) and requests are proxied as before, the service's own answer included.
 */
export const CACHED_DOCUMENTS = ['/api/map-layout', '/api/plots', '/api/plots?format=compact'] as const;
export type CachedDocument = (typeof CACHED_DOCUMENTS)[number];

interface Entry {
  body: EncodedJson;
  cacheControl: string;
  fetchedAt: number;
  /** Bumped by every event; a copy fetched under an older generation is stale. */
  generation: number;
}

export interface UpstreamContext {
  requestId: string;
  clientIp: string;
}

export interface PublicDocumentCacheOptions {
  /** The replica to ask, per document path. */
  pickUpstream: (path: string) => string | undefined;
  internalToken: string;
  maxAgeMs: number;
  timeoutMs: number;
  now?: () => number;
}

export class PublicDocumentCache {
  private readonly entries = new Map<CachedDocument, Entry>();
  private readonly refreshing = new Map<CachedDocument, Promise<Entry | null>>();
  /** A service that gave no cacheable copy (an error, no ETag) is proxied to directly for a while, not asked twice per request. */
  private readonly bypass = new Map<CachedDocument, { until: number; generation: number }>();
  private generation = 0;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  private readonly now: () => number;
  hits = 0;
  refreshes = 0;

  constructor(private readonly options: PublicDocumentCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The cached document a request asks for, or null when it asks for anything else (other queries included). */
  static documentFor(method: string, url: string): CachedDocument | null {
    if (method !== 'GET' && method !== 'HEAD') return null;
    return (CACHED_DOCUMENTS as readonly string[]).includes(url) ? (url as CachedDocument) : null;
  }

  /** Something changed: every copy is refreshed before it is served again. */
  invalidate(): void {
    this.generation += 1;
  }

  /** A fresh copy of the document, fetching or revalidating it when needed; null when the service could not give one. */
  async get(document: CachedDocument, context: UpstreamContext): Promise<{ body: EncodedJson; cacheControl: string } | null> {
    const entry = this.entries.get(document);
    if (entry && entry.generation === this.generation && this.now() - entry.fetchedAt < this.options.maxAgeMs) {
      this.hits += 1;
      return entry;
    }
    const bypass = this.bypass.get(document);
    if (bypass && bypass.generation === this.generation && this.now() < bypass.until) return null;
    let refresh = this.refreshing.get(document);
    if (!refresh) {
      refresh = this.refresh(document, entry, context).finally(() => this.refreshing.delete(document));
      this.refreshing.set(document, refresh);
    }
    return refresh;
  }

  close(): void {
    this.agent.destroy();
  }

  private async refresh(document: CachedDocument, previous: Entry | undefined, context: UpstreamContext): Promise<Entry | null> {
    const generation = this.generation;
    const base = this.options.pickUpstream(document);
    if (!base) return null;
    this.refreshes += 1;
    const answer = await this.fetchUpstream(new URL(document, base), previous?.body.etag, context).catch(() => null);
    if (answer?.status === 304 && previous) {
      const kept = { ...previous, fetchedAt: this.now(), generation };
      this.entries.set(document, kept);
      return kept;
    }
    if (!answer || answer.status !== 200 || !answer.etag) {
      this.entries.delete(document);
      this.bypass.set(document, { until: this.now() + this.options.maxAgeMs, generation });
      return null;
    }
    this.bypass.delete(document);
    const entry = { body: await encodeJsonBytes(answer.body, answer.etag), cacheControl: answer.cacheControl, fetchedAt: this.now(), generation };
    this.entries.set(document, entry);
    return entry;
  }

  private fetchUpstream(
    url: URL,
    etag: string | undefined,
    context: UpstreamContext,
  ): Promise<{ status: number; etag?: string; cacheControl: string; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          agent: this.agent,
          timeout: this.options.timeoutMs,
          headers: {
            'accept-encoding': 'identity',
            ...(etag ? { 'if-none-match': etag } : {}),
            [INTERNAL_HEADERS.token]: this.options.internalToken,
            [INTERNAL_HEADERS.requestId]: context.requestId,
            [INTERNAL_HEADERS.clientIp]: context.clientIp,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              etag: typeof response.headers.etag === 'string' ? response.headers.etag : undefined,
              cacheControl: response.headers['cache-control'] ?? 'no-cache',
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      request.on('timeout', () => request.destroy(new Error(`upstream took longer than ${this.options.timeoutMs} ms`)));
      request.on('error', reject);
      request.end();
    });
  }
}
