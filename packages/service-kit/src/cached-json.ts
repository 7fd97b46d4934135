import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** One JSON document, serialised and compressed once, in every encoding served, with its validator. */
export interface EncodedJson {
  /** Weak: the gzip and brotli bytes are other representations of the same document, under the same tag. */
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** Brotli quality 5 is about as fast as gzip; a document that changes rarely and is fetched often may afford more. */
export async function encodeJson(document: unknown, options: { brotliQuality?: number } = {}): Promise<EncodedJson> {
  const identity = Buffer.from(JSON.stringify(document));
  const [gz, br] = await Promise.all([
    gzipAsync(identity, { level: 6 }),
    brotliAsync(identity, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? 5,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
  ]);
  const etag = `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  return { etag, identity, gzip: gz, br };
}

/**
 * Encodes each document object once, however often it is served: a cache hands out the same object
 * until its content changes, so the object is the version. Documents no longer referenced are dropped.
 */
export function encodeOncePerDocument(options: { brotliQuality?: number } = {}): (document: object) => Promise<EncodedJson> {
  const encoded = new WeakMap<object, Promise<EncodedJson>>();
  return (document) => {
    let body = encoded.get(document);
    if (!body) {
      body = encodeJson(document, options);
      encoded.set(document, body);
      body.catch(() => encoded.delete(document));
    }
    return body;
  };
}

/** Picks the best encoding the client accepts: brotli, then gzip (also for `*`); `q=0` refuses one. */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

/**
 * If-None-Match as RFC 9110 §13.1.2 reads it: `*`, or a list of entity tags compared weakly
 * (`W/"a"` matches `"a"`), so a 304 answers any representation of the same document.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const match of ifNoneMatch.matchAll(ENTITY_TAG)) {
    if (`"${match[1]}"` === opaque) return true;
  }
  return false;
}

/**
 * Answers with the encoded document: 304 when If-None-Match matches, otherwise the bytes in the encoding
 * the client accepts (a Buffer skips Fastify's serialiser: the document was serialised when encoded).
 */
export function sendEncodedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: EncodedJson,
  options: { cacheControl: string },
): FastifyReply {
  reply.header('etag', body.etag).header('cache-control', options.cacheControl).header('vary', 'accept-encoding');
  // A 304 has no body and must not announce one (no content-length of a serialised null).
  if (etagMatches(request.headers['if-none-match'], body.etag)) return reply.status(304).send();
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  reply.header('content-type', 'application/json; charset=utf-8');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(body[encoding]);
}
