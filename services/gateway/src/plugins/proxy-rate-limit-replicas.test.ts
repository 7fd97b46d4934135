import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, createTestStream, testServiceEnv, type TestDatabase, type TestStream } from '@pixel-atlas/service-kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

const LIMIT = 5;
let db: TestDatabase;
let stream: TestStream;
let upstream: FastifyInstance;
let webDir: string;
const gateways: FastifyInstance[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  stream = await createTestStream();
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-web-'));
  upstream = Fastify();
  upstream.get('/readyz', async () => ({ status: 'ready' }));
  upstream.get('/api/map-layout', async () => ({ ok: true }));
  await upstream.listen({ port: 0, host: '127.0.0.1' });
  const mapUrl = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
  const env = loadEnv({
    ...testServiceEnv(db, stream),
    CONTACT_URL: mapUrl,
    MAP_URL: mapUrl,
    WEB_DIST_DIR: webDir,
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
  });
  for (let i = 0; i < 2; i += 1) {
    const gateway = await buildApp(env);
    await gateway.ready();
    gateways.push(gateway);
  }
});

afterAll(async () => {
  await Promise.allSettled(gateways.map((gateway) => gateway.close()));
  await upstream?.close();
  await stream?.remove();
  await db?.drop();
  await rm(webDir, { recursive: true, force: true });
});

const get = (gateway: FastifyInstance, ip: string) => gateway.inject({ method: 'GET', url: '/api/map-layout', remoteAddress: ip });

it(`two gateway replicas allow one client ${LIMIT} API requests a minute between them, as one does; the next is 429`, async () => {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i += 1) statuses.push((await get(gateways[i % 2], '192.0.2.40')).statusCode);
  expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
  const refused = await get(gateways[1], '192.0.2.40');
  expect(refused.statusCode).toBe(429);
  expect(refused.json().error.code).toBe('RATE_LIMITED');
  expect((await get(gateways[0], '192.0.2.41')).statusCode).toBe(200);
});
