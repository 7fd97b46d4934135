import http from 'node:http';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { normaliseRequestPath } from './admin-auth.ts';

const bed = testBedPerFile();
let upstream: FastifyInstance;
let gateway: FastifyInstance;
let port: number;
let upstreamHits = 0;

beforeAll(async () => {
  // Stands in for the map and moderation services: it answers anything it is sent.
  upstream = Fastify();
  upstream.all('/*', async (request) => {
    if (request.url.startsWith('/api/')) upstreamHits++;
    return { url: request.url };
  });
  await upstream.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
  gateway = await buildApp(loadEnv({ ...bed.env, CONTACT_URL: url, MAP_URL: url, MODERATION_URL: url, PLOTS_URL: url }));
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as { port: number }).port;
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

/** Over a real socket with the path byte for byte as written (inject() would normalise it first). */
function send(method: string, rawPath: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path: rawPath, headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(method === 'GET' ? undefined : '{}');
  });
}

const VARIANTS = [
  '/api/admin/generate-map',
  '/api/%61dmin/generate-map',
  '/api/%2561dmin/generate-map',
  '/api/admin/%67enerate-map',
  '/api//admin/generate-map',
  '/api///admin//generate-map',
  '/API/admin/generate-map',
  '/api/ADMIN/generate-map',
  '/api/admin/../admin/generate-map',
  '/api/x/../admin/generate-map',
  '/api/./admin/generate-map',
  '/api/admin;x=1/generate-map',
  '/api/admin/generate-map;x=1',
  '/api;x/admin/generate-map',
  '/api/admin%2Fgenerate-map',
  '/api/admin/login/../generate-map',
  '/api/admin/login/..%2Fgenerate-map',
  '/api\\admin\\generate-map',
  '/api/admin',
];

describe('the admin guard', () => {
  it('answers 401 to every spelling of an admin path without a session, and forwards none of them', async () => {
    const before = upstreamHits;
    for (const rawPath of VARIANTS) {
      for (const method of ['POST', 'GET']) {
        const response = await send(method, rawPath, { 'sec-fetch-site': 'same-origin' });
        expect(response.status, `${method} ${rawPath}`).toBe(401);
        expect(JSON.parse(response.body).error.code, `${method} ${rawPath}`).toBe('UNAUTHENTICATED');
      }
    }
    expect(upstreamHits).toBe(before);
  });

  it('refuses a cross-site state-changing request on every spelling (403)', async () => {
    for (const rawPath of VARIANTS) {
      const response = await send('POST', rawPath, { origin: 'https://evil.example' });
      expect(response.status, rawPath).toBe(403);
    }
  });

  it('still lets the sign-in route and non-admin paths through', async () => {
    const login = await send('POST', '/api/admin/login', { 'sec-fetch-site': 'same-origin' });
    expect(login.status).toBe(400); // reached the route: the empty body fails validation
    expect((await send('GET', '/api/map-layout')).status).toBe(200);
    expect((await send('GET', '/api/administrators')).status).toBe(404);
  });
});

describe('normaliseRequestPath', () => {
  it('decodes, drops empty, dot and ;param segments, resolves .. and lowercases', () => {
    expect(normaliseRequestPath('/api/%61dmin/x?y=1')).toBe('/api/admin/x');
    expect(normaliseRequestPath('/api//admin/./x;p=1/../y')).toBe('/api/admin/y');
    expect(normaliseRequestPath('/API/Admin%2Fx')).toBe('/api/admin/x');
    expect(normaliseRequestPath('/../../api/admin')).toBe('/api/admin');
    expect(normaliseRequestPath('/user/100%')).toBe('/user/100%');
  });

  it('a path already normal is its own normal form (query cut off); anything else takes the full reading', () => {
    expect(normaliseRequestPath('/api/map-layout')).toBe('/api/map-layout');
    expect(normaliseRequestPath('/api/plots?format=compact')).toBe('/api/plots');
    expect(normaliseRequestPath('/api/manage/tok_en-1#x')).toBe('/api/manage/tok_en-1');
    expect(normaliseRequestPath('/api/map-layout/../admin/me')).toBe('/api/admin/me');
    expect(normaliseRequestPath('/api/map-layout/')).toBe('/api/map-layout');
    expect(normaliseRequestPath('/api/Admin/me?x=1')).toBe('/api/admin/me');
    expect(normaliseRequestPath('/api/x;p=1/admin')).toBe('/api/x/admin');
    expect(normaliseRequestPath('/')).toBe('/');
    expect(normaliseRequestPath('?a=b')).toBe('/');
  });
});
