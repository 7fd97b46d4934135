import { describe, expect, it } from 'vitest';
import { answerHead, buildAnswerHeads, memoByHeaderValue, negotiateEncodingMemo, notModifiedSince } from './cached-answer-head.ts';

const security: Array<[string, string]> = [
  ['Content-Security-Policy', "default-src 'self'"],
  ['X-Frame-Options', 'SAMEORIGIN'],
];
const answer = { etag: 'W/"v1"', cacheControl: 'no-cache', bytes: Buffer.from('{"a":1}'), contentEncoding: 'br' };

/** A flat head as name → values, names lowercased. */
function read(head: unknown[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < head.length; i += 2) (out[String(head[i]).toLowerCase()] ??= []).push(String(head[i + 1]));
  return out;
}

describe('cached answer heads', () => {
  it('the 200 carries the security, validator and content headers; the 304 the same without content headers', () => {
    const heads = buildAnswerHeads(answer, security);
    expect(read(answerHead(heads, false, {}, 'x-request-id', 'r1'))).toEqual({
      'content-security-policy': ["default-src 'self'"],
      'x-frame-options': ['SAMEORIGIN'],
      etag: ['W/"v1"'],
      'cache-control': ['no-cache'],
      vary: ['accept-encoding'],
      'content-type': ['application/json; charset=utf-8'],
      'content-encoding': ['br'],
      'content-length': ['7'],
      'x-request-id': ['r1'],
    });
    expect(read(answerHead(heads, true, {}, 'x-request-id', 'r2'))).toEqual({
      'content-security-policy': ["default-src 'self'"],
      'x-frame-options': ['SAMEORIGIN'],
      etag: ['W/"v1"'],
      'cache-control': ['no-cache'],
      vary: ['accept-encoding'],
      'x-request-id': ['r2'],
    });
    const identity = buildAnswerHeads({ ...answer, contentEncoding: undefined }, security);
    expect(read(answerHead(identity, false, {}, 'x-request-id', 'r3'))['content-encoding']).toBeUndefined();
  });

  it("adds the request's own headers (the rate limit's) once each; the answer's headers and the request id win", () => {
    const heads = buildAnswerHeads(answer, security);
    const head = read(
      answerHead(
        heads,
        false,
        {
          'x-ratelimit-limit': 600,
          'x-ratelimit-remaining': 599,
          'cache-control': 'private',
          'x-frame-options': 'DENY',
          'x-request-id': 'stale',
          unset: undefined,
        },
        'x-request-id',
        'r4',
      ),
    );
    expect(head['x-ratelimit-limit']).toEqual(['600']);
    expect(head['x-ratelimit-remaining']).toEqual(['599']);
    expect(head['cache-control']).toEqual(['no-cache']);
    expect(head['x-frame-options']).toEqual(['SAMEORIGIN']);
    expect(head['x-request-id']).toEqual(['r4']);
    expect(head.unset).toBeUndefined();
  });

  it('each request gets its own copy: the prebuilt heads never grow', () => {
    const heads = buildAnswerHeads(answer, security);
    const length = heads.ok.length;
    answerHead(heads, false, { 'x-ratelimit-limit': 1 }, 'x-request-id', 'a');
    answerHead(heads, true, { 'x-ratelimit-limit': 1 }, 'x-request-id', 'b');
    expect(heads.ok.length).toBe(length);
    expect(heads.notModified.length).toBe(length - 6);
  });
});

describe('header value memo', () => {
  it('negotiates as the kit does, q=0 included, and remembers each value', () => {
    expect(negotiateEncodingMemo(undefined)).toBe('identity');
    expect(negotiateEncodingMemo('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncodingMemo('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncodingMemo('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncodingMemo('br;q=0, gzip;q=0')).toBe('identity');
    expect(negotiateEncodingMemo('*')).toBe('gzip');
  });

  it('computes each value once and holds at most its capacity', () => {
    const seen: Array<string | undefined> = [];
    const memo = memoByHeaderValue((value) => {
      seen.push(value);
      return value?.length ?? 0;
    }, 2);
    expect([memo('a'), memo('a'), memo('bb'), memo('bb')]).toEqual([1, 1, 2, 2]);
    expect(seen).toEqual(['a', 'bb']);
    expect(memo('ccc')).toBe(3); // past capacity: starts over with this value
    expect(memo('a')).toBe(1);
    expect(seen).toEqual(['a', 'bb', 'ccc', 'a']);
    expect(memo(undefined)).toBe(0);
  });
});

describe('If-None-Match', () => {
  it('the tag itself, a list holding it, its strong form and * match; another tag or none does not', () => {
    expect(notModifiedSince('W/"v1"', 'W/"v1"')).toBe(true);
    expect(notModifiedSince('"v0", W/"v1"', 'W/"v1"')).toBe(true);
    expect(notModifiedSince('"v1"', 'W/"v1"')).toBe(true);
    expect(notModifiedSince('*', 'W/"v1"')).toBe(true);
    expect(notModifiedSince('W/"v2"', 'W/"v1"')).toBe(false);
    expect(notModifiedSince(undefined, 'W/"v1"')).toBe(false);
    expect(notModifiedSince('', 'W/"v1"')).toBe(false);
  });
});
