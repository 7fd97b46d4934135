// Views of server-rendered pages and badges, batched by the real gateway and counted by the real plots service (behind a
// forwarder the test can cut, to stand for plots going down).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OWNER_COOKIE } from '@pixel-atlas/contracts/stats';
import { eventually, testServiceEnv } from '@pixel-atlas/service-kit/testing';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { buyAndClaim, startWorld, type World } from '@pixel-atlas/test-stack/world';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { TEST_SHELL } from '../testing/gateway-over-world.ts';

const browser = (n: number | string) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 v${n}`;

/** A TCP forwarder to plots that can be cut (connections refused and open ones reset) and restored on the same port. */
async function startForwarder(targetPort: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    async restore() {
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}

let world: World;
let forwarder: Awaited<ReturnType<typeof startForwarder>>;
let gateway: FastifyInstance;
let base: string;
let webDir: string;
let nextSpot: () => { x: number; y: number };

async function startGateway(): Promise<FastifyInstance> {
  const app = await buildApp(
    loadEnv({
      ...testServiceEnv(world.db, world.stream),
      PLOTS_URL: forwarder.url,
      MODERATION_URL: 'http://127.0.0.1:9',
      PAYMENTS_URL: 'http://127.0.0.1:9',
      MAP_URL: 'http://127.0.0.1:9',
      CONTACT_URL: 'http://127.0.0.1:9',
      WEB_DIST_DIR: webDir,
      RATE_LIMIT_PER_MINUTE: '100000',
    }),
  );
  // A page that counts a view of its plot, as `/plot/:id` does (the badge counts `badge_view`s itself).
  app.get<{ Params: { id: string } }>('/test-view/:id', async (request) => {
    app.plotViews.record({ request, plotId: request.params.id, kind: 'view' });
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

beforeAll(async () => {
  world = await startWorld({ listen: true });
  nextSpot = spotSupply(world, 1, 10);
  forwarder = await startForwarder((world.plots.server.address() as net.AddressInfo).port);
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-plot-views-'));
  await writeFile(path.join(webDir, 'index.html'), TEST_SHELL);
  gateway = await startGateway();
  base = `http://127.0.0.1:${(gateway.server.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  await gateway?.close();
  await forwarder?.close();
  await world?.close();
  if (webDir) await rm(webDir, { recursive: true, force: true });
});

async function claimedPlot() {
  const { response } = await buyAndClaim(world, { tier: 'basic', ...nextSpot() });
  expect(response.statusCode).toBe(201);
  const ownerCookie = String(response.headers['set-cookie'] ?? '').match(new RegExp(`${OWNER_COOKIE}=([^;]+)`))?.[1];
  return { plotId: response.json().plot.id as string, token: response.json().manage_token as string, ownerCookie };
}

/** The plot's counts today, as stored (the owner page shows these; reading it there is rate-limited per minute). */
async function counted(plotId: string): Promise<{ views: number; badgeViews: number }> {
  const [row] = await world.db.query<{ views: number; badge_views: number }>(
    'SELECT views, badge_views FROM plots.plot_daily_stats WHERE plot_id = $1',
    [plotId],
  );
  return { views: row?.views ?? 0, badgeViews: row?.badge_views ?? 0 };
}

/** Today's counts on the owner's page, through the gateway, as the owner reads them. */
async function ownerPageToday(token: string): Promise<{ views: number; badgeViews: number }> {
  const response = await fetch(`${base}/api/manage/${token}`);
  expect(response.status).toBe(200);
  const { stats } = (await response.json()) as { stats: { days: Array<{ views: number; badgeViews: number }> } };
  return stats.days.at(-1)!;
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await gateway.metrics.getSingleMetric(name)!.get()).values;
  return values.filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value)).reduce((sum, v) => sum + v.value, 0);
}

const view = (plotId: string, userAgent: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/test-view/${plotId}`, { headers: { 'user-agent': userAgent, ...headers } }).then((r) => r.arrayBuffer());

describe('plot views through the gateway', () => {
  it('50 views from 5 visitors reach plots in one or two calls and count 5; a bot and the owner are not counted', async () => {
    const { plotId, token, ownerCookie } = await claimedPlot();
    expect(ownerCookie).toBeTruthy();
    const sendsBefore = await metric('gateway_plot_views_sends_total', { result: 'ok' });
    await Promise.all(Array.from({ length: 50 }, (_, i) => view(plotId, browser(i % 5))));
    await eventually(async () => (await counted(plotId)).views === 5);
    expect((await metric('gateway_plot_views_sends_total', { result: 'ok' })) - sendsBefore).toBeLessThanOrEqual(2);
    expect(await metric('gateway_plot_views_heard_total', { outcome: 'coalesced' })).toBeGreaterThanOrEqual(40);

    // A bot, the owner (their cookie goes along), and one more person, heard together: only the person counts.
    await view(plotId, 'curl/8.5.0');
    await view(plotId, browser('owner'), { cookie: `${OWNER_COOKIE}=${ownerCookie}` });
    await view(plotId, browser('sixth'));
    await eventually(async () => (await counted(plotId)).views === 6);
    expect(await metric('gateway_plot_views_heard_total', { outcome: 'bot' })).toBeGreaterThanOrEqual(1);
    expect(await metric('gateway_plot_views_pending')).toBe(0);
    expect(await ownerPageToday(token)).toMatchObject({ views: 6, badgeViews: 0 });
  });

  it('counts badge loads as badge views, apart from page views', async () => {
    const { plotId, token } = await claimedPlot();
    for (const n of [1, 2, 2, 3]) {
      const badge = await fetch(`${base}/badge/${plotId}.svg`, { headers: { 'user-agent': browser(`badge ${n}`) } });
      expect(badge.status, await badge.text()).toBe(200);
    }
    await eventually(async () => (await counted(plotId)).badgeViews === 3);
    expect(await ownerPageToday(token)).toMatchObject({ views: 0, badgeViews: 3 });
  });

  it('keeps views while plots is down and delivers them once it is back', async () => {
    const { plotId } = await claimedPlot();
    await forwarder.cut();
    const failedBefore = await metric('gateway_plot_views_sends_total', { result: 'failed' });
    await Promise.all([1, 2, 3].map((n) => view(plotId, browser(`outage ${n}`))));
    // Tried, failed, and still held.
    await eventually(async () => (await metric('gateway_plot_views_sends_total', { result: 'failed' })) > failedBefore);
    expect(await metric('gateway_plot_views_pending')).toBe(3);
    await forwarder.restore();
    await eventually(async () => (await counted(plotId)).views === 3, 30_000);
    expect(await metric('gateway_plot_views_pending')).toBe(0);
  }, 60_000);

  it('sends what waits when the gateway shuts down', async () => {
    const { plotId } = await claimedPlot();
    const second = await startGateway();
    const secondBase = `http://127.0.0.1:${(second.server.address() as net.AddressInfo).port}`;
    await fetch(`${secondBase}/test-view/${plotId}`, { headers: { 'user-agent': browser('last') } }).then((r) => r.arrayBuffer());
    // Its first round waits a second: the view is still pending when the close begins.
    expect((await second.metrics.getSingleMetric('gateway_plot_views_pending')!.get()).values[0]?.value).toBe(1);
    await second.close();
    expect((await counted(plotId)).views).toBe(1);
  });
});
