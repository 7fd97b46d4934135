import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { encodeJson, sendEncodedJson } from '@pixel-atlas/service-kit/cached-json';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { PublicDocumentCache } from '../domain/public-document-cache.ts';
import { loadEnv } from '../env.ts';
import { UpstreamPool, serviceCaller } from '../upstreams.ts';

const bed = testBedPerFile();
let operator: NatsConnection;
let gateway: FastifyInstance;
let webDir: string;
const upstreams: FastifyInstance[] = [];

/** A plots or map replica serving one document the way the services do (ETag, 304), counting what reaches it. */
function documentService(paths: string[]) {
  const state = { version: 1, requests: 0, conditional: 0, down: false };
  const app = Fastify();
  app.get('/readyz', async () => ({ status: 'ready' }));
  for (const url of paths) {
    app.get(url.replace(/\?.*/, ''), async (request, reply) => {
      state.requests += 1;
      if (state.down) return reply.status(503).send({ error: { code: 'UNAVAILABLE', message: 'down' } });
      if (request.headers['if-none-match']) state.conditional += 1;
      const body = await encodeJson({ path: request.url, version: state.version, padding: 'x'.repeat(2000) });
      return sendEncodedJson(request, reply, body, { cacheControl: 'no-cache' });
    });
  }
  upstreams.push(app);
  return { app, state };
}
const urlOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const plots = documentService(['/api/plots']);
const map = documentService(['/api/map-layout']);
/** Long enough that within a test only an event can expire a copy. */
const MAX_AGE_MS = 60_000;

beforeAll(async () => {
  operator = await connect(bed.stream.connectOptions());
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-web-'));
  for (const { app } of [plots, map]) await app.listen({ port: 0, host: '127.0.0.1' });
  gateway = await buildApp(
    loadEnv({
      ...bed.env,
      PLOTS_URL: urlOf(plots.app),
      MAP_URL: urlOf(map.app),
      CONTACT_URL: 'http://127.0.0.1:9',
      WEB_DIST_DIR: webDir,
      PUBLIC_DOCUMENT_MAX_AGE_MS: String(MAX_AGE_MS),
      RATE_LIMIT_PER_MINUTE: '20',
    }),
  );
  await gateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(upstreams.map((u) => u.close()));
  await operator?.close();
  await rm(webDir, { recursive: true, force: true });
});

let client = 0;
/** Each test its own client address, so the gateway's per-client limit is its own business. */
const visitor = () => `198.51.100.${(client += 1)}`;
const get = (url: string, headers: Record<string, string> = {}, ip = visitor()) =>
  gateway.inject({ method: 'GET', url, headers: { 'x-forwarded-for': ip, ...headers }, remoteAddress: ip });

async function eventually(check: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const announce = (type: string) => operator.publish(`${bed.stream.subjectPrefix}${type}`, JSON.stringify({ type, data: { plotId: 'p' } }));

/**
 * Sends a plots event and waits until this gateway heard it, so a case starts from no copy in memory whatever the cases
 * before it left. Any plots event drops every copy, the map's too: its next request reaching the map shows it.
 */
async function dropCopies() {
  await get('/api/map-layout'); // a copy to watch
  announce('plots.plot.updated');
  await eventually(async () => {
    const before = map.state.requests;
    await get('/api/map-layout');
    return map.state.requests > before;
  });
}

describe('the public documents answered from the gateway: one copy per encoding, kept fresh', () => {
  it('a crowd reading the plot list costs its service one request per encoding, with the service bytes and ETag', async () => {
    await dropCopies();
    const before = plots.state.requests;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => get('/api/plots', { 'accept-encoding': ['br', 'gzip', 'identity'][i % 3]! })),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(plots.state.requests - before).toBe(3);
    const br = answers[0]!;
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    const document = JSON.parse(brotliDecompressSync(br.rawPayload).toString());
    expect(document).toMatchObject({ path: '/api/plots', version: plots.state.version });
    expect(answers[1]!.headers['content-encoding']).toBe('gzip');
    expect(answers[2]!.headers['content-encoding']).toBeUndefined();
    expect(answers[2]!.json()).toEqual(document);
    // The service's own bytes and validator, so a browser's earlier copy still gets its 304 here.
    const direct = await fetch(`${urlOf(plots.app)}/api/plots`, { headers: { 'accept-encoding': 'identity' } });
    expect(br.headers.etag).toBe(direct.headers.get('etag'));
    expect(answers[2]!.body).toBe(await direct.text());
    const revalidated = await get('/api/plots', { 'if-none-match': String(br.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(plots.state.requests - before).toBe(3 + 1); // the one direct fetch above; the 304 cost the service nothing
  });

  it('an event that changes the plots is seen by the next request: no stale list after a claim', async () => {
    expect((await get('/api/plots')).json().version).toBe(plots.state.version);
    const before = plots.state.requests;
    expect((await get('/api/plots')).json().version).toBe(plots.state.version);
    expect(plots.state.requests).toBe(before);
    plots.state.version += 1;
    announce('plots.plot.claimed');
    await eventually(async () => (await get('/api/plots')).json().version === plots.state.version);
  });

  it('without any event, a copy is revalidated with the service after its maximum age (a 304 keeps the bytes)', async () => {
    let now = 0;
    const callService = serviceCaller(new Map([['map', new UpstreamPool('map', [urlOf(map.app)])]]), {
      internalToken: 'x',
      timeoutMs: 5000,
    });
    const cache = new PublicDocumentCache({ callService, maxAgeMs: 1000, now: () => now });
    const context = { requestId: 'r', clientIp: '198.51.100.250' };
    const { requests, conditional } = map.state;
    const first = await cache.get('/api/map-layout', 'br', context);
    expect((await cache.get('/api/map-layout', 'br', context))?.bytes).toBe(first?.bytes);
    expect(map.state.requests).toBe(requests + 1);
    now = 999;
    await cache.get('/api/map-layout', 'br', context);
    expect(map.state.requests).toBe(requests + 1);
    now = 1000;
    const again = await cache.get('/api/map-layout', 'br', context);
    expect(map.state.requests).toBe(requests + 2);
    expect(map.state.conditional).toBe(conditional + 1);
    expect(again?.bytes).toBe(first?.bytes); // the service said 304: the same bytes are kept
    callService.close();
  });

  it('when the service cannot answer, the request is proxied as before and gets the service answer', async () => {
    plots.state.down = true;
    announce('plots.plot.removed');
    await eventually(async () => (await get('/api/plots')).statusCode === 503);
    plots.state.down = false;
    expect((await get('/api/plots')).statusCode).toBe(200);
    // The cache stepped aside for this copy until its age or the next event: the next event, for the cases after it.
    await dropCopies();
  });
});

describe('the public documents answered from the gateway: rate limit, headers and connections as for a proxied answer', () => {
  it('other queries and paths are proxied, and the per-client limit still counts cached answers', async () => {
    const before = plots.state.requests;
    await get('/api/plots?format=other');
    expect(plots.state.requests).toBe(before + 1);
    const ip = visitor();
    const answers = [];
    for (let i = 0; i < 21; i += 1) answers.push(await get('/api/map-layout', {}, ip));
    expect(answers.slice(0, 20).every((a) => a.statusCode === 200)).toBe(true);
    expect(answers.slice(0, 20).map((a) => a.headers['x-ratelimit-remaining'])).toEqual(
      Array.from({ length: 20 }, (_, i) => String(19 - i)),
    );
    const refused = answers[20]!;
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    // The refusal is sent by Fastify, not from the prebuilt head: it gets the security headers on the way out.
    expect(refused.headers).toMatchObject({ ...securityHeaders(), 'x-ratelimit-remaining': '0', 'retry-after': '60' });
  });

  it("an answer from memory has the head a proxied answer of the same route has, with the request's own values", async () => {
    const ip = visitor();
    const br = { 'accept-encoding': 'br' };
    await get('/api/map-layout', br, ip); // in memory from here on
    const before = map.state.requests;
    const cached = await get('/api/map-layout', br, ip);
    const proxied = await get('/api/map-layout?format=other', br, ip);
    expect(map.state.requests).toBe(before + 1);
    const names = (headers: Record<string, unknown>) =>
      Object.keys(headers)
        .filter((name) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
        .sort();
    expect(names(cached.headers)).toEqual(names(proxied.headers));
    expect(cached.headers).toMatchObject({
      ...securityHeaders(),
      'content-encoding': 'br',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(cached.rawPayload.length),
      vary: 'accept-encoding',
      'x-ratelimit-limit': '20',
      'x-ratelimit-remaining': '18',
    });
    expect(proxied.headers['x-ratelimit-remaining']).toBe('17');
    expect(cached.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(proxied.headers['x-request-id']).not.toBe(cached.headers['x-request-id']);

    const notModified = await get('/api/map-layout', { ...br, 'if-none-match': String(cached.headers.etag) }, ip);
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers).toMatchObject({ ...securityHeaders(), etag: cached.headers.etag, vary: 'accept-encoding' });
    for (const name of ['content-type', 'content-length', 'content-encoding']) expect(notModified.headers[name]).toBeUndefined();
    expect(notModified.headers['x-ratelimit-remaining']).toBe('16');

    const head = await gateway.inject({
      method: 'HEAD',
      url: '/api/map-layout',
      headers: { 'x-forwarded-for': ip, ...br },
      remoteAddress: ip,
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(cached.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });

  it('over a kept-alive connection, answers from memory and proxied ones follow each other on one socket', async () => {
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const fetchRaw = (url: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }>((resolve, reject) => {
        const request = http.get(`${urlOf(gateway)}${url}`, { agent, headers }, (response) => {
          sockets.add(response.socket);
          let bytes = 0;
          response.on('data', (chunk: Buffer) => (bytes += chunk.length));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes }));
        });
        request.on('error', reject);
      });
    try {
      const first = await fetchRaw('/api/map-layout', { 'accept-encoding': 'gzip' });
      const etag = String(first.headers.etag);
      const answers = [
        first,
        await fetchRaw('/api/map-layout', { 'if-none-match': etag }),
        await fetchRaw('/api/map-layout?format=other'),
        await fetchRaw('/api/map-layout', { 'accept-encoding': 'gzip' }),
        await fetchRaw('/api/map-layout', { 'if-none-match': etag }),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 304, 200, 200, 304]);
      expect(answers[3]!.bytes).toBe(Number(answers[3]!.headers['content-length']));
      expect(answers[3]!.headers['content-encoding']).toBe('gzip');
      expect(answers[4]!.bytes).toBe(0);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});

/** The security headers every answer carries, as the gateway computed them at start. */
function securityHeaders(): Record<string, string> {
  return Object.fromEntries(gateway.securityHeaders.map(([name, value]) => [name.toLowerCase(), value]));
}
