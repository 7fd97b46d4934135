import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { ContentEncoding } from '@pixel-atlas/service-kit/cached-json';
import { LRUCache } from 'lru-cache';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Up to this size a document gets brotli's best quality (about 20 ms for a 50 KB page, paid once per change, on the
 * thread pool); past it (a sitemap chunk of 10,000 URLs) a quality that keeps the build well under a second.
 */
const BEST_BROTLI_MAX_BYTES = 256 * 1024;

/** What a builder hands the cache: one answer, before it is encoded. */
export interface DocumentDraft {
  status: number;
  contentType: string;
  body: string | Buffer;
  cacheControl: string;
  /** Text is compressed once here; an image (PNG) is already compressed and goes out as it is. */
  compress?: boolean;
  /** Headers of this answer beyond its type and caching (e.g. Cross-Origin-Resource-Policy of an image). */
  headers?: ReadonlyArray<readonly [string, string]>;
  /**
   * How long the built answer may be served, in ms (default: the cache's `maxAgeMs`; events still make it stale). 0:
   * only the requests that waited on this build get it (an upstream failure must not be kept: the next request tries again).
   */
  keepMs?: number;
}

/** The document in one content coding, with a strong validator of its own (the bytes differ per coding). */
export interface Representation {
  readonly etag: string;
  readonly bytes: Buffer;
  readonly contentEncoding?: 'br' | 'gzip';
}

export interface RenderedDocument {
  readonly status: number;
  readonly contentType: string;
  readonly cacheControl: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly representations: Readonly<Record<ContentEncoding, Representation>>;
  /** Every representation's tag: a client holding any of them holds this document (it decoded it). */
  readonly etags: readonly string[];
  /** What makes it stale (see `invalidate`), and the cache's epoch when its build began. */
  readonly tags: readonly string[];
  readonly epoch: number;
}

/** How to build a document and which events make it stale. */
export interface DocumentRecipe {
  tags: readonly string[];
  build: () => Promise<DocumentDraft>;
  /**
   * A copy that missed a change may be answered for the cache's `staleMs` while it is rebuilt (pages a crowd opens).
   * Off for documents whose address promises what they show (a versioned share card is cached for a year).
   */
  staleWhileRebuilding?: boolean;
}

export interface RenderedDocumentCacheOptions {
  /** The memory all documents may take together, every coding counted. */
  maxBytes: number;
  /** The longest a document is served without being rebuilt: a lost event cannot keep a page stale for longer. */
  maxAgeMs: number;
  /**
   * How long after a change a document that missed it may still be answered while one rebuild runs (0: never; every
   * request then waits for the rebuild). A crowd on one page keeps being answered from memory when a purchase
   * elsewhere makes every page stale, the way a CDN's `stale-while-revalidate` would.
   */
  staleMs?: number;
  /** The clock `staleMs` is measured on (ms; tests move it). */
  now?: () => number;
  /** Told of every build (a miss, a rebuild): for a metric. */
  onBuild?: () => void;
}

/** What a request may be answered with. */
export interface FreshnessNeed {
  /** Only a document built after every change it shows (the owner who just saved looks at their own page). */
  fresh?: boolean;
}

/** Builds a document, compressed once in each coding, with its tags: what every answer of it is made of. */
export async function encodeDocument(draft: DocumentDraft, tags: readonly string[], epoch: number): Promise<RenderedDocument> {
  const identity = typeof draft.body === 'string' ? Buffer.from(draft.body) : draft.body;
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  let br: Buffer | null = null;
  let gz: Buffer | null = null;
  if (draft.compress !== false) {
    [br, gz] = await Promise.all([
      brotliAsync(identity, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: identity.length <= BEST_BROTLI_MAX_BYTES ? 11 : 5,
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
      gzipAsync(identity, { level: 9 }),
    ]);
  }
  const plain: Representation = { etag: `"${hash}"`, bytes: identity };
  const representations: Record<ContentEncoding, Representation> = {
    identity: plain,
    br: br ? { etag: `"${hash}-br"`, bytes: br, contentEncoding: 'br' } : plain,
    gzip: gz ? { etag: `"${hash}-gz"`, bytes: gz, contentEncoding: 'gzip' } : plain,
  };
  return {
    status: draft.status,
    contentType: draft.contentType,
    cacheControl: draft.cacheControl,
    headers: draft.headers ?? [],
    representations,
    etags: [...new Set(Object.values(representations).map((r) => r.etag))],
    tags,
    epoch,
  };
}

const sizeOf = (doc: RenderedDocument, key: string) =>
  key.length + [...new Set(Object.values(doc.representations).map((r) => r.bytes))].reduce((sum, bytes) => sum + bytes.length, 0);

/**
 * The gateway's rendered documents (pages, sitemaps, share cards, the API reference), each built once per change and
 * compressed once, so a crowd is answered from memory the way a static file would be.
 *
 * - Single flight: requests for a key whose build is under way wait on that build (lru-cache's `fetch`).
 * - Events, not timers, make documents stale: each document names tags (`plots`, `map`, `plot:<id>`…) and an event
 *   bumps a tag. A document whose build began before a bump of one of its tags is stale, even when the build
 *   finishes after the event (it may have read the old data): it is answered only for `staleMs` after the change it
 *   missed, while one rebuild runs, and never to a request that needs it fresh.
 * - `maxAgeMs` bounds what a lost event can cost; memory is bounded by bytes, least recently used first.
 */
export class RenderedDocumentCache {
  /** Counts bumps; a document records it when its build begins. */
  private epoch = 0;
  /** The epoch of each tag's last bump (tags never bumped are absent). */
  private readonly bumped = new Map<string, number>();
  private readonly lru: LRUCache<string, RenderedDocument, DocumentRecipe>;
  private readonly staleMs: number;
  private readonly now: () => number;
  /** Bumps of the last `staleMs`, oldest first; every bump up to `settledEpoch` is older than that. */
  private readonly recentBumps: Array<{ epoch: number; at: number }> = [];
  private settledEpoch = 0;
  /** Keys whose background rebuild is under way (at most one each). */
  private readonly rebuilding = new Set<string>();

  constructor(options: RenderedDocumentCacheOptions) {
    this.staleMs = options.staleMs ?? 0;
    this.now = options.now ?? (() => performance.now());
    this.lru = new LRUCache<string, RenderedDocument, DocumentRecipe>({
      maxSize: options.maxBytes,
      sizeCalculation: sizeOf,
      ttl: options.maxAgeMs,
      fetchMethod: async (_key, _stale, { options: set, context }) => {
        options.onBuild?.();
        const epoch = this.epoch;
        const draft = await context.build();
        // A build kept for no time still answers everyone who waited on it (lru-cache needs a positive ttl).
        if (draft.keepMs !== undefined) set.ttl = Math.max(1, draft.keepMs);
        return encodeDocument(draft, context.tags, epoch);
      },
    });
  }

  /** Something the tagged documents show changed: each is rebuilt before it is served again. */
  invalidate(tag: string): void {
    this.epoch += 1;
    this.bumped.set(tag, this.epoch);
    if (this.staleMs > 0) this.recentBumps.push({ epoch: this.epoch, at: this.now() });
  }

  /** A value that changes whenever one of `tags` is bumped: a key for data several documents are built from. */
  stamp(tags: readonly string[]): number {
    let latest = 0;
    for (const tag of tags) latest = Math.max(latest, this.bumped.get(tag) ?? 0);
    return latest;
  }

  isFresh(doc: RenderedDocument): boolean {
    return this.stamp(doc.tags) <= doc.epoch;
  }

  /** The document when memory holds it fresh, without waiting for anything; else undefined (ask `get`). */
  peek(key: string): RenderedDocument | undefined {
    const doc = this.lru.get(key);
    return doc && this.isFresh(doc) ? doc : undefined;
  }

  /**
   * The document without waiting: fresh from memory, or, unless `need.fresh`, a copy that missed changes all under
   * `staleMs` old, while one rebuild runs in the background. Undefined: the request has to wait (`get`).
   */
  answerNow(key: string, recipe: DocumentRecipe, need: FreshnessNeed = {}): RenderedDocument | undefined {
    // Within maxAge; during a rebuild lru-cache answers the copy being replaced.
    const held = this.lru.get(key);
    if (!held) return undefined;
    if (this.isFresh(held)) return held;
    if (!recipe.staleWhileRebuilding || need.fresh || !this.missedOnlyRecentChanges(held)) return undefined;
    this.rebuildInBackground(key, recipe);
    return held;
  }

  /** Every bump since the document's build began is under `staleMs` old (bumps of other tags counted too: simpler, and safe). */
  private missedOnlyRecentChanges(doc: RenderedDocument): boolean {
    if (this.staleMs <= 0) return false;
    const horizon = this.now() - this.staleMs;
    while (this.recentBumps.length > 0 && this.recentBumps[0]!.at < horizon) this.settledEpoch = this.recentBumps.shift()!.epoch;
    return doc.epoch >= this.settledEpoch;
  }

  private rebuildInBackground(key: string, recipe: DocumentRecipe): void {
    if (this.rebuilding.has(key)) return;
    this.rebuilding.add(key);
    // A failed rebuild drops the stale copy (lru-cache's default): the next request waits for a build of its own.
    void this.lru
      .fetch(key, { context: recipe, forceRefresh: true })
      .catch(() => undefined)
      .finally(() => this.rebuilding.delete(key));
  }

  /**
   * The document: from memory (see `answerNow`), or built (one build per key at a time). A build that an event
   * overtook is built again; after a few rounds of events arriving faster than builds the last build is served (it is
   * at most one build old).
   */
  async get(key: string, recipe: DocumentRecipe, need: FreshnessNeed = {}): Promise<RenderedDocument> {
    const now = this.answerNow(key, recipe, need);
    if (now) return now;
    let doc: RenderedDocument | undefined;
    for (let round = 0; round < 3; round += 1) {
      const stale = this.lru.peek(key, { allowStale: true });
      doc = await this.lru.fetch(key, { context: recipe, forceRefresh: stale !== undefined && !this.isFresh(stale) });
      if (doc && this.isFresh(doc)) return doc;
    }
    if (!doc) throw new Error(`the document ${key} could not be built`);
    return doc;
  }

  /** Drops one document (its source is gone, or changed in a way no tag covers). */
  delete(key: string): void {
    this.lru.delete(key);
  }

  /** Bytes held, every coding counted (for metrics and tests). */
  get size(): number {
    return this.lru.calculatedSize;
  }
}
