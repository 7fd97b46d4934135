import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOperations, type OperationsServer } from './server.ts';
import { createServiceApp } from './service.ts';

const TOKEN = 'server-test-internal-token-0123456789';
let app: FastifyInstance | undefined;
let operations: OperationsServer | undefined;

afterEach(async () => {
  await operations?.close();
  await app?.close();
  operations = app = undefined;
});

async function serviceWithFailingCheck(publicPort: boolean): Promise<FastifyInstance> {
  const created = await createServiceApp({
    name: 'edge',
    internalToken: TOKEN,
    logLevel: 'silent',
    trustRequestIdFrom: 'nobody',
    publicPort,
  });
  created.addReadinessCheck('database', async () => {
    throw new Error('connect ECONNREFUSED 10.1.2.3:5432');
  });
  await created.ready();
  return created;
}

describe('operational endpoints', () => {
  it('on a public port: no /metrics (404) and a /readyz without the checks and their errors', async () => {
    app = await serviceWithFailingCheck(true);
    const metrics = await app.inject('/metrics');
    expect(metrics.statusCode).toBe(404);
    expect(metrics.json().error.code).toBe('NOT_FOUND');
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not-ready' });
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });

  it('on an internal port (a service behind the gateway): both as before', async () => {
    app = await serviceWithFailingCheck(false);
    expect((await app.inject('/metrics')).body).toContain('http_requests_total');
    expect((await app.inject('/readyz')).json()).toEqual({
      status: 'not-ready',
      checks: { database: 'connect ECONNREFUSED 10.1.2.3:5432' },
    });
  });

  it("a check's failure carries what its dependency's describe says (a pool's queue beside the database's error)", async () => {
    app = await createServiceApp({ name: 'edge', internalToken: TOKEN, logLevel: 'silent', trustRequestIdFrom: 'nobody' });
    app.addReadinessCheck(
      'database',
      async () => {
        throw new Error('timeout exceeded when trying to connect');
      },
      () => 'pool: 10 open, 0 idle, 37 waiting',
    );
    await app.ready();
    expect((await app.inject('/readyz')).json().checks).toEqual({
      database: 'timeout exceeded when trying to connect (pool: 10 open, 0 idle, 37 waiting)',
    });
  });

  it('serves metrics and detailed readiness on the operations port, and nothing else', async () => {
    app = await serviceWithFailingCheck(true);
    operations = await listenOperations(app, { host: '127.0.0.1', port: 0 });
    await app.inject('/healthz');
    const metrics = await fetch(`${operations.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/http_requests_total\{method="GET",route="\/healthz",status_code="200",service="edge"\} 1/);
    const ready = await fetch(`${operations.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not-ready', checks: { database: 'connect ECONNREFUSED 10.1.2.3:5432' } });
    expect((await fetch(`${operations.url}/api/anything`)).status).toBe(404);
  });

  it('logs probe requests (health, readiness, metrics) at debug, every other request at info', async () => {
    const lines: Array<{ level: number; msg: string; req?: { url: string }; url?: string }> = [];
    app = await createServiceApp({
      name: 'edge',
      internalToken: TOKEN,
      logLevel: 'info',
      trustRequestIdFrom: 'nobody',
      logStream: { write: (line: string) => lines.push(JSON.parse(line)) },
    });
    await app.ready();
    for (const url of ['/healthz', '/readyz', '/metrics', '/openapi.json']) await app.inject(url);
    const logged = lines.filter((line) => line.msg === 'incoming request').map((line) => line.req?.url);
    expect(logged).toEqual(['/openapi.json']);
  });
});
