import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { EventType } from '@pixel-atlas/contracts/events';
import { OWNER_COOKIE } from '@pixel-atlas/contracts/stats';
import { etagMatches } from '@pixel-atlas/service-kit/cached-json';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';
import type { OutgoingHttpHeader } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  RenderedDocumentCache,
  type DocumentRecipe,
  type RenderedDocument,
  type Representation,
} from '../domain/rendered-document-cache.ts';
import { answerHead, negotiateEncodingMemo, type AnswerHeads } from './cached-answer-head.ts';

declare module 'fastify' {
  interface FastifyInstance {
    renderedDocuments: RenderedDocuments;
  }
}

export interface RenderedDocuments {
  readonly cache: RenderedDocumentCache;
  /**
   * Answers the request with the document under `key`, from memory or built by `recipe` (once, however many requests
   * wait), and resolves to it (to count a view, say). The reply is written here: the route returns after it.
   */
  serve(request: FastifyRequest, reply: FastifyReply, key: string, recipe: DocumentRecipe): Promise<RenderedDocument>;
  /** Writes one document as the answer: 304 when the client holds it, else the coding it accepts best. */
  send(request: FastifyRequest, reply: FastifyReply, doc: RenderedDocument): void;
}

export interface RenderedDocumentsOptions {
  maxBytes: number;
  maxAgeMs: number;
}

/** `Cache-Control` of pages: a CDN may keep a copy for a second and serve it while it revalidates (r/place's board). */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=1, stale-while-revalidate=60';
/**
 * What the gateway itself allows, as the CDN's `s-maxage`: a document that missed a change is answered for up to a
 * second after it while one rebuild runs, so a purchase (which makes every page stale: pages show neighbours and
 * counts) does not make a crowd wait for a server render. The plot's owner always gets the page built after the change.
 */
const STALE_WHILE_REBUILDING_MS = 1000;
/** The events that change what public pages show (a plot appears, changes, or goes); others bump only `plot:<id>`. */
const PAGE_CHANGING_EVENTS = [
  'plots.plot.claimed',
  'plots.plot.updated',
  'plots.plot.published',
  'plots.plot.removed',
] as const satisfies readonly EventType[];

/**
 * The rendered-document cache of this replica, and the one way its documents are answered. Every replica follows the
 * `plots.>` and `map.layout.>` events itself (a plain subscription, as the public documents and share cards do): an
 * event that changes public pages bumps `plots` (or `map`), and every plot event its own tag `plot:<id>`, so what it
 * changed is rebuilt on the next request.
 */
export const renderedDocumentsPlugin = fp(
  async (app: FastifyInstance, opts: RenderedDocumentsOptions) => {
    const { builds } = defineMetrics(app.metrics, (m) => ({
      bytes: m.gauge({
        name: 'gateway_rendered_documents_bytes',
        help: 'Bytes the rendered-document cache holds (pages, sitemaps, share cards, API reference; every coding)',
        collect() {
          this.set(cache.size);
        },
      }),
      builds: m.counter({ name: 'gateway_rendered_document_builds_total', help: 'Rendered documents built (cache misses)' }),
    }));
    const cache = new RenderedDocumentCache({
      maxBytes: opts.maxBytes,
      maxAgeMs: opts.maxAgeMs,
      staleMs: STALE_WHILE_REBUILDING_MS,
      onBuild: () => builds.inc(),
    });

    const pageChanging = new Set(PAGE_CHANGING_EVENTS.map((type) => app.bus.subject(type)));
    const subscriptions = [
      app.bus.nc.subscribe(app.bus.subject('plots.>'), {
        callback: (_error, message) => {
          // A flag, a pending edit or a link check changes no public page: a flood of flags must not rebuild them all.
          if (pageChanging.has(message.subject)) cache.invalidate('plots');
          try {
            const plotId = message.json<{ data?: { plotId?: unknown } }>().data?.plotId;
            if (typeof plotId === 'string') cache.invalidate(`plot:${plotId}`);
          } catch {
            // Not JSON (a request on the plots subjects): 'plots' is bumped already.
          }
        },
      }),
      app.bus.nc.subscribe(app.bus.subject('map.layout.>'), { callback: () => cache.invalidate('map') }),
    ];
    app.addHook('onClose', async () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
    });

    /** Each representation's heads, built the first time it is sent: they live as long as its document. */
    const heads = new WeakMap<Representation, AnswerHeads>();
    const headsOf = (doc: RenderedDocument, representation: Representation): AnswerHeads => {
      let built = heads.get(representation);
      if (!built) {
        built = buildHeads(doc, representation, app.securityHeaders);
        heads.set(representation, built);
      }
      return built;
    };

    const send = (request: FastifyRequest, reply: FastifyReply, doc: RenderedDocument): void => {
      const representation = doc.representations[negotiateEncodingMemo(request.headers['accept-encoding'])];
      const notModified = doc.status === 200 && holds(request.headers['if-none-match'], doc);
      const head = answerHead(headsOf(doc, representation), notModified, reply.getHeaders(), INTERNAL_HEADERS.requestId, request.id);
      reply.hijack();
      // Node sends no body to a HEAD request, whatever is written: its Content-Length stays the GET's.
      if (notModified) reply.raw.writeHead(304, head).end();
      else reply.raw.writeHead(doc.status, head).end(representation.bytes);
    };

    const serve: RenderedDocuments['serve'] = async (request, reply, key, recipe) => {
      // An owner (the cookie their private link set) may have just saved: they see what they saved.
      const need = { fresh: request.cookies?.[OWNER_COOKIE] !== undefined };
      const doc = cache.answerNow(key, recipe, need) ?? (await cache.get(key, recipe, need));
      send(request, reply, doc);
      return doc;
    };

    app.decorate('renderedDocuments', { cache, serve, send } satisfies RenderedDocuments);
  },
  { name: 'gateway-rendered-documents', dependencies: ['gateway-security', 'pixel-atlas-nats', 'pixel-atlas-metrics'] },
);

/** If-None-Match names one of the document's tags (the exact string a browser sends back is checked first). */
function holds(ifNoneMatch: string | undefined, doc: RenderedDocument): boolean {
  if (ifNoneMatch === undefined) return false;
  if (doc.etags.includes(ifNoneMatch)) return true;
  return doc.etags.some((etag) => etagMatches(ifNoneMatch, etag));
}

/**
 * The 200 and 304 heads of one representation: the security headers (these routes write their own head), its
 * validator and caching, the document's own headers, and for the 200 its type, coding and length.
 */
function buildHeads(
  doc: RenderedDocument,
  representation: Representation,
  securityHeaders: ReadonlyArray<readonly [string, string]>,
): AnswerHeads {
  const shared: OutgoingHttpHeader[] = [];
  for (const [name, value] of securityHeaders) shared.push(name, value);
  shared.push('etag', representation.etag, 'cache-control', doc.cacheControl, 'vary', 'accept-encoding');
  for (const [name, value] of doc.headers) shared.push(name, value);
  const ok = [...shared, 'content-type', doc.contentType];
  if (representation.contentEncoding) ok.push('content-encoding', representation.contentEncoding);
  ok.push('content-length', String(representation.bytes.length));
  const names = new Set<string>();
  for (let i = 0; i < ok.length; i += 2) names.add(String(ok[i]).toLowerCase());
  return { ok, notModified: shared, names };
}
