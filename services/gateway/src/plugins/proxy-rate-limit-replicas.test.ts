import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

const LIMIT = 5;
let upstream: FastifyInstance;
let webDir: string;
let mapUrl: string;
beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-web-'));
  upstream = Fastify();
  upstream.get('/readyz', async () => ({ status: 'ready' }));
  upstream.get('/api/map-layout', async () => ({ ok: true }));
  await upstream.listen({ port: 0, host: '127.0.0.1' });
  mapUrl = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await upstream?.close();
  await rm(webDir, { recursive: true, force: true });
});
const gateways = servicePerFile(
  (env) => buildApp(loadEnv({ ...env, CONTACT_URL: mapUrl, MAP_URL: mapUrl, WEB_DIST_DIR: webDir, RATE_LIMIT_PER_MINUTE: String(LIMIT) })),
  { replicas: 2 },
);

const get = (gateway: FastifyInstance, ip: string) => gateway.inject({ method: 'GET', url: '/api/map-layout', remoteAddress: ip });

it(`two gateway replicas allow one client ${LIMIT} API requests a minute between them, as one does; the next is 429`, async () => {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i += 1) statuses.push((await get(gateways.replica(i % 2), '192.0.2.40')).statusCode);
  expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
  const refused = await get(gateways.replica(1), '192.0.2.40');
  expect(refused.statusCode).toBe(429);
  expect(refused.json().error.code).toBe('RATE_LIMITED');
  expect((await get(gateways.replica(0), '192.0.2.41')).statusCode).toBe(200);
});
