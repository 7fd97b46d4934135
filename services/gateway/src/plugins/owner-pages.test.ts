// The owner's edit, end to end through the real gateway in front of the real plots and moderation services: the
// change reaches an open map (live updates over SSE) and the server-rendered page; the owner page's headers and the
// gateway's CSRF rule for owner edits and stat beacons.
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { buyAndClaim, type World } from '@pixel-atlas/test-stack/world';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayOverWorld, TEST_SHELL, type GatewayOverWorld } from '../testing/gateway-over-world.ts';
import { openLiveStream } from '../testing/live-stream.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let world: World;
let base: string;
let stack: GatewayOverWorld;
let nextSpot: () => { x: number; y: number };

beforeAll(async () => {
  stack = await startGatewayOverWorld({ web: { 'index.html': TEST_SHELL, 'app.html': TEST_SHELL } });
  ({ world, base } = stack);
  nextSpot = spotSupply(world, 2, 10);
});

afterAll(async () => {
  await stack?.close();
});

async function claimedPlot() {
  const spot = nextSpot();
  const { response } = await buyAndClaim(world, { tier: 'basic', ...spot });
  expect(response.statusCode).toBe(201);
  return { plotId: response.json().plot.id as string, token: response.json().manage_token as string };
}

const sameOrigin = { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', 'user-agent': BROWSER };

describe('an owner edit through the gateway', () => {
  it('reaches an open map (SSE) and the server-rendered page; the old content is gone from both', async () => {
    const { plotId, token } = await claimedPlot();
    const before = await (await fetch(`${base}/plot/${plotId}`, { headers: { 'user-agent': BROWSER } })).text();
    expect(before).toContain('First program, first plot.');

    const live = await openLiveStream(`${base}/api/live`);
    await live.readUntil('event: ready');

    const edited = await fetch(`${base}/api/manage/${token}`, {
      method: 'PATCH',
      headers: sameOrigin,
      body: JSON.stringify({ message: 'Now on the analytical engine', link: 'https://engine.example.org/' }),
    });
    expect(edited.status).toBe(200);
    expect(edited.headers.get('referrer-policy')).toBe('no-referrer');
    expect(((await edited.json()) as { status: string }).status).toBe('applied');

    await live.readUntil(`"reason":"updated","plotId":"${plotId}"`);
    live.close();
    // What an open map fetches on that message.
    const list = (await (await fetch(`${base}/api/plots`)).json()) as Array<{ id: string; message: string; link: string }>;
    expect(list.find((p) => p.id === plotId)).toMatchObject({
      message: 'Now on the analytical engine',
      link: 'https://engine.example.org/',
    });

    // The owner, whose browser their owner page marked, sees what they saved at once; a visitor within a second
    // (pages a crowd opens may be answered from the copy being rebuilt for that long).
    const ownerCookie = (await fetch(`${base}/api/manage/${token}`)).headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(ownerCookie).toMatch(/^pa_owns=/);
    const page = await (await fetch(`${base}/plot/${plotId}`, { headers: { 'user-agent': BROWSER, cookie: ownerCookie } })).text();
    // The head tags here (the body is the web app's server render, which these tests run without).
    expect(page).toContain('Now on the analytical engine');
    expect(page).not.toContain('First program, first plot.');
    await eventually(async () => {
      const visitorPage = await (await fetch(`${base}/plot/${plotId}`, { headers: { 'user-agent': BROWSER } })).text();
      return visitorPage.includes('Now on the analytical engine') && !visitorPage.includes('First program, first plot.');
    });
    const sitemap = await (await fetch(`${base}/sitemaps/plots-1.xml`)).text();
    expect(sitemap).toContain(`/plot/${plotId}`);
  });

  it('serves the owner page privately and refuses cross-site edits and beacons', async () => {
    const { plotId, token } = await claimedPlot();
    const page = await fetch(`${base}/manage/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('<div id="root">');

    const crossSite = { ...sameOrigin, 'sec-fetch-site': 'cross-site' };
    const forged = await fetch(`${base}/api/manage/${token}`, {
      method: 'PATCH',
      headers: crossSite,
      body: JSON.stringify({ message: 'pwned', link: '' }),
    });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('CROSS_SITE_REQUEST');
    const beacon = await fetch(`${base}/api/plot-stats`, {
      method: 'POST',
      headers: crossSite,
      body: JSON.stringify({ plotId, kind: 'click' }),
    });
    expect(beacon.status).toBe(403);
    const wrong = await fetch(`${base}/api/manage/${'x'.repeat(43)}`);
    expect(wrong.status).toBe(404);
    expect(wrong.headers.get('cache-control')).toBe('no-store');
  });

  it('counts a server-rendered view once for a browser, never for a crawler, and the app beacon through the gateway', async () => {
    const { plotId, token } = await claimedPlot();
    await fetch(`${base}/plot/${plotId}`, { headers: { 'user-agent': BROWSER } });
    await fetch(`${base}/plot/${plotId}`, {
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    });
    const beacon = await fetch(`${base}/api/plot-stats`, {
      method: 'POST',
      // What navigator.sendBeacon sends for a string body.
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'same-origin', 'user-agent': BROWSER },
      body: JSON.stringify({ plotId, kind: 'click' }),
    });
    expect(beacon.status).toBe(204);
    const today = await eventually(async () => {
      const page = (await (await fetch(`${base}/api/manage/${token}`)).json()) as {
        stats: { days: Array<{ views: number; clicks: number }> };
      };
      const days = page.stats.days;
      const last = days.at(-1);
      return last?.views === 1 && last.clicks === 1 ? last : null;
    });
    expect(today).toMatchObject({ views: 1, profileOpens: 0, clicks: 1 });
  });

  it("does not count the owner's own view of a server-rendered page (the owner cookie from the owner page), counts another browser's", async () => {
    const { plotId, token } = await claimedPlot();
    const page = await fetch(`${base}/api/manage/${token}`);
    expect(page.status).toBe(200);
    const setCookie = page.headers.getSetCookie().find((line) => line.startsWith('pa_owns='));
    expect(setCookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
    const ownerCookie = setCookie!.split(';')[0]!;
    const ownerViews = async () =>
      Number(
        /plots_plot_views_total\{kind="view",outcome="owner",service="plots"\} (\d+)/.exec(await world.plots.metrics.metrics())?.[1] ?? 0,
      );
    const before = await ownerViews();

    // Another browser (another user agent, so not a repeat of the owner's visit) and the owner's.
    await fetch(`${base}/plot/${plotId}`, { headers: { 'user-agent': BROWSER, cookie: `other=1; ${ownerCookie}` } });
    await fetch(`${base}/plot/${plotId}`, { headers: { 'user-agent': `${BROWSER} Edg/131.0` } });
    await eventually(async () => (await ownerViews()) === before + 1);
    const today = await eventually(async () => {
      const { stats } = (await (await fetch(`${base}/api/manage/${token}`)).json()) as { stats: { days: Array<{ views: number }> } };
      return stats.days.at(-1)?.views === 1 ? stats.days.at(-1) : null;
    });
    expect(today).toMatchObject({ views: 1 });
  });
});
