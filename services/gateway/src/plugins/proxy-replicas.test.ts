import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import { eventually } from '@pixel-atlas/service-kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

const bed = testBedPerFile();
let gateway: FastifyInstance;
let webDir: string;
const replicas: FastifyInstance[] = [];

async function replica(name: string): Promise<FastifyInstance> {
  const app = Fastify();
  app.get('/readyz', async () => ({ status: 'ready' }));
  app.get('/api/map-layout', async () => ({ servedBy: name }));
  app.post('/api/admin/generate-map', async () => ({ servedBy: name }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  replicas.push(app);
  return app;
}
const urlOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-web-'));
  const [a, b, c] = [await replica('a'), await replica('b'), await replica('c')];
  gateway = await buildApp(loadEnv({ ...bed.env, CONTACT_URL: urlOf(a), MAP_URL: [a, b, c].map(urlOf).join(','), WEB_DIST_DIR: webDir }));
  await gateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(replicas.map((r) => r.close()));
  await rm(webDir, { recursive: true, force: true });
});

it('spreads reads over replicas, and a replica going away costs no failed GET', async () => {
  const [a, b, c] = replicas.slice(0, 3).map(urlOf);
  const servedBy = new Set<string>();
  for (let i = 0; i < 9; i++) servedBy.add((await gateway.inject('/api/map-layout')).json().servedBy);
  expect(servedBy).toEqual(new Set(['a', 'b', 'c']));

  await replicas[1]?.close(); // b goes away without the gateway knowing yet
  const statuses: number[] = [];
  const after = new Set<string>();
  for (let i = 0; i < 30; i++) {
    const response = await gateway.inject('/api/map-layout');
    statuses.push(response.statusCode);
    if (response.statusCode === 200) after.add(response.json().servedBy);
  }
  expect(statuses.every((s) => s === 200)).toBe(true);
  expect(after).toEqual(new Set(['a', 'c']));

  // Operators (and the test stacks) see which replicas the gateway's health checks found ready.
  const readiness = async () => {
    const text = await gateway.metrics.metrics();
    return Object.fromEntries(
      [...text.matchAll(/^gateway_upstream_replica_ready\{[^}]*replica="([^"]+)"[^}]*\} (\d)$/gm)].map((m) => [m[1], Number(m[2])]),
    );
  };
  await eventually(async () => (await readiness())[b!] === 0, 10_000);
  expect(await readiness()).toMatchObject({ [a!]: 1, [b!]: 0, [c!]: 1 });
});

it('a GET that times out on a replica is answered by another (the timed-out try fails once, not twice)', async () => {
  // A replica that is ready but never answers: as a container whose IP went away mid-request looks to the gateway.
  const stuck = Fastify({ forceCloseConnections: true });
  stuck.get('/readyz', async () => ({ status: 'ready' }));
  stuck.get('/api/map-layout', () => new Promise(() => {}));
  await stuck.listen({ port: 0, host: '127.0.0.1' });
  replicas.push(stuck);
  const answering = await replica('answering');
  const withStuck = await buildApp(
    loadEnv({
      ...bed.env,
      CONTACT_URL: urlOf(answering),
      MAP_URL: [stuck, answering].map(urlOf).join(','),
      // Not the gateway's idle time for kept-alive connections (2 s): the retry would take the answering replica's
      // connection (idle since the first answers) just as its idle timer fires, and that timer's event fails it.
      UPSTREAM_TIMEOUT_MS: '1000',
      WEB_DIST_DIR: webDir,
    }),
  );
  try {
    await withStuck.ready();
    // A query keeps the request off the gateway's document memory: it is proxied as is, round-robin.
    const responses = await Promise.all(Array.from({ length: 4 }, (_, i) => withStuck.inject(`/api/map-layout?try=${i}`)));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(responses.map((r) => r.json().servedBy))).toEqual(new Set(['answering']));
  } finally {
    await withStuck.close();
  }
});

it('closes a kept-alive connection to a service before the service would (its Keep-Alive hint less a second)', async () => {
  // The service closes idle connections after 2.5 s and says so (Keep-Alive: timeout=2); a request the gateway wrote
  // on a connection just as the service closed it would fail with 'socket hang up'.
  const service = Fastify({ keepAliveTimeout: 2_500 });
  service.get('/readyz', async () => ({ status: 'ready' }));
  service.get('/api/map-layout', async () => ({ servedBy: 'service' }));
  const closed = new Promise<{ byGateway: boolean }>((resolve) => {
    // Only the connection the proxied request came on: health checks have their own.
    service.addHook('onRequest', async (request) => {
      if (!request.url.includes('proxied')) return;
      let byGateway = false;
      request.raw.socket.on('end', () => (byGateway = true));
      request.raw.socket.on('close', () => resolve({ byGateway }));
    });
  });
  await service.listen({ port: 0, host: '127.0.0.1' });
  replicas.push(service);
  const withService = await buildApp(loadEnv({ ...bed.env, CONTACT_URL: urlOf(service), MAP_URL: urlOf(service), WEB_DIST_DIR: webDir }));
  try {
    await withService.ready();
    // Health checks use their own connections; this request goes through the proxy's.
    const response = await withService.inject('/api/map-layout?proxied=1');
    expect(response.statusCode).toBe(200);
    expect(await closed).toEqual({ byGateway: true });
  } finally {
    await withService.close();
  }
});
