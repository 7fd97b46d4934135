import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectBus, ensureStream } from '@pixel-atlas/service-kit/nats';
import { startServiceProcess, type ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import { TEST_INTERNAL_TOKEN } from '@pixel-atlas/service-kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadEnv } from './env.ts';
import { describeApi } from './openapi.ts';
import { openLiveStream } from './testing/live-stream.ts';

const bed = testBedPerFile();
let gateway: Awaited<ReturnType<typeof buildApp>>;
let contact: ServiceProcess;
let echo: FastifyInstance;
let plotsFake: FastifyInstance;

const SAMPLE_PLOT = {
  id: '6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11',
  zone: 'creator',
  tier: 'featured',
  x: 40,
  y: 41,
  display_name: 'Ada <Lovelace>',
  message: 'Poetical science & engines',
  link: 'https://ada.example.com/',
  avatar_url: '/api/plots/6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11/avatar',
  created_at: '2026-11-22T10:00:00.000Z',
  flagged: false,
  reviewed: false,
  region_name: 'Creator Coast',
};
let webDir: string;

const ADMIN = { username: 'warden', password: 'correct horse battery' };

beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-web-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><title>Pixel Atlas</title><meta name="description" content="generic"></head><body><div id="root"></div></body></html>',
  );
  await writeFile(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');

  // The real contact service, in its own process as in production.
  contact = await startServiceProcess('contact', { ...bed.env, LOG_LEVEL: 'info' });
  // Stands in for a service so the test can see exactly which headers the gateway forwards.
  echo = Fastify();
  echo.all('/api/*', async (request) => ({ url: request.url, headers: request.headers }));
  // Stands in for the plots service's read API in the server-rendered pages below.
  plotsFake = Fastify();
  plotsFake.get('/api/plots/:id', async (request, reply) =>
    (request.params as { id: string }).id === SAMPLE_PLOT.id
      ? SAMPLE_PLOT
      : reply.status(404).send({ error: { code: 'PLOT_NOT_FOUND', message: 'Plot not found' } }),
  );
  plotsFake.get('/api/plots', async () => [SAMPLE_PLOT]);
  plotsFake.get('/api/users/:name/plots', async (request) => ({
    username: (request.params as { name: string }).name,
    plots: [SAMPLE_PLOT],
  }));
  await plotsFake.listen({ port: 0, host: '127.0.0.1' });
  await echo.listen({ port: 0, host: '127.0.0.1' });

  gateway = await buildApp(
    loadEnv({
      ...bed.env,
      CONTACT_URL: contact.url,
      MAP_URL: `http://127.0.0.1:${(echo.server.address() as { port: number }).port}`,
      PLOTS_URL: `http://127.0.0.1:${(plotsFake.server.address() as { port: number }).port}`,
      PAYMENTS_URL: 'http://127.0.0.1:9', // nothing listens there
      WEB_DIST_DIR: webDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    }),
  );
  await gateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await contact?.stop();
  await echo?.close();
  await plotsFake?.close();
  await rm(webDir, { recursive: true, force: true });
});

const gatewayDb = () => gateway.db;

async function signIn(credentials = ADMIN) {
  return gateway.inject({ method: 'POST', url: '/api/admin/login', payload: credentials, headers: { 'sec-fetch-site': 'same-origin' } });
}

function sessionCookie(response: { headers: Record<string, unknown> }): string {
  const raw = response.headers['set-cookie'];
  const header = Array.isArray(raw) ? raw[0] : String(raw);
  return header.split(';')[0];
}

describe('the SPA', () => {
  it('serves index.html for app routes (history fallback) and never caches it; other page paths get it with a 404', async () => {
    for (const [url, status] of [
      ['/', 200],
      ['/faq', 200],
      ['/claim?session_id=cs_1', 200],
      ['/no/such/page', 404],
    ] as const) {
      const response = await gateway.inject(url);
      expect(response.statusCode, url).toBe(status);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });
  it('caches hashed assets for a year', async () => {
    const response = await gateway.inject('/assets/app-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });
  it('answers unknown API paths with a JSON 404', async () => {
    const response = await gateway.inject('/api/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /api/nothing-here' } });
  });
  it('sets a CSP allowing own scripts and data: images, without upgrade-insecure-requests over http', async () => {
    const csp = String((await gateway.inject('/')).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/img-src 'self' data:/);
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

describe('the proxy', () => {
  it('forwards a contact message to the contact service with the gateway request id', async () => {
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Grace', email: 'grace@example.com', subject: 'general', message: 'Hello from the gateway' },
    });
    expect(response.statusCode).toBe(201);
    const requestId = response.headers['x-request-id'];
    expect(requestId).toBeTruthy();
    const [row] = await gatewayDb().$queryRawUnsafe<Array<{ request_id: string }>>(
      `SELECT "request_id" FROM "contact"."outbox_events" WHERE "payload"->'data'->>'id' = $1`,
      response.json().id,
    );
    expect(row?.request_id).toBe(requestId);
    // The contact service logged the same id for the same request.
    expect(contact.output()).toContain(`"requestId":"${requestId}"`);
  });
  it('passes a 400 from the service through unchanged', async () => {
    const response = await gateway.inject({ method: 'POST', url: '/api/contact', payload: { name: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
  });
  it('strips identity headers sent from outside and adds its own', async () => {
    const response = await gateway.inject({
      url: '/api/map-layout',
      headers: { 'x-admin-user': 'mallory', 'x-internal-token': 'guess', 'x-request-id': 'forged', 'x-client-ip': '1.2.3.4' },
    });
    const { headers } = response.json();
    expect(headers['x-internal-token']).toBe(TEST_INTERNAL_TOKEN);
    expect(headers['x-admin-user']).toBeUndefined();
    expect(headers['x-request-id']).toBe(response.headers['x-request-id']);
    expect(headers['x-request-id']).not.toBe('forged');
    expect(headers['x-client-ip']).toBe('127.0.0.1');
  });
  it('answers 502 with a clear message when a service is down', async () => {
    const response = await gateway.inject({ method: 'POST', url: '/api/create-checkout-session', payload: {} });
    expect(response.statusCode).toBe(502);
    expect(response.json().error).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'The payments service is not available right now. Please try again.',
    });
  });
  it('serves one merged OpenAPI document and a browsable reference', async () => {
    const doc = (await gateway.inject('/api/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/contact', '/api/admin/login', '/api/admin/me']));
    const ui = await gateway.inject('/api/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
    const own = (await gateway.inject('/openapi.json')).json();
    expect(own.paths, 'the public document is built from describeApi()').toEqual((await describeApi()).paths);
  });
});

describe('admin sign-in', () => {
  it('refuses a wrong password with 401 and opens no session', async () => {
    const before = await gatewayDb().adminSession.count();
    const response = await signIn({ username: ADMIN.username, password: 'wrong password!!' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toBe('Invalid username or password');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await gatewayDb().adminSession.count()).toBe(before);
  });
  it('opens a server-side session with an httpOnly SameSite=Strict cookie', async () => {
    const response = await signIn();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ username: ADMIN.username });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^pa_admin=/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    const me = await gateway.inject({ url: '/api/admin/me', headers: { cookie: sessionCookie(response) } });
    expect(me.json()).toEqual({ username: ADMIN.username });
  });
  it('answers 401 on any admin route without a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/anything'],
      ['POST', '/api/admin/generate-map'],
      ['GET', '/api/admin/me'],
    ] as const) {
      const response = await gateway.inject({ method, url, headers: { 'sec-fetch-site': 'same-origin' } });
      expect(response.statusCode, url).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHENTICATED');
    }
  });
  it('refuses a cross-site state-changing request even with a valid cookie (403)', async () => {
    const cookie = sessionCookie(await signIn());
    const crossSite = await gateway.inject({
      method: 'POST',
      url: '/api/admin/generate-map',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
    const foreignOrigin = await gateway.inject({
      method: 'POST',
      url: '/api/admin/generate-map',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(foreignOrigin.statusCode).toBe(403);
    const sameSite = await gateway.inject({
      method: 'POST',
      url: '/api/admin/generate-map',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(sameSite.statusCode).toBe(200);
    expect(sameSite.json().headers['x-admin-user']).toBe(ADMIN.username);
    expect(sameSite.json().headers.cookie).toBeUndefined();
  });
  it('revokes the session on the server at logout', async () => {
    const cookie = sessionCookie(await signIn());
    const logout = await gateway.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(logout.statusCode).toBe(204);
    // Replaying the old cookie does not work: the server forgot it, not just the browser.
    const me = await gateway.inject({ url: '/api/admin/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });
  it('ends a session idle for more than 30 minutes', async () => {
    const cookie = sessionCookie(await signIn());
    await gatewayDb().adminSession.updateMany({ where: { revokedAt: null }, data: { lastSeenAt: new Date(Date.now() - 31 * 60_000) } });
    expect((await gateway.inject({ url: '/api/admin/me', headers: { cookie } })).statusCode).toBe(401);
  });
  it('locks a username after 5 failures, even for the right password', async () => {
    await gatewayDb().loginThrottle.deleteMany();
    for (let i = 0; i < 5; i++) expect((await signIn({ username: ADMIN.username, password: `nope-${i}-nope-nope` })).statusCode).toBe(401);
    const locked = await signIn();
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toMatch(/Too many failed sign-in attempts/);
    await gatewayDb().loginThrottle.deleteMany();
    expect((await signIn()).statusCode).toBe(200);
  });
});

describe('pages for sharing and search engines', () => {
  it("renders /plot/:id with its title, description, Open Graph tags and canonical URL (the body is the web app's render)", async () => {
    const response = await gateway.inject(`/plot/${SAMPLE_PLOT.id}`);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain('<title>Ada &lt;Lovelace&gt;&#39;s Plot - Pixel Atlas</title>');
    expect(html).toContain('<meta name="description" content="Poetical science &amp; engines">');
    expect(html).toContain('<meta property="og:title" content="Ada &lt;Lovelace&gt;&#39;s Plot - Pixel Atlas">');
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/[^"]+\/plot\/6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11">/);
    expect(html).not.toContain('<Lovelace>');
    expect((html.match(/name="description"/g) ?? []).length).toBe(1);
  });
  it('answers an unknown plot with a 404 status and the not-found page, out of search results', async () => {
    const response = await gateway.inject('/plot/00000000-0000-4000-8000-000000000000');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<h1>404 Page Not Found</h1>');
    expect(response.body).toContain('<meta name="robots" content="noindex">');
  });
  it('renders /user/:name and lists every plot and user page in sitemap.xml', async () => {
    const user = await gateway.inject('/user/Ada%20%3CLovelace%3E');
    expect(user.body).toContain('<title>Ada &lt;Lovelace&gt;&#39;s Atlas - Pixel Atlas</title>');
    const sitemap = await gateway.inject('/sitemap.xml');
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.body).toContain('<sitemapindex');
    expect(sitemap.body).toContain('/sitemaps/plots-1.xml</loc>');
    expect((await gateway.inject('/sitemaps/plots-1.xml')).body).toContain(`/plot/${SAMPLE_PLOT.id}</loc>`);
    expect((await gateway.inject('/sitemaps/users-1.xml')).body).toContain('/user/Ada%20%3CLovelace%3E</loc>');
  });
  it('keeps /admin and /claim out of robots.txt', async () => {
    const robots = (await gateway.inject('/robots.txt')).body;
    expect(robots).toContain('Disallow: /admin');
    expect(robots).toContain('Disallow: /claim');
    expect(robots).toMatch(/Sitemap: http:\/\/.+\/sitemap.xml/);
  });
});

describe('live updates', () => {
  it('streams plot and map changes to browsers as Server-Sent Events', async () => {
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gateway.server.address() as { port: number };
    const live = await openLiveStream(`http://127.0.0.1:${port}/api/live`);
    expect(live.response.headers['content-type']).toContain('text/event-stream');
    await live.readUntil('event: ready');
    // The producers' stand-in: the gateway's own NATS user may only listen.
    const producer = await connectBus(bed.stream.busSettings('producer-stand-in'));
    await ensureStream(producer);
    const publish = async (type: string, data: object) =>
      producer.js.publish(
        producer.subject(type),
        JSON.stringify({ id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data }),
      );
    await publish('plots.plot.claimed', { plotId: 'a1', visible: false });
    await publish('plots.plot.claimed', { plotId: 'b2', visible: true });
    await publish('map.layout.cleared', {});
    await live.readUntil('event: map-changed');
    expect(live.received).toContain('event: plots-changed\ndata: {"reason":"claimed","plotId":"b2"}');
    expect(live.received).not.toContain('"plotId":"a1"');
    expect(live.received).toContain('event: map-changed\ndata: {"reason":"cleared"}');
    live.close();
    await producer.nc.close();
  });
});
