// The gateway as attacked from outside, over real HTTP: forged client addresses and Host headers,
// scraping internal endpoints, oversized bodies and piles of live-update connections.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@pixel-atlas/service-kit/env';
import { listenOperations, type OperationsServer } from '@pixel-atlas/service-kit/server';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import { eventually } from '@pixel-atlas/service-kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadEnv } from './env.ts';

const PLOT = {
  id: '6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11',
  zone: 'creator',
  tier: 'basic',
  x: 10,
  y: 12,
  display_name: 'Ada',
  message: 'Engines',
  link: 'https://ada.example.com/',
  avatar_url: '/api/plots/6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11/avatar',
  created_at: '2026-11-22T10:00:00.000Z',
  flagged: false,
  reviewed: false,
  region_name: null,
};
const FORGED_HOST = 'evil.example';

const bed = testBedPerFile();
let webDir: string;
let gateway: FastifyInstance;
let operations: OperationsServer;
let port: number;
let echo: FastifyInstance;
const plotsReplicas: Array<{ app: FastifyInstance; url: string; claims: number[] }> = [];
let dependencyDown = false;

/** Stands in for a plots replica: it refuses bodies over 2 MiB the way the real service does. */
async function plotsReplica(name: string) {
  const claims: number[] = [];
  const app = Fastify({ bodyLimit: 2 * 1024 * 1024 });
  app.get('/readyz', async () => ({ status: 'ready' }));
  app.post('/api/claim-plot', async (request) => {
    claims.push(JSON.stringify(request.body).length);
    return { servedBy: name };
  });
  app.get('/api/plots/:id', async (request, reply) =>
    (request.params as { id: string }).id === PLOT.id
      ? PLOT
      : reply.status(404).send({ error: { code: 'PLOT_NOT_FOUND', message: 'Plot not found' } }),
  );
  app.get('/api/plots', async () => [PLOT]);
  app.get('/api/users/:name/plots', async (request) => ({ username: (request.params as { name: string }).name, plots: [PLOT] }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const replica = { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, claims };
  plotsReplicas.push(replica);
  return replica;
}

beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-edge-'));
  await writeFile(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><title>Pixel Atlas</title></head><body><div id="root"></div></body></html>',
  );
  // Answers with what arrived: the client address the gateway vouched for, and the body byte for byte.
  echo = Fastify();
  echo.removeAllContentTypeParsers();
  echo.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  echo.all('/api/*', async (request) => ({
    clientIp: request.headers['x-client-ip'],
    contentType: request.headers['content-type'],
    body: request.body ?? null,
  }));
  await echo.listen({ port: 0, host: '127.0.0.1' });
  const echoUrl = `http://127.0.0.1:${(echo.server.address() as { port: number }).port}`;
  const [a, b] = [await plotsReplica('a'), await plotsReplica('b')];

  gateway = await buildApp(
    loadEnv({
      ...bed.env,
      // One proxy in front: only the right-most X-Forwarded-For entry (the one it appends) is believed.
      TRUST_PROXY: '1',
      RATE_LIMIT_PER_MINUTE: '5',
      CONTACT_URL: echoUrl,
      MAP_URL: echoUrl,
      PAYMENTS_URL: echoUrl,
      PLOTS_URL: `${a.url},${b.url}`,
      WEB_DIST_DIR: webDir,
    }),
  );
  gateway.addReadinessCheck('dependency', async () => {
    if (dependencyDown) throw new Error('connect ECONNREFUSED 10.9.8.7:5432');
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as { port: number }).port;
  operations = await listenOperations(gateway, { host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await operations?.close();
  await gateway?.close();
  await echo?.close();
  await Promise.all(plotsReplicas.map((r) => r.app.close()));
  await rm(webDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request over a real socket (fetch cannot forge Host or pick the local address). */
function send(
  urlPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string; toPort?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: options.toPort ?? port,
        path: urlPath,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/**
 * Uploads `size` bytes of a JSON-looking body, with Content-Length or chunked, the way a client does it:
 * it stops writing once the answer arrives (the gateway may answer 413 before reading the body).
 */
function upload(urlPath: string, size: number, { chunked }: { chunked: boolean }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request({
      host: '127.0.0.1',
      port,
      path: urlPath,
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(size) }) },
    });
    request.on('response', (response) => {
      answered = true;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    // Writing on after the gateway answered and closed is expected to fail; only a failure before is one.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const writeMore = () => {
      while (!answered && sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', writeMore);
      }
      request.end();
    };
    request.flushHeaders();
    writeMore();
  });
}

describe('TRUST_PROXY', () => {
  it('refuses true at boot, naming the variable (exit 78 from the server)', { timeout: 60_000 }, async () => {
    const env = { ...bed.env, CONTACT_URL: 'http://127.0.0.1:9', TRUST_PROXY: 'true' };
    expect(() => loadEnv(env)).toThrow(ConfigError);
    expect(() => loadEnv(env)).toThrow(/TRUST_PROXY: 'true' would believe every X-Forwarded-For entry/);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'server.ts')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(78);
    expect(output).toContain('TRUST_PROXY');
  });

  it('accepts a hop count or proxy addresses/CIDRs', () => {
    const base = { ...bed.env, CONTACT_URL: 'http://127.0.0.1:9' };
    expect(loadEnv({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadEnv({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(loadEnv(base).TRUST_PROXY).toBe(false);
    expect(() => loadEnv({ ...base, TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY: must be a hop count/);
  });

  it('with TRUST_PROXY=1 a forged left-most X-Forwarded-For changes neither the address services see nor the rate limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await send('/api/map-layout', { headers: { 'x-forwarded-for': `10.66.0.${i}, 203.0.113.7` } });
      statuses.push(answer.status);
      if (answer.status === 200) expect(JSON.parse(answer.body).clientIp).toBe('203.0.113.7');
    }
    // RATE_LIMIT_PER_MINUTE=5: a new forged address per request does not buy a new allowance.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Someone else behind the same proxy is not affected.
    expect((await send('/api/map-layout', { headers: { 'x-forwarded-for': '198.51.100.9' } })).status).toBe(200);
  });
});

describe('operational endpoints', () => {
  it('answers 404 to /metrics on the public port, and serves it on the operations port', async () => {
    const pub = await send('/metrics');
    expect(pub.status).toBe(404);
    expect(pub.body).not.toContain('http_requests_total');
    const internal = await send('/metrics', { toPort: operations.port });
    expect(internal.status).toBe(200);
    expect(internal.body).toMatch(/http_requests_total\{.*service="gateway"/);
    expect(internal.body).toContain('live_update_clients');
  });

  it('says only ready / not ready on the public port; the failing dependency and its error only on the operations port', async () => {
    expect(await send('/readyz')).toMatchObject({ status: 200, body: JSON.stringify({ status: 'ready' }) });
    dependencyDown = true;
    try {
      const pub = await send('/readyz');
      expect(pub.status).toBe(503);
      expect(JSON.parse(pub.body)).toEqual({ status: 'not-ready' });
      expect(pub.body).not.toMatch(/ECONNREFUSED|10\.9\.8\.7|dependency|database/);
      const internal = await send('/readyz', { toPort: operations.port });
      expect(internal.status).toBe(503);
      expect(JSON.parse(internal.body).checks).toMatchObject({ database: 'ok', dependency: 'connect ECONNREFUSED 10.9.8.7:5432' });
    } finally {
      dependencyDown = false;
    }
    expect((await send('/healthz')).status).toBe(200);
  });
});

describe('links in pages', () => {
  it('requires PUBLIC_ORIGIN with NODE_ENV production or unset; development and test link to localhost', () => {
    const env = { ...bed.env, NODE_ENV: 'production', CONTACT_URL: 'http://127.0.0.1:9' };
    const required = /PUBLIC_ORIGIN: is required unless NODE_ENV is explicitly development or test \(unset counts as production\)/;
    expect(() => loadEnv(env)).toThrow(required);
    const { NODE_ENV: _unset, ...withoutNodeEnv } = env;
    expect(() => loadEnv(withoutNodeEnv)).toThrow(required);
    expect(loadEnv({ ...env, PUBLIC_ORIGIN: 'https://atlas.example.com' }).PUBLIC_ORIGIN).toBe('https://atlas.example.com');
    expect(loadEnv({ ...env, NODE_ENV: 'development' }).PUBLIC_ORIGIN).toBeUndefined();
  });

  it('never writes a forged Host (or X-Forwarded-Host) into a page, og:url, the sitemap or robots.txt', async () => {
    const forged = { host: FORGED_HOST, 'x-forwarded-host': `${FORGED_HOST}:8443`, 'x-forwarded-proto': 'https' };
    const pages = await Promise.all(
      [`/plot/${PLOT.id}`, '/user/Ada', '/sitemap.xml', '/sitemaps/plots-1.xml', '/robots.txt'].map((url) =>
        send(url, { headers: forged }),
      ),
    );
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.body).not.toContain(FORGED_HOST);
    }
    const [plotPage, , index, sitemap, robots] = pages;
    expect(index?.body).toContain('<loc>http://localhost:0/sitemaps/plots-1.xml</loc>');
    // Outside production the origin is the gateway's own port on localhost (PORT=0 in tests).
    expect(plotPage?.body).toContain(`<link rel="canonical" href="http://localhost:0/plot/${PLOT.id}">`);
    expect(plotPage?.body).toMatch(/<meta property="og:url" content="http:\/\/localhost:0\/plot\//);
    expect(sitemap?.body).toContain(`<loc>http://localhost:0/plot/${PLOT.id}</loc>`);
    expect(robots?.body).toContain('Sitemap: http://localhost:0/sitemap.xml');
  });
});

describe('request bodies', () => {
  const plots = () => gateway.upstreams.get('plots')!;
  const claimsSeen = () => plotsReplicas.reduce((n, r) => n + r.claims.length, 0);
  // Each test speaks for its own client (the rate limit allows 5 a minute per address).
  let client = 0;
  const asClient = () => ({ 'x-forwarded-for': `192.0.2.${++client}` });

  it('answers 10 MB to /api/claim-plot with 413 before any replica sees it, and the replicas stay in service', async () => {
    const before = claimsSeen();
    const answer = await upload('/api/claim-plot', 10 * 1024 * 1024, { chunked: false });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large: at most 1.5 MB here.' },
    });
    expect(claimsSeen()).toBe(before);
    for (const replica of plotsReplicas) expect(plots().isHealthy(replica.url), replica.url).toBe(true);

    // The next claims still go round both replicas and succeed.
    const servedBy = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const ok = await send('/api/claim-plot', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...asClient() },
        body: JSON.stringify({ avatar_url: `data:image/png;base64,${'A'.repeat(1_400_000)}` }),
      });
      expect(ok.status).toBe(200);
      servedBy.add(JSON.parse(ok.body).servedBy);
    }
    expect(servedBy).toEqual(new Set(['a', 'b']));
  });

  it('counts a chunked body (no Content-Length) and stops it at the limit', async () => {
    const before = claimsSeen();
    const answer = await upload('/api/claim-plot', 10 * 1024 * 1024, { chunked: true });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(claimsSeen()).toBe(before);
    for (const replica of plotsReplicas) expect(plots().isHealthy(replica.url)).toBe(true);
  });

  it('keeps other API bodies small', async () => {
    const answer = await upload('/api/contact', 200 * 1024, { chunked: false });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large: at most 64 KB here.' },
    });
  });

  it('forwards a body within its limit byte for byte, with its content type (webhook signatures depend on it)', async () => {
    const raw = '{"id":"evt_1",  "data": {"object":{"amount":2500}} ,"note":"caf\\u00e9"}\n';
    const answer = await send('/api/payments/stripe-webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...asClient() },
      body: raw,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ clientIp: `192.0.2.${client}`, contentType: 'application/json; charset=utf-8', body: raw });
  });
});

describe('live updates', () => {
  /** Opens /api/live from `localAddress`; resolves with the status once the first bytes (or the refusal) arrive. */
  function openLive(localAddress: string): Promise<{ status: number; close: () => void; body: Promise<string> }> {
    return new Promise((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/api/live', localAddress, agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        const body = new Promise<string>((done) => response.on('end', () => done(text)).on('close', () => done(text)));
        response.on('data', (chunk) => (text += chunk));
        resolve({ status: response.statusCode!, close: () => request.destroy(), body });
      });
      request.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
      request.end();
    });
  }
  const metric = async (name: string) => {
    const text = (await send('/metrics', { toPort: operations.port })).body;
    return Number(text.match(new RegExp(`^${name}\\{[^}]*\\} (\\d+)`, 'm'))?.[1]);
  };

  it('caps open streams per client address at LIVE_MAX_PER_CLIENT (20), and a closed one frees its slot', async () => {
    const open = [];
    for (let i = 0; i < 20; i++) open.push(await openLive('127.0.0.1'));
    expect(open.map((s) => s.status)).toEqual(Array(20).fill(200));

    const refused = await openLive('127.0.0.1');
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.body).error.code).toBe('RATE_LIMITED');
    // Another address is not affected.
    const other = await openLive('127.0.0.2');
    expect(other.status).toBe(200);
    expect(await metric('live_update_clients')).toBe(21);
    expect(await metric('live_update_refused_total')).toBe(1);

    open.pop()!.close();
    const again = await eventually(async () => {
      const attempt = await openLive('127.0.0.1');
      if (attempt.status === 200) return attempt;
      attempt.close();
      return null;
    }, 5000);
    expect(again.status).toBe(200);
    for (const s of [...open, other, again]) s.close();
    await eventually(async () => (await metric('live_update_clients')) === 0, 5000);
  });
});
