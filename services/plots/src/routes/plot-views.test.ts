// The gateway's batches of views (POST /internal/plot-views) count exactly as beacons do: a bot, the owner's own view
// and a visitor's repeat that day are not counted; only the gateway (its internal token) may send them.
import { PLOT_VIEWS_MAX_ENTRIES } from '@pixel-atlas/contracts/stats';
import { clientKey } from '@pixel-atlas/service-kit/client-key';
import { describe, expect, it } from 'vitest';
import { TEST_INTERNAL_TOKEN } from '@pixel-atlas/service-kit/testing';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { getPlotStats } from '../domain/get-plot-stats.ts';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { insertPlot } from '../testing/insert-plot.ts';

// The plots service alone, on its own database: the views are of plots written straight into the table.
const world = servicePerFile((env) => buildApp(loadEnv({ ...env, LINK_CHECK_INTERVAL_MS: '0' })));
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

type Kind = 'view' | 'badge_view';
/** One entry as the gateway writes it: the visitor is the client key, '\n', the user agent. */
const entry = (plotId: string, kind: Kind, ip: string, userAgent = BROWSER, ownerCookie?: string) => ({
  plotId,
  kind,
  visitor: `${clientKey(ip)}\n${userAgent}`,
  userAgent,
  ...(ownerCookie && { ownerCookie }),
});

/** Headers of a request that came through the gateway (its token), from a visitor's address. */
const viaGateway = (ip = '10.0.0.1') => ({ 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-client-ip': ip });

const send = (views: unknown[], headers: Record<string, string> = viaGateway('10.0.0.1')) =>
  world.app.inject({ method: 'POST', url: '/internal/plot-views', payload: { views }, headers });

const today = async (plotId: string) => {
  const rows = await world.db.query<{ views: number; badge_views: number }>(
    `SELECT views, badge_views FROM plots.plot_daily_stats WHERE plot_id = $1`,
    [plotId],
  );
  return rows[0] ?? { views: 0, badge_views: 0 };
};

describe('POST /internal/plot-views', () => {
  it('counts each visitor once per plot, kind and day, never a bot, the owner or a plot that is not public', async () => {
    const plot = await insertPlot(world.db, { x: 1, y: 1 });
    const other = await insertPlot(world.db, { x: 5, y: 1 });
    const hidden = await insertPlot(world.db, { x: 9, y: 1, visible: false });
    // The owner cookie as plots signs it for the browser that claimed `plot` (the gateway passes its value on).
    const ownerCookie = world.app.signCookie(plot.id);
    const forged = `${plot.id}.${'A'.repeat(43)}`;

    const response = await send([
      entry(plot.id, 'view', '203.0.113.1'),
      entry(plot.id, 'view', '203.0.113.1'), // the same visitor again: once
      entry(plot.id, 'view', '203.0.113.1', PHONE), // another browser behind that address: another visitor
      entry(plot.id, 'view', '203.0.113.2', BOT),
      entry(plot.id, 'view', '203.0.113.3', BROWSER, ownerCookie), // the owner's own view
      entry(plot.id, 'view', '203.0.113.4', BROWSER, forged), // a cookie we did not sign owns nothing: counted
      entry(plot.id, 'badge_view', '203.0.113.1'), // the badge is another kind: counted beside the page view
      entry(plot.id, 'badge_view', '203.0.113.1'),
      entry(other.id, 'view', '203.0.113.1'),
      entry(hidden.id, 'view', '203.0.113.1'),
      entry('00000000-0000-4000-8000-000000000000', 'view', '203.0.113.1'),
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ counted: 5 });
    expect(await today(plot.id)).toEqual({ views: 3, badge_views: 1 });
    expect(await today(other.id)).toEqual({ views: 1, badge_views: 0 });
    expect(await today(hidden.id)).toEqual({ views: 0, badge_views: 0 });

    // The next flush with the same visitors adds nothing; the owner's stats show the badge views.
    expect((await send([entry(plot.id, 'view', '203.0.113.1'), entry(plot.id, 'badge_view', '203.0.113.1')])).json()).toEqual({
      counted: 0,
    });
    const stats = await getPlotStats({ db: world.app.db, plotId: plot.id });
    expect(stats.days.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), views: 3, profileOpens: 0, clicks: 0, badgeViews: 1 });

    const scraped = await world.app.metrics.metrics();
    expect(scraped).toMatch(/plots_plot_views_total\{kind="view",outcome="owner",service="plots"\} 1\b/);
    expect(scraped).toMatch(/plots_plot_views_total\{kind="view",outcome="bot",service="plots"\} 1\b/);
    expect(scraped).toMatch(/plots_plot_views_total\{kind="view",outcome="unknown-plot",service="plots"\} 2\b/);
    expect(scraped).toMatch(/plots_plot_views_total\{kind="badge_view",outcome="repeat",service="plots"\} 2\b/);
  });

  it("names the visitor as the beacon does: a page view the gateway counted is the same visitor's beacon, not a second", async () => {
    const plot = await insertPlot(world.db, { x: 13, y: 1 });
    expect((await send([entry(plot.id, 'view', '198.51.100.7')])).json()).toEqual({ counted: 1 });
    // The app opened on that page sends its own view beacon, from the same address and browser.
    const beacon = await world.app.inject({
      method: 'POST',
      url: '/api/plot-stats',
      payload: JSON.stringify({ plotId: plot.id, kind: 'view' }),
      headers: { ...viaGateway('198.51.100.7'), 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER },
    });
    expect(beacon.statusCode).toBe(204);
    expect(await today(plot.id)).toEqual({ views: 1, badge_views: 0 });
  });

  it('is refused without the internal token, and bounded: 1,000 entries, 1 MB, well-formed entries', async () => {
    const plot = await insertPlot(world.db, { x: 17, y: 1 });
    const one = [entry(plot.id, 'view', '192.0.2.1')];
    const outsiders: Array<Record<string, string>> = [{}, { 'x-internal-token': 'not-the-token', 'x-client-ip': '192.0.2.1' }];
    for (const headers of outsiders) {
      const refused = await send(one, headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('FORBIDDEN');
    }
    expect(await today(plot.id)).toEqual({ views: 0, badge_views: 0 });

    const tooMany = Array.from({ length: PLOT_VIEWS_MAX_ENTRIES + 1 }, (_, i) => entry(plot.id, 'view', `192.0.2.${i % 250}`));
    expect((await send(tooMany)).statusCode).toBe(400);
    const tooLarge = await world.app.inject({
      method: 'POST',
      url: '/internal/plot-views',
      headers: { ...viaGateway(), 'content-type': 'application/json' },
      payload: JSON.stringify({ views: [], padding: 'x'.repeat(1024 * 1024) }),
    });
    expect(tooLarge.statusCode).toBe(413);
    for (const bad of [
      { ...one[0], plotId: 'not-a-uuid' },
      { ...one[0], kind: 'click' },
      { ...one[0], visitor: 'v'.repeat(701) },
    ]) {
      expect((await send([bad])).statusCode).toBe(400);
    }
    expect(await today(plot.id)).toEqual({ views: 0, badge_views: 0 });

    // A full batch of distinct visitors is one statement, all counted.
    const full = Array.from({ length: PLOT_VIEWS_MAX_ENTRIES }, (_, i) => entry(plot.id, 'view', `10.1.${i >> 8}.${i & 255}`));
    expect((await send(full)).json()).toEqual({ counted: PLOT_VIEWS_MAX_ENTRIES });
    expect(await today(plot.id)).toEqual({ views: PLOT_VIEWS_MAX_ENTRIES, badge_views: 0 });
  });

  it('counts a visitor once when batches naming them arrive at once (two gateways flushing together)', async () => {
    const plots = await Promise.all([insertPlot(world.db, { x: 21, y: 1 }), insertPlot(world.db, { x: 25, y: 1 })]);
    const visitors = Array.from({ length: 200 }, (_, i) => `10.2.${i >> 8}.${i & 255}`);
    const batch = (order: number) =>
      (order ? [...visitors].reverse() : visitors).flatMap((ip) => plots.map((plot) => entry(plot.id, 'view', ip)));
    const answers = await Promise.all([0, 1, 0, 1].map((order) => send(batch(order))));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.reduce((sum, a) => sum + a.json<{ counted: number }>().counted, 0)).toBe(400);
    for (const plot of plots) expect(await today(plot.id)).toEqual({ views: 200, badge_views: 0 });
  });

  it('is not in the public API document', async () => {
    const document = (await world.app.inject('/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths).some((path) => path.startsWith('/internal'))).toBe(false);
    expect(document.paths).toHaveProperty('/api/regions');
  });
});
