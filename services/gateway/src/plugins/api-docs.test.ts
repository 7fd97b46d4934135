import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { API_DOCS_RATE_LIMIT_PER_MINUTE } from './api-docs.ts';

const bed = testBedPerFile();
let gateway: FastifyInstance;
let webDir: string;
const services: Array<{ app: FastifyInstance; asked: number }> = [];

/** A service's own `/openapi.json` (one path of its own), counting how often the gateway asks for it. */
function documentedService(name: string) {
  const service = { app: Fastify(), asked: 0 };
  service.app.get('/openapi.json', async () => {
    service.asked += 1;
    return {
      openapi: '3.1.0',
      info: { title: name, version: '1.0.0' },
      paths: { [`/api/${name}-thing`]: { get: { operationId: `${name}Thing`, responses: { 200: { description: 'ok' } } } } },
    };
  });
  services.push(service);
  return service;
}
const urlOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-web-'));
  const [contact, plots, map] = [documentedService('contact'), documentedService('plots'), documentedService('map')];
  for (const { app } of services) await app.listen({ port: 0, host: '127.0.0.1' });
  gateway = await buildApp(
    loadEnv({ ...bed.env, CONTACT_URL: urlOf(contact.app), PLOTS_URL: urlOf(plots.app), MAP_URL: urlOf(map.app), WEB_DIST_DIR: webDir }),
  );
  await gateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(services.map(({ app }) => app.close()));
  await rm(webDir, { recursive: true, force: true });
});

const from = (ip: string, url: string) => gateway.inject({ method: 'GET', url, remoteAddress: ip });
const asked = () => services.map((s) => s.asked);

describe('the API documents', () => {
  it('are merged once and served from memory: a crowd of requests asks each service once', async () => {
    const before = asked();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => from(`203.0.113.${i + 1}`, ['/api/openapi.json', '/api/docs/json', '/api/docs/yaml'][i % 3]!)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
    const doc = answers[0]!.json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/contact-thing', '/api/plots-thing', '/api/map-thing']));
    expect(answers[1]!.json()).toEqual(doc);
    expect(answers[2]!.body).toContain('/api/plots-thing');
    expect(asked().map((n, i) => n - before[i]!)).toEqual([1, 1, 1]);
  });

  it(`are limited per client: ${API_DOCS_RATE_LIMIT_PER_MINUTE} a minute across the three URLs, then 429; another client is still served`, async () => {
    const urls = ['/api/openapi.json', '/api/docs/json', '/api/docs/yaml'];
    const statuses: number[] = [];
    for (let i = 0; i < API_DOCS_RATE_LIMIT_PER_MINUTE; i++) statuses.push((await from('198.51.100.7', urls[i % 3]!)).statusCode);
    expect(statuses).toEqual(Array(API_DOCS_RATE_LIMIT_PER_MINUTE).fill(200));
    for (const url of urls) {
      const refused = await from('198.51.100.7', url);
      expect(refused.statusCode, url).toBe(429);
      expect(refused.json().error.code).toBe('RATE_LIMITED');
      expect(refused.json().error.message).toMatch(/^Too many requests\. Please wait \d+ seconds and try again\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // An IPv6 client counts by its /64: another address in the same /64 is the same client, another /64 is not.
    for (let i = 0; i < API_DOCS_RATE_LIMIT_PER_MINUTE; i++) await from(`2001:db8:1:2::${(i + 1).toString(16)}`, '/api/openapi.json');
    expect((await from('2001:db8:1:2::ffff', '/api/openapi.json')).statusCode).toBe(429);
    expect((await from('2001:db8:1:3::1', '/api/openapi.json')).statusCode).toBe(200);
    expect((await from('198.51.100.8', '/api/openapi.json')).statusCode).toBe(200);
    // The page itself and its assets are not documents: still served to the limited client.
    expect((await from('198.51.100.7', '/api/docs/')).statusCode).toBe(200);
  });

  it('are sent compressed with a validator: a client holding the document gets a 304, and both addresses are one document', async () => {
    const before = asked();
    const br = await gateway.inject({ url: '/api/openapi.json', remoteAddress: '203.0.113.60', headers: { 'accept-encoding': 'br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    const doc = JSON.parse(brotliDecompressSync(br.rawPayload).toString());
    expect(Object.keys(doc.paths)).toContain('/api/plots-thing');
    const etag = String(br.headers.etag);
    for (const url of ['/api/openapi.json', '/api/docs/json']) {
      const held = await gateway.inject({
        url,
        remoteAddress: '203.0.113.61',
        headers: { 'accept-encoding': 'br', 'if-none-match': etag },
      });
      expect(held.statusCode, url).toBe(304);
      expect(held.rawPayload.length).toBe(0);
    }
    const plain = await from('203.0.113.62', '/api/docs/json');
    expect(plain.json()).toEqual(doc);
    expect(plain.headers['content-security-policy']).toBeDefined();
    expect(asked()).toEqual(before); // all from memory
  });

  it('are merged again when the replicas behind the gateway change (a deploy)', async () => {
    const before = asked();
    gateway.renderedDocuments.cache.invalidate('replicas');
    expect((await from('203.0.113.70', '/api/openapi.json')).statusCode).toBe(200);
    expect(asked().map((n, i) => n - before[i]!)).toEqual([1, 1, 1]);
  });
});
