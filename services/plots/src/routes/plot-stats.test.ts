// Beacons count once per visitor, plot, kind and day: a reload or a script hammering one plot from one visitor adds one,
// ten visitors add ten; what is stored of a visitor is a keyed hash that names no address.
import { describe, expect, it } from 'vitest';
import { buyAndClaim, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

const world = worldPerFile();
const nextSpot = spotSupply(world, 2, 8);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148';

async function claimedPlotId(): Promise<string> {
  const { response } = await buyAndClaim(world, { tier: 'basic', ...nextSpot() });
  expect(response.statusCode).toBe(201);
  return response.json().plot.id as string;
}

const beacon = (plotId: string, kind: string, ip: string, userAgent = BROWSER, cookie?: string) =>
  world.plots.inject({
    method: 'POST',
    url: '/api/plot-stats',
    payload: JSON.stringify({ plotId, kind }),
    headers: {
      ...viaGateway(ip),
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': userAgent,
      ...(cookie && { cookie: `pa_owns=${cookie}` }),
    },
  });

/** The pa_owns value a response set (still URL-encoded, as a browser sends it back), and the whole Set-Cookie line. */
function ownerCookie(response: { headers: Record<string, unknown> }): { value: string; line: string } | null {
  const all = ([] as string[]).concat((response.headers['set-cookie'] as string[] | string | undefined) ?? []);
  const line = all.find((c) => c.startsWith('pa_owns='));
  return line ? { value: line.slice('pa_owns='.length).split(';')[0]!, line } : null;
}

const today = async (plotId: string) =>
  (
    await world.db.query<{ views: number; profile_opens: number; clicks: number }>(
      `SELECT views, profile_opens, clicks FROM plots.plot_daily_stats WHERE plot_id = $1`,
      [plotId],
    )
  )[0] ?? { views: 0, profile_opens: 0, clicks: 0 };

describe('plot stats per visitor', () => {
  it('counts one visitor once per plot, kind and day however often it sends, and ten addresses as ten', async () => {
    const plotId = await claimedPlotId();
    const other = await claimedPlotId();
    for (let i = 0; i < 20; i++) expect((await beacon(plotId, 'view', '203.0.113.50')).statusCode).toBe(204);
    await beacon(plotId, 'click', '203.0.113.50');
    await beacon(plotId, 'click', '203.0.113.50');
    await beacon(other, 'view', '203.0.113.50');
    expect(await today(plotId)).toEqual({ views: 1, profile_opens: 0, clicks: 1 });
    expect((await today(other)).views).toBe(1);

    // Ten addresses with no cookie, 12 beacons each (the probe's 1,200 views in 7 s, from 10 addresses): ten visitors.
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        for (let n = 0; n < 12; n++) await beacon(plotId, 'view', `198.51.100.${i + 1}`);
      }),
    );
    expect((await today(plotId)).views).toBe(11);
    // Another browser behind a known address is another visitor; an IPv6 /64 is one client, whatever its last 64 bits.
    await beacon(plotId, 'view', '203.0.113.50', PHONE);
    await beacon(plotId, 'view', '2001:db8:7:8::1');
    await beacon(plotId, 'view', '2001:db8:7:8:ffff::2');
    expect((await today(plotId)).views).toBe(13);
    const scraped = await world.plots.metrics.metrics();
    expect(scraped).toMatch(/plots_stat_beacons_total\{kind="view",outcome="repeat",service="plots"\} 130\b/);
  });

  it('keeps of a visitor only a 16-byte keyed hash for the day, and drops those older than yesterday', async () => {
    const plotId = await claimedPlotId();
    await world.db.query(
      `INSERT INTO plots.plot_stat_visitors (plot_id, day, kind, visitor) VALUES ($1, current_date - 3, 'view', '\\x00'::bytea)`,
      [plotId],
    );
    await beacon(plotId, 'view', '192.0.2.77');
    const rows = await world.db.query<{ day: string; kind: string; visitor: Buffer; columns: string }>(
      `SELECT day::text AS day, kind, visitor FROM plots.plot_stat_visitors WHERE plot_id = $1`,
      [plotId],
    );
    expect(rows.map((r) => [r.day, r.kind, r.visitor.length])).toEqual([[new Date().toISOString().slice(0, 10), 'view', 16]]);
    expect(rows[0]!.visitor.toString('latin1')).not.toContain('192.0.2.77');
    const columns = await world.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'plots' AND table_name = 'plot_stat_visitors' ORDER BY 1`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(['day', 'kind', 'plot_id', 'visitor']);
  });
});

describe("the owner's own visits", () => {
  const claimedWithToken = async () => {
    const { response } = await buyAndClaim(world, { tier: 'basic', ...nextSpot() });
    expect(response.statusCode).toBe(201);
    return { plotId: response.json().plot.id as string, token: response.json().manage_token as string, cookie: ownerCookie(response) };
  };
  const ownerPage = (token: string, cookie?: string) =>
    world.plots.inject({
      method: 'GET',
      url: `/api/manage/${token}`,
      headers: { ...viaGateway('198.51.100.60'), ...(cookie && { cookie: `pa_owns=${cookie}` }) },
    });

  it('are not counted from the browser that claimed the plot; a forged cookie or another plot is', async () => {
    const { plotId, cookie } = await claimedWithToken();
    const other = await claimedPlotId();
    expect(cookie?.line).toMatch(/; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);

    // The claiming browser: its view and click of its own plot are not counted, its view of another plot is.
    expect((await beacon(plotId, 'view', '203.0.113.60', BROWSER, cookie!.value)).statusCode).toBe(204);
    expect((await beacon(plotId, 'click', '203.0.113.60', BROWSER, cookie!.value)).statusCode).toBe(204);
    await beacon(other, 'view', '203.0.113.60', BROWSER, cookie!.value);
    // A cookie naming the plot that we did not sign (a made-up signature, or none) owns nothing: counted.
    const ids = decodeURIComponent(cookie!.value).split('.')[0]!;
    expect(ids).toBe(plotId);
    await beacon(plotId, 'view', '203.0.113.61', BROWSER, encodeURIComponent(`${ids}.${'A'.repeat(43)}`));
    await beacon(plotId, 'view', '203.0.113.62', BROWSER, encodeURIComponent(ids));
    expect(await today(plotId)).toEqual({ views: 2, profile_opens: 0, clicks: 0 });
    expect((await today(other)).views).toBe(1);
    const scraped = await world.plots.metrics.metrics();
    expect(scraped).toMatch(/plots_stat_beacons_total\{kind="view",outcome="owner",service="plots"\} 1\b/);
  });

  it('are not counted from a browser that opened the owner page, which keeps the plots it already owned', async () => {
    const first = await claimedWithToken();
    const second = await claimedWithToken();
    const opened = await ownerPage(first.token);
    expect(opened.statusCode).toBe(200);
    const cookie = ownerCookie(opened);
    expect(cookie?.line).toMatch(/; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
    await beacon(first.plotId, 'profile_open', '198.51.100.60', PHONE, cookie!.value);
    await beacon(second.plotId, 'profile_open', '198.51.100.60', PHONE, cookie!.value);
    expect((await today(first.plotId)).profile_opens).toBe(0);
    expect((await today(second.plotId)).profile_opens).toBe(1);

    // The same browser opens its second plot's owner page: now it owns both (newest first).
    const both = ownerCookie(await ownerPage(second.token, cookie!.value))!.value;
    expect(decodeURIComponent(both).split('.').slice(0, 2)).toEqual([second.plotId, first.plotId]);
    await beacon(first.plotId, 'click', '198.51.100.61', PHONE, both);
    await beacon(second.plotId, 'click', '198.51.100.61', PHONE, both);
    expect(await today(first.plotId)).toEqual({ views: 0, profile_opens: 0, clicks: 0 });
    expect(await today(second.plotId)).toEqual({ views: 0, profile_opens: 1, clicks: 0 });
  });
});
