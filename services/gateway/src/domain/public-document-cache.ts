import http from 'node:http';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { ContentEncoding } from '@pixel-atlas/service-kit/cached-json';
import { IDLE_UPSTREAM_SOCKET_MS } from '../upstreams.ts';

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
 */
export const CACHED_DOCUMENTS = ['/api/map-layout', '/api/plots', '/api/plots?format=compact'] as const;
export type CachedDocument = (typeof CACHED_DOCUMENTS)[number];

/** One version of a document (one ETag) and the encodings of it fetched so far, each as the service encoded it. */
interface Entry {
  etag: string;
  cacheControl: string;
  /** One answer object per encoding for as long as the version is held: requests share it, and the gateway keys its prebuilt response heads on it. */
  variants: Partial<Record<ContentEncoding, CachedAnswer>>;
  fetchedAt: number;
  /** Bumped by every event; a copy fetched under an older generation is stale. */
  generation: number;
}

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
  /** The replica to ask, per document path. */
  pickUpstream: (path: string) => string | undefined;
  internalToken: string;
  maxAgeMs: number;
  timeoutMs: number;
  now?: () => number;
}

export class PublicDocumentCache {
  private readonly entries = new Map<CachedDocument, Entry>();
  private readonly loading = new Map<string, Promise<Entry | null>>();
  /** A service that gave no cacheable copy (an error, no ETag) is proxied to directly for a while, not asked twice per request. */
  private readonly bypass = new Map<CachedDocument, { until: number; generation: number }>();
  private generation = 0;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8, timeout: IDLE_UPSTREAM_SOCKET_MS });
  private readonly now: () => number;

  constructor(private readonly options: PublicDocumentCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The cached document a request asks for, or null when it asks for anything else (other queries included). */
  static documentFor(method: string, url: string): CachedDocument | null {
    if (method !== 'GET' && method !== 'HEAD') return null;
    return (CACHED_DOCUMENTS as readonly string[]).includes(url) ? (url as CachedDocument) : null;
  }

  /** Something changed: every copy is revalidated before it is served again. */
  invalidate(): void {
    this.generation += 1;
  }

  /** The document in `encoding` when memory holds it fresh, without waiting for anything; else undefined (ask `get`). */
  peek(document: CachedDocument, encoding: ContentEncoding): CachedAnswer | undefined {
    const entry = this.entries.get(document);
    const variant = entry?.variants[encoding];
    if (!entry || !variant || entry.generation !== this.generation || this.now() - entry.fetchedAt >= this.options.maxAgeMs)
      return undefined;
    return variant;
  }

  /**
   * The document in `encoding`, fresh: from memory, or fetched (a copy past its age or generation is revalidated with
   * If-None-Match); null when the service could not give a cacheable copy. The service's own bytes are kept for each
   * encoding (it compressed them once already): the gateway never compresses a document itself.
   */
  async get(document: CachedDocument, encoding: ContentEncoding, context: UpstreamContext): Promise<CachedAnswer | null> {
    let entry = this.entries.get(document);
    const fresh = entry && entry.generation === this.generation && this.now() - entry.fetchedAt < this.options.maxAgeMs;
    if (!fresh || !entry?.variants[encoding]) {
      const bypass = this.bypass.get(document);
      if (bypass && bypass.generation === this.generation && this.now() < bypass.until) return null;
      const key = `${document} ${encoding}`;
      let load = this.loading.get(key);
      if (!load) {
        load = this.load(document, encoding, context).finally(() => this.loading.delete(key));
        this.loading.set(key, load);
      }
      entry = (await load) ?? undefined;
    }
    return entry?.variants[encoding] ?? null;
  }

  close(): void {
    this.agent.destroy();
  }

  private async load(document: CachedDocument, encoding: ContentEncoding, context: UpstreamContext): Promise<Entry | null> {
    const generation = this.generation;
    const base = this.options.pickUpstream(document);
    if (!base) return null;
    const previous = this.entries.get(document);
    // Conditional only when this encoding is already held: a 304 then confirms every encoding of the version.
    const conditional = previous?.variants[encoding] ? previous.etag : undefined;
    const answer = await this.fetchUpstream(new URL(document, base), encoding, conditional, context).catch(() => null);
    if (answer?.status === 304 && previous) {
      previous.fetchedAt = this.now();
      previous.generation = generation;
      return previous;
    }
    if (!answer || answer.status !== 200 || !answer.etag) {
      this.entries.delete(document);
      this.bypass.set(document, { until: this.now() + this.options.maxAgeMs, generation });
      return null;
    }
    this.bypass.delete(document);
    const current = this.entries.get(document);
    if (current && current.etag === answer.etag) {
      // The same version: the new encoding joins the others, and the service has just confirmed them all.
      current.variants[encoding] = {
        etag: current.etag,
        cacheControl: current.cacheControl,
        bytes: answer.body,
        contentEncoding: answer.contentEncoding,
      };
      current.fetchedAt = this.now();
      current.generation = generation;
      return current;
    }
    const entry: Entry = {
      etag: answer.etag,
      cacheControl: answer.cacheControl,
      variants: {
        [encoding]: { etag: answer.etag, cacheControl: answer.cacheControl, bytes: answer.body, contentEncoding: answer.contentEncoding },
      },
      fetchedAt: this.now(),
      generation,
    };
    this.entries.set(document, entry);
    return entry;
  }

  private fetchUpstream(
    url: URL,
    encoding: ContentEncoding,
    etag: string | undefined,
    context: UpstreamContext,
  ): Promise<{ status: number; etag?: string; cacheControl: string; contentEncoding?: string; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          agent: this.agent,
          timeout: this.options.timeoutMs,
          headers: {
            'accept-encoding': encoding,
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
          response.on('end', () => {
            const contentEncoding = response.headers['content-encoding'];
            resolve({
              status: response.statusCode ?? 0,
              etag: typeof response.headers.etag === 'string' ? response.headers.etag : undefined,
              cacheControl: response.headers['cache-control'] ?? 'no-cache',
              contentEncoding: contentEncoding && contentEncoding !== 'identity' ? contentEncoding : undefined,
              body: Buffer.concat(chunks),
            });
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`upstream took longer than ${this.options.timeoutMs} ms`)));
      request.on('error', reject);
      request.end();
    });
  }
}
