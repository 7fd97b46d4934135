import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { encodeJson, encodeOncePerDocument, etagMatches, negotiateEncoding, sendEncodedJson } from './cached-json.ts';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br; q=0.0, gzip;q=0.5', 'gzip'],
    ['identity', 'identity'],
    ['*', 'gzip'],
    ['gzip;q=0', 'identity'],
  ])('%s → %s', (header, expected) => expect(negotiateEncoding(header)).toBe(expected));
});

describe('etagMatches (If-None-Match, weak comparison)', () => {
  it.each([
    [undefined, 'W/"a"', false],
    ['W/"a"', 'W/"a"', true],
    ['"a"', 'W/"a"', true],
    ['W/"a"', '"a"', true],
    ['"b", W/"a"', 'W/"a"', true],
    ['"b","c"', 'W/"a"', false],
    ['*', 'W/"a"', true],
    ['"a,b"', 'W/"a,b"', true],
    ['"ab"', 'W/"a"', false],
  ])('%s against %s → %s', (header, etag, expected) => expect(etagMatches(header, etag)).toBe(expected));
});

describe('encodeJson and sendEncodedJson', () => {
  it('keeps identity, gzip and brotli bytes of one document under one weak ETag, once per document object', async () => {
    const document = { plots: [1, 2, 3] };
    const body = await encodeJson(document);
    expect(body.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(JSON.parse(body.identity.toString())).toEqual(document);
    expect(JSON.parse(gunzipSync(body.gzip).toString())).toEqual(document);
    expect(JSON.parse(brotliDecompressSync(body.br).toString())).toEqual(document);
    const encode = encodeOncePerDocument();
    expect(await encode(document)).toBe(await encode(document));
    expect((await encode({ ...document })).etag).toBe(body.etag);
  });

  it('answers with the accepted encoding, Vary and Cache-Control, and 304 with no body on a matching If-None-Match', async () => {
    const body = await encodeJson({ hello: 'world' });
    const app = Fastify();
    app.get('/doc', async (request, reply) => sendEncodedJson(request, reply, body, { cacheControl: 'no-cache' }));
    const br = await app.inject({ url: '/doc', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding', 'cache-control': 'no-cache', etag: body.etag });
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual({ hello: 'world' });
    const plain = await app.inject({ url: '/doc', headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual({ hello: 'world' });
    const notModified = await app.inject({ url: '/doc', headers: { 'if-none-match': `"other", ${body.etag.slice(2)}` } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers['content-length']).toBeUndefined();
    await app.close();
  });
});
