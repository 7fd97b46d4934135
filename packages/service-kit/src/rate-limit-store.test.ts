import net from 'node:net';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient } from './database.ts';
import { pgRateLimitStore } from './rate-limit-store.ts';
import { createServiceApp } from './service.ts';
import { createTestDatabase, eventually, type TestDatabase } from './testing.ts';

const SCHEMA = 'kit_limits';
const TOKEN = 'test-internal-token-0123456789';

// A SqlClient over plain pg: the kit must not depend on any one service's generated client.
function pgClient(pool: pg.Pool): SqlClient {
  return {
    $executeRawUnsafe: async (sql, ...values) => (await pool.query(sql, values)).rowCount ?? 0,
    $queryRawUnsafe: async <T>(sql: string, ...values: unknown[]) => (await pool.query(sql, values)).rows as T,
  };
}

let db: TestDatabase;
const pools: pg.Pool[] = [];
const apps: FastifyInstance[] = [];

/** One replica: the kit's app with limited routes, its `db` decorated the way the database plugin does. */
async function replica(pool: pg.Pool, limits: { max: number; timeWindow: number } = { max: 5, timeWindow: 60_000 }) {
  const app = await createServiceApp({
    name: 'limits',
    internalToken: TOKEN,
    logLevel: 'silent',
    trustRequestIdFrom: 'gateway',
    databaseSchema: SCHEMA,
  });
  app.decorate('db', pgClient(pool));
  app.get('/a', { config: { rateLimit: limits } }, async () => ({ ok: true }));
  app.get('/b', { config: { rateLimit: limits } }, async () => ({ ok: true }));
  app.get('/inline', { config: { inlineRateLimit: limits } }, async () => ({ ok: true }));
  app.get('/page', { config: { inlineRateLimit: { max: 3, timeWindow: 60_000, countedIn: 'replica' } } }, async () => ({ ok: true }));
  await app.ready();
  apps.push(app);
  return app;
}

function newPool(connectionString: string, extra: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString, ...extra });
  pool.on('error', () => undefined);
  pools.push(pool);
  return pool;
}

const from = (ip: string) => ({ 'x-internal-token': TOKEN, 'x-client-ip': ip });
const get = (app: FastifyInstance, url: string, ip: string) => app.inject({ method: 'GET', url, headers: from(ip) });
const hits = () => db.query<{ key: string; count: number; window_ends_at: Date }>(`SELECT * FROM ${SCHEMA}.rate_limit_hits ORDER BY key`);
/**
 * `ms` go by for a client's windows: they end that much sooner. The store measures windows on PostgreSQL's clock
 * (`window_ends_at` against `now()`), so this is what waiting would do, without the wait.
 */
const elapse = (ip: string, ms: number) =>
  db.query(
    `UPDATE ${SCHEMA}.rate_limit_hits SET window_ends_at = window_ends_at - make_interval(secs => $2::float8 / 1000) WHERE key LIKE '%|' || $1 OR key = $1`,
    [ip, ms],
  );

async function failureCount(app: FastifyInstance, reason: string): Promise<number> {
  const metric = await app.metrics.getSingleMetric('rate_limit_store_failures_total')?.get();
  return metric?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.query(`CREATE SCHEMA ${SCHEMA}`);
  await db.query(
    `CREATE UNLOGGED TABLE ${SCHEMA}.rate_limit_hits (key text PRIMARY KEY, count integer NOT NULL, window_ends_at timestamptz(6) NOT NULL)`,
  );
});

afterAll(async () => {
  await Promise.allSettled(apps.map((app) => app.close()));
  await Promise.allSettled(pools.map((pool) => pool.end()));
  await db?.drop();
});

/**
 * The store alone, with a generous timeout: these cases are about counting, and a busy test machine must
 * not turn a slow count into a let-through.
 */
async function bare(limits: Record<string, unknown>) {
  const app = Fastify();
  const client = pgClient(newPool(db.url));
  const metrics = new Registry();
  await app.register(rateLimit, {
    global: false,
    store: pgRateLimitStore({ sql: () => ({ client, schema: SCHEMA }), log: app.log, metrics, timeoutMs: 10_000 }),
  });
  app.get('/a', { config: { rateLimit: limits } }, async () => ({ ok: true }));
  await app.ready();
  apps.push(app);
  const failures = async () => (await metrics.getSingleMetric('rate_limit_store_failures_total')?.get())?.values.length ?? 0;
  return { app, failures };
}

describe('rate limits counted in PostgreSQL: across replicas and in bursts', () => {
  it('two replicas over one database allow the limit once between them: the (limit+1)th request is 429', async () => {
    const [one, two] = [await replica(newPool(db.url)), await replica(newPool(db.url))];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await get(i % 2 ? two : one, '/a', '198.51.100.1')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await get(one, '/a', '198.51.100.1');
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(55);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another client and another route have limits of their own.
    expect((await get(two, '/a', '198.51.100.2')).statusCode).toBe(200);
    expect((await get(two, '/b', '198.51.100.1')).statusCode).toBe(200);
    expect((await get(one, '/a', '198.51.100.2')).headers['x-ratelimit-remaining']).toBe('3');
  });

  it('concurrent requests spread over replicas lose no count', async () => {
    const [one, two] = [(await bare({ max: 20, timeWindow: 60_000 })).app, (await bare({ max: 20, timeWindow: 60_000 })).app];
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? two : one).inject({ method: 'GET', url: '/a', remoteAddress: '198.51.100.3' })),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(20);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(40);
    const [row] = (await hits()).filter((h) => h.key.endsWith('198.51.100.3'));
    expect(row?.count).toBe(60);
  });

  it('a burst from one client is counted in a few statements, each request in its own exact place', async () => {
    const pool = newPool(db.url);
    const client = pgClient(pool);
    let statements = 0;
    const counting: SqlClient = {
      ...client,
      $queryRawUnsafe: (sql, ...values) => {
        statements += 1;
        return client.$queryRawUnsafe(sql, ...values);
      },
    };
    const app = Fastify();
    await app.register(rateLimit, {
      global: false,
      store: pgRateLimitStore({
        sql: () => ({ client: counting, schema: SCHEMA }),
        log: app.log,
        metrics: new Registry(),
        timeoutMs: 10_000,
      }),
    });
    app.get('/a', { config: { rateLimit: { max: 150, timeWindow: 60_000 } } }, async () => ({ ok: true }));
    await app.ready();
    apps.push(app);

    const responses = await Promise.all(
      Array.from({ length: 200 }, () => app.inject({ method: 'GET', url: '/a', remoteAddress: '198.51.100.40' })),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(150);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(50);
    // Every place from 149 remaining down to 0 was handed out exactly once.
    const remaining = responses.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['x-ratelimit-remaining']));
    expect(new Set(remaining).size).toBe(150);
    const [row] = (await hits()).filter((h) => h.key.endsWith('198.51.100.40'));
    expect(row?.count).toBe(200);
    expect(statements).toBeLessThan(20);
  });
});

describe('rate limits counted in PostgreSQL: batching counts while busy', () => {
  it('a client busy far below its limit is written once per linger interval, not once per round trip, and no count is lost', async () => {
    const client = pgClient(newPool(db.url));
    let statements = 0;
    const counting: SqlClient = {
      ...client,
      $queryRawUnsafe: (sql, ...values) => {
        statements += 1;
        return client.$queryRawUnsafe(sql, ...values);
      },
    };
    const app = Fastify();
    await app.register(rateLimit, {
      global: false,
      store: pgRateLimitStore({
        sql: () => ({ client: counting, schema: SCHEMA }),
        log: app.log,
        metrics: new Registry(),
        timeoutMs: 10_000,
      }),
    });
    app.get('/busy', { config: { rateLimit: { max: 1_000_000, timeWindow: 60_000 } } }, async () => ({ ok: true }));
    apps.push(app);
    // Over real sockets, so the server and PostgreSQL's answers share the event loop as in production.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}/busy`;

    // Ten connections, each sending its next request as soon as the last is answered, 30 requests each.
    let sent = 0;
    const startedAt = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = 0; i < 30; i++) {
          sent += 1;
          expect((await fetch(url)).status).toBe(200);
        }
      }),
    );
    // However busy the machine, the bound below is by the time really taken.
    const busyMs = performance.now() - startedAt;
    // The last interval's upsert lands after the last answer.
    const row = await eventually(async () => (await hits()).find((h) => h.key.includes('/busy') && h.count === sent));
    expect(row.count).toBe(300);
    // Each upsert of answered requests starts at least 20 ms (the linger) after the last one ended: one per interval
    // while busy, plus the first exact count and the tail's. One per round trip was 36 in 300 ms here (179 requests).
    expect(statements).toBeLessThanOrEqual(Math.ceil(busyMs / 20) + 2);
  });

  it('while a count is in flight, a request in the first half of the limit is answered at once; past half it waits', async () => {
    const client = pgClient(newPool(db.url));
    const held: Array<() => void> = [];
    let hold = true;
    const gated: SqlClient = {
      ...client,
      $queryRawUnsafe: async (sql, ...values) => {
        if (hold) await new Promise<void>((resolve) => held.push(resolve));
        return client.$queryRawUnsafe(sql, ...values);
      },
    };
    const Store = pgRateLimitStore({
      sql: () => ({ client: gated, schema: SCHEMA }),
      log: Fastify().log,
      metrics: new Registry(),
      timeoutMs: 10_000,
    });
    const store = new Store({});
    const answers: number[] = [];
    const count = (max: number) =>
      new Promise<number>((resolve) =>
        store.incr('198.51.100.41', (_error, result) => (answers.push(result!.current), resolve(result!.current)), 60_000, max),
      );
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((r) => setTimeout(r, 5));
    };

    const first = count(8);
    const [second, third] = [count(8), count(8)]; // nothing known yet: they wait
    await until(() => held.length === 1);
    expect(answers).toEqual([]);
    held.shift()!(); // the first count returns 1; the next upsert (+2) goes out and is held
    expect(await first).toBe(1);
    await until(() => held.length === 1);
    // Known total 1, 2 in flight: place 4 is within half of 8, answered without the database.
    expect(await count(8)).toBe(4);
    // Place 5 is past half: it waits (an answer of its own would have come at once, as place 4's did).
    const fifth = count(8);
    expect(answers).toEqual([1, 4]);
    hold = false;
    held.shift()!();
    expect([await second, await third, await fifth]).toEqual([2, 3, 5]);
    // ... for PostgreSQL's total: answered after the two counts in flight, never before them.
    expect(answers).toEqual([1, 4, 2, 3, 5]);
    const [row] = (await hits()).filter((h) => h.key.endsWith('198.51.100.41'));
    expect(row?.count).toBe(5);
  });
});

describe('rate limits counted in PostgreSQL: windows and limits', () => {
  it('continueExceeding: a client still sending while refused keeps its window open', async () => {
    const { app } = await bare({ max: 1, timeWindow: 60_000, continueExceeding: true });
    const ip = '198.51.100.20';
    const hit = () => app.inject({ method: 'GET', url: '/a', remoteAddress: ip });
    expect((await hit()).statusCode).toBe(200);
    await elapse(ip, 40_000);
    expect((await hit()).statusCode).toBe(429);
    // 80 s after the first request its window would have ended; the refused one started a new one.
    await elapse(ip, 40_000);
    expect((await hit()).statusCode).toBe(429);
    await elapse(ip, 70_000);
    expect((await hit()).statusCode).toBe(200);
  });

  it('limits beyond 32 bits are counted, not failed open', async () => {
    const { app, failures } = await bare({ max: 3_000_000_000, timeWindow: 60_000 });
    const response = await app.inject({ method: 'GET', url: '/a', remoteAddress: '198.51.100.21' });
    expect(response.headers['x-ratelimit-remaining']).toBe('2999999999');
    expect(await failures()).toBe(0);
    expect((await hits()).find((h) => h.key.endsWith('198.51.100.21'))?.count).toBe(1);
  });

  it('a window that ended starts again at one, and ended windows are swept', async () => {
    const app = await replica(newPool(db.url), { max: 2, timeWindow: 60_000 });
    const ip = '198.51.100.4';
    expect((await get(app, '/a', ip)).statusCode).toBe(200);
    expect((await get(app, '/a', ip)).statusCode).toBe(200);
    expect((await get(app, '/a', ip)).statusCode).toBe(429);
    await elapse(ip, 60_000);
    const again = await get(app, '/a', ip);
    expect(again.statusCode).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe('1');
    expect((await hits()).find((h) => h.key.endsWith(ip))?.count).toBe(1);

    // Another client's window ends; the next count after the sweep interval deletes it.
    await get(app, '/b', '198.51.100.5');
    await elapse('198.51.100.5', 60_000);
    const sweeping = await createServiceApp({
      name: 'limits',
      internalToken: TOKEN,
      logLevel: 'silent',
      trustRequestIdFrom: 'gateway',
      databaseSchema: SCHEMA,
    });
    apps.push(sweeping);
    sweeping.decorate('db', pgClient(newPool(db.url)));
    sweeping.get('/c', { config: { rateLimit: { max: 5, timeWindow: 60_000 } } }, async () => ({ ok: true }));
    await sweeping.ready();
    expect((await hits()).some((h) => h.key.endsWith('198.51.100.5'))).toBe(true);
    // The store sweeps at most once a minute: step its clock past the interval.
    const realNow = Date.now;
    Date.now = () => realNow() + 61_000;
    try {
      expect((await get(sweeping, '/c', '198.51.100.6')).statusCode).toBe(200);
    } finally {
      Date.now = realNow;
    }
    await expect.poll(async () => (await hits()).some((h) => h.key.endsWith('198.51.100.5'))).toBe(false);
    expect((await hits()).some((h) => h.key.endsWith('198.51.100.6'))).toBe(true);
  });
});

describe('inlineRateLimit: the same count without the plugin', () => {
  it('counts, heads and refuses as rateLimit does, under the key the plugin would use, across replicas', async () => {
    const [one, two] = [await replica(newPool(db.url)), await replica(newPool(db.url))];
    const limitHeaders = (r: { headers: Record<string, unknown> }) =>
      ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].map((name) => r.headers[name]);
    for (const [url, ip] of [
      ['/a', '198.51.100.60'],
      ['/inline', '198.51.100.61'],
    ] as const) {
      const answers = [];
      for (let i = 0; i < 6; i += 1) answers.push(await get(i % 2 ? two : one, url, ip));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(answers.map((a) => limitHeaders(a))).toEqual([
        ['5', '4', '60', undefined],
        ['5', '3', '60', undefined],
        ['5', '2', '60', undefined],
        ['5', '1', '60', undefined],
        ['5', '0', '60', undefined],
        ['5', '0', '60', '60'],
      ]);
      expect(answers[5]!.json()).toEqual({
        error: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait 60 seconds and try again.' },
      });
    }
    const keys = (await hits()).map((h) => h.key).filter((key) => key.endsWith('198.51.100.60') || key.endsWith('198.51.100.61'));
    expect(keys).toEqual(['GET /a|198.51.100.60', 'GET /inline|198.51.100.61']);
  });

  it('a burst hands out every place once, as the plugin does', async () => {
    const app = await replica(newPool(db.url), { max: 150, timeWindow: 60_000 });
    const responses = await Promise.all(Array.from({ length: 200 }, () => get(app, '/inline', '198.51.100.62')));
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(50);
    const remaining = responses.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['x-ratelimit-remaining']));
    expect(new Set(remaining).size).toBe(150);
    expect((await hits()).find((h) => h.key.endsWith('198.51.100.62'))?.count).toBe(200);
  });

  it("countedIn 'replica': the same heads and refusal, counted in the replica's memory (no row), each replica its own", async () => {
    const [one, two] = [await replica(newPool(db.url)), await replica(newPool(db.url))];
    const ip = '198.51.100.64';
    const onOne = [];
    for (let i = 0; i < 4; i += 1) onOne.push(await get(one, '/page', ip));
    expect(onOne.map((a) => [a.statusCode, a.headers['x-ratelimit-remaining']])).toEqual([
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ]);
    expect(onOne[3]!.headers['retry-after']).toBe('60');
    expect(onOne[3]!.json().error.code).toBe('RATE_LIMITED');
    // Another client on the same replica, and the same client on another replica, have windows of their own.
    expect((await get(one, '/page', '198.51.100.65')).statusCode).toBe(200);
    expect((await get(two, '/page', ip)).statusCode).toBe(200);
    expect((await hits()).filter((h) => h.key.includes('/page'))).toEqual([]);
  });

  it('without databaseSchema the plugin counts it in memory', async () => {
    const app = await createServiceApp({ name: 'limits', internalToken: TOKEN, logLevel: 'silent', trustRequestIdFrom: 'gateway' });
    apps.push(app);
    app.get('/i', { config: { inlineRateLimit: { max: 1, timeWindow: 60_000 } } }, async () => ({ ok: true }));
    expect((await get(app, '/i', '198.51.100.63')).statusCode).toBe(200);
    const refused = await get(app, '/i', '198.51.100.63');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
  });

  it('a request whose callback throws leaves the rest of its batch answered and the key counting', async () => {
    const client = pgClient(newPool(db.url));
    const held: Array<() => void> = [];
    const gated: SqlClient = {
      ...client,
      $queryRawUnsafe: async (sql, ...values) => {
        await new Promise<void>((resolve) => held.push(resolve));
        return client.$queryRawUnsafe(sql, ...values);
      },
    };
    const metrics = new Registry();
    const logged: string[] = [];
    const log = Fastify().log;
    log.error = ((_object: unknown, message: string) => void logged.push(message)) as typeof log.error;
    const Store = pgRateLimitStore({ sql: () => ({ client: gated, schema: SCHEMA }), log, metrics, timeoutMs: 10_000 });
    const store = new Store({});
    const places: number[] = [];
    const count = (fail = false) =>
      store.incr(
        '198.51.100.64',
        (_error, result) => {
          if (fail) throw new Error('the request failed');
          places.push(result!.current);
        },
        60_000,
        2,
      );
    count();
    await expect.poll(() => held.length).toBe(1);
    count(true);
    count();
    held.shift()!(); // the first count; then the two waiting ones go out together
    await expect.poll(() => held.length).toBe(1);
    held.shift()!();
    await expect.poll(() => places).toEqual([1, 3]);
    count();
    await expect.poll(() => held.length).toBe(1);
    held.shift()!();
    await expect.poll(() => places).toEqual([1, 3, 4]);
    expect(logged).toEqual(['a request failed in its rate-limit callback; the rest of its batch goes on']);
    // The count reached PostgreSQL: no let-through is recorded.
    expect((await metrics.getSingleMetric('rate_limit_store_failures_total')?.get())?.values).toEqual([]);
  });
});

describe('when PostgreSQL cannot count', () => {
  it('refused connections let requests through, counted in rate_limit_store_failures_total', async () => {
    const app = await replica(newPool('postgresql://postgres@127.0.0.1:1/postgres'), { max: 1, timeWindow: 60_000 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await get(app, '/a', '198.51.100.7')).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    expect(await failureCount(app, 'error')).toBe(3);
  });

  it('a database that accepts but never answers costs a request at most the timeout, then lets it through', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const app = await replica(newPool(`postgresql://postgres@127.0.0.1:${port}/postgres`), { max: 1, timeWindow: 60_000 });
      const started = Date.now();
      const [first, second] = [await get(app, '/a', '198.51.100.8'), await get(app, '/a', '198.51.100.8')];
      const elapsed = Date.now() - started;
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(elapsed).toBeGreaterThanOrEqual(1900);
      expect(elapsed).toBeLessThan(5000);
      expect(await failureCount(app, 'timeout')).toBe(2);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('without databaseSchema the limits stay in memory (a service with no database)', async () => {
    const app = await createServiceApp({ name: 'limits', internalToken: TOKEN, logLevel: 'silent', trustRequestIdFrom: 'gateway' });
    apps.push(app);
    app.get('/a', { config: { rateLimit: { max: 1, timeWindow: 60_000 } } }, async () => ({ ok: true }));
    expect((await get(app, '/a', '198.51.100.9')).statusCode).toBe(200);
    expect((await get(app, '/a', '198.51.100.9')).statusCode).toBe(429);
  });
});
