import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, createTestStream, testServiceEnv, type TestDatabase, type TestStream } from '@pixel-atlas/service-kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

const UPSTREAM_TIMEOUT_MS = 300;

let db: TestDatabase;
let stream: TestStream;
let gateway: FastifyInstance;
let upstream: FastifyInstance;
let webDir: string;
/** The sockets proxied requests arrived on at the replica (health checks are not counted). */
const proxiedSockets = new Set<unknown>();

beforeAll(async () => {
  db = await createTestDatabase();
  stream = await createTestStream();
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-web-'));
  upstream = Fastify();
  upstream.get('/readyz', async () => ({ status: 'ready' }));
  for (const route of ['/api/map-layout', '/api/contact/ping']) {
    upstream.get(route, async (request) => {
      proxiedSockets.add(request.raw.socket);
      return { path: request.url };
    });
  }
  upstream.get('/api/contact/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, UPSTREAM_TIMEOUT_MS * 4));
    return { late: true };
  });
  await upstream.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
  gateway = await buildApp(
    loadEnv({ ...testServiceEnv(db, stream), CONTACT_URL: url, MAP_URL: url, WEB_DIST_DIR: webDir, UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) }),
  );
  await gateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
  await stream?.remove();
  await db?.drop();
  await rm(webDir, { recursive: true, force: true });
});

it('one kept-alive connection pool for every prefix: requests to one replica share its sockets', async () => {
  for (let i = 0; i < 20; i++) {
    const url = `${i % 2 ? '/api/contact/ping' : '/api/map-layout'}?i=${i}`;
    const response = await gateway.inject(url);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ path: url });
  }
  // One after another, 20 requests on two prefixes need one socket (an agent per prefix held one each).
  expect(proxiedSockets.size).toBe(1);
});

it('answers 502 when a replica is slower than UPSTREAM_TIMEOUT_MS, without waiting for it', async () => {
  const started = performance.now();
  const response = await gateway.inject('/api/contact/slow');
  expect(response.statusCode).toBe(502);
  expect(response.json().error.code).toBe('UPSTREAM_UNAVAILABLE');
  expect(performance.now() - started).toBeLessThan(UPSTREAM_TIMEOUT_MS * 3);
});
