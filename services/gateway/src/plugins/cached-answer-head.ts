import type { OutgoingHttpHeader } from 'node:http';
import { etagMatches, negotiateEncoding, type ContentEncoding } from '@pixel-atlas/service-kit/cached-json';
import type { CachedAnswer } from '../domain/public-document-cache.ts';

/** A response head as `writeHead` takes it flat: name, value, name, value... */
export type FlatHead = OutgoingHttpHeader[];

/** The two heads of one cached answer (a document in one encoding): its 200 and its 304. */
export interface AnswerHeads {
  ok: readonly OutgoingHttpHeader[];
  notModified: readonly OutgoingHttpHeader[];
  /** Every header name either head holds: a header a hook set for the request does not override these. */
  names: ReadonlySet<string>;
}

/**
 * The headers every answer of one cached document in one encoding carries, built once per answer object (the cache
 * keeps one per version and encoding): the security headers, the document's validator and caching headers, and for the
 * 200 its type, encoding and length. The 304 has no body, so no content headers (RFC 9110 §15.4.5).
 */
export function buildAnswerHeads(answer: CachedAnswer, securityHeaders: ReadonlyArray<readonly [string, string]>): AnswerHeads {
  const shared: OutgoingHttpHeader[] = [];
  for (const [name, value] of securityHeaders) shared.push(name, value);
  shared.push('etag', answer.etag, 'cache-control', answer.cacheControl, 'vary', 'accept-encoding');
  const ok = [...shared, 'content-type', 'application/json; charset=utf-8'];
  if (answer.contentEncoding) ok.push('content-encoding', answer.contentEncoding);
  ok.push('content-length', String(answer.bytes.length));
  const names = new Set<string>();
  for (let i = 0; i < ok.length; i += 2) names.add(String(ok[i]).toLowerCase());
  return { ok, notModified: shared, names };
}

/**
 * The head of one answer: the answer's own, then the headers set for this request so far (the rate limit's), then the
 * request id (the kit sets it in an onSend hook, which a response written this way does not run).
 */
export function answerHead(
  heads: AnswerHeads,
  notModified: boolean,
  requestHeaders: Record<string, OutgoingHttpHeader | undefined>,
  requestIdHeader: string,
  requestId: string,
): FlatHead {
  const head = (notModified ? heads.notModified : heads.ok).slice();
  for (const name in requestHeaders) {
    const value = requestHeaders[name];
    if (value !== undefined && !heads.names.has(name) && name !== requestIdHeader) head.push(name, value);
  }
  head.push(requestIdHeader, requestId);
  return head;
}

/**
 * A function of one header value remembered for the few values clients actually send (each browser family sends the
 * same Accept-Encoding on every request). Bounded: past `capacity` distinct values it starts over, so a client sending
 * a new value per request costs the plain computation and no memory.
 */
export function memoByHeaderValue<T>(compute: (value: string | undefined) => T, capacity = 64): (value: string | undefined) => T {
  let memo = new Map<string, T>();
  return (value) => {
    if (value === undefined) return compute(value);
    let result = memo.get(value);
    if (result === undefined) {
      result = compute(value);
      if (memo.size >= capacity) memo = new Map();
      memo.set(value, result);
    }
    return result;
  };
}

/** Accept-Encoding negotiated as the kit does (`q=0` refuses an encoding), remembered per header value. */
export const negotiateEncodingMemo: (acceptEncoding: string | undefined) => ContentEncoding = memoByHeaderValue(negotiateEncoding);

/**
 * If-None-Match against the current tag. A browser sends back the tag it was given, byte for byte: that string is a
 * match without parsing the list (weak comparison holds for identical tags); anything else is read in full.
 */
export function notModifiedSince(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch === etag || etagMatches(ifNoneMatch, etag);
}
