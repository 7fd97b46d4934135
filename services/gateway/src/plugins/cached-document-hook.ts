import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { PublicDocumentCache, type CachedAnswer } from '../domain/public-document-cache.ts';
import type { CallService } from '../upstreams.ts';
import { answerHead, buildAnswerHeads, negotiateEncodingMemo, notModifiedSince, type AnswerHeads } from './cached-answer-head.ts';

export interface CachedDocumentHookOptions {
  app: FastifyInstance;
  callService: CallService;
  /** How long a copy is answered without asking its service again. */
  maxAgeMs: number;
}

/**
 * The proxy's preHandler for the public documents (`PublicDocumentCache.documentFor`): a copy memory holds is answered
 * from memory with a head built once per version; anything else goes on to the proxy. Copies are dropped by the same
 * `plots.>` and `map.layout.>` events the live map hears, on every gateway replica.
 */
export function cachedDocumentHook({ app, callService, maxAgeMs }: CachedDocumentHookOptions) {
  const documents = new PublicDocumentCache({ callService, maxAgeMs });
  // Every replica hears every change itself (a plain subscription, as the live map does).
  const changes = ['plots.>', 'map.layout.>'].map((subject) =>
    app.bus.nc.subscribe(app.bus.subject(subject), { callback: () => documents.invalidate() }),
  );
  /** Each answer's heads, built the first time it is served: the answer object lives as long as its version. */
  const heads = new WeakMap<CachedAnswer, AnswerHeads>();
  /**
   * The whole head in one `writeHead` with a flat list, outside Fastify's reply: the answer's headers (security
   * headers included) are built once per version and encoding, not set one by one per request and copied again when
   * the head is written. Fastify's onResponse hooks (metrics) and its request log still run: they follow the
   * response's 'finish', which a hijacked reply keeps. The onSend hooks do not: the kit's request id header is written
   * here, and the other ones (owner pages' private headers, cookies) have nothing to do for these two paths.
   */
  const answerFromMemory = (request: FastifyRequest, reply: FastifyReply, cached: CachedAnswer): void => {
    let answerHeads = heads.get(cached);
    if (!answerHeads) {
      answerHeads = buildAnswerHeads(cached, app.securityHeaders);
      heads.set(cached, answerHeads);
    }
    const notModified = notModifiedSince(request.headers['if-none-match'], cached.etag);
    const head = answerHead(answerHeads, notModified, reply.getHeaders(), INTERNAL_HEADERS.requestId, request.id);
    reply.hijack();
    if (notModified) reply.raw.writeHead(304, head).end();
    else reply.raw.writeHead(200, head).end(cached.bytes);
  };
  // Callback style with a synchronous path: a document memory holds fresh is answered without a promise. The hook
  // returns nothing (a returned reply is a thenable Fastify would wait on) and does not call done once it answered.
  const serveCachedDocument = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const document = PublicDocumentCache.documentFor(request.method, request.url);
    if (!document) {
      done();
      return;
    }
    const encoding = negotiateEncodingMemo(request.headers['accept-encoding']);
    const fresh = documents.peek(document, encoding);
    if (fresh) {
      answerFromMemory(request, reply, fresh);
      return;
    }
    documents.get(document, encoding, { requestId: request.id, clientIp: request.clientIp }).then(
      // null: the service could not give a copy, so the request is proxied as before, its answer included.
      (cached) => (cached ? answerFromMemory(request, reply, cached) : done()),
      (error: unknown) => done(error as Error),
    );
  };

  return {
    hook: serveCachedDocument,
    stop: () => {
      for (const subscription of changes) subscription.unsubscribe();
    },
  };
}
