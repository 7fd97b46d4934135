import fastifyCookie from '@fastify/cookie';
import { TEST_INTERNAL_TOKEN, eventually } from '@pixel-atlas/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { defaultVisitorCookieSecret } from '../domain/flag-plot.ts';
import { buyAndClaim, flaggedPlots, flagPlot, outboxEvents, streamEvents } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

/** A visitor cookie as plots issues it (signed with the test deployment's secret). */
const signed = (value: string) => fastifyCookie.sign(value, defaultVisitorCookieSecret(TEST_INTERNAL_TOKEN));

const RATE_LIMIT = 8;
const world = worldPerFile({ plotsEnv: { FLAG_RATE_LIMIT_MAX: String(RATE_LIMIT), FLAG_RATE_LIMIT_WINDOW_MS: '600000' } });

const nextSpot = spotSupply(world, 2, 60);
async function claimed(overrides: Record<string, unknown> = {}) {
  const spot = nextSpot();
  const { response } = await buyAndClaim(
    world,
    { tier: 'basic', ...spot },
    { display_name: 'Flag Target', message: 'Hello there', ...overrides },
  );
  expect(response.statusCode).toBe(201);
  return response.json().plot as { id: string; x: number; y: number; display_name: string; flagged: boolean };
}

/** The pa_visitor value a response set, or null. */
function issuedCookie(response: { headers: Record<string, unknown> }): string | null {
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? header : typeof header === 'string' ? [header] : [];
  const found = all.find((c) => c.startsWith('pa_visitor='));
  return found ? found.slice('pa_visitor='.length).split(';')[0] : null;
}

const flagRows = async (plotId: string) =>
  world.db.query<{ visitor_key: string; reason: string | null }>(
    `SELECT visitor_key, reason FROM plots.plot_flags WHERE plot_id = $1 ORDER BY created_at`,
    [plotId],
  );
const flaggedEventsOf = async (plotId: string) => (await streamEvents(world, 'plots.plot.flagged')).filter((e) => e.data.plotId === plotId);
/** What plots wrote to its outbox in the flags' own transactions: every plots.plot.flagged it will ever publish. */
const flaggedOutboxOf = async (plotId: string) =>
  (await outboxEvents(world, 'plots', 'plots.plot.flagged')).filter((e) => e.data.plotId === plotId);
const queued = async (plotId: string) => (await flaggedPlots(world)).find((p) => p.id === plotId);
let ipCounter = 0;
const freshIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe('POST /api/flag-plot', () => {
  it('flags a plot for review: 200, flagged, still listed, plots.plot.flagged with the snapshot, in the moderation queue; a visitor cookie is issued', async () => {
    const plot = await claimed({ display_name: 'Spammy Sam', message: 'Buy followers cheap', link: 'https://spam.example/x' });
    const response = await flagPlot(world, plot.id, { ip: freshIp(), reason: '  Spam link  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ flagged: true, plotId: plot.id });
    const setCookie = String(([] as string[]).concat(response.headers['set-cookie'] as string[])[0]);
    // A random value and its signature (value.HMAC-SHA256 in base64).
    expect(setCookie).toMatch(/^pa_visitor=[A-Za-z0-9_-]{32}\.[A-Za-z0-9+/%]{43}; /);
    expect(setCookie).toContain('Max-Age=31536000');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');

    // A visitor flag never hides the plot: it stays listed and on its page, marked flagged.
    const one = await world.plots.inject(`/api/plots/${plot.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: plot.id, flagged: true, reviewed: false });
    expect((await world.plots.inject('/api/plots')).json()).toContainEqual(one.json());
    expect((await world.plots.inject(`/api/users/${encodeURIComponent('Spammy Sam')}/plots`)).json().plots).toEqual([one.json()]);
    expect(await flagRows(plot.id)).toEqual([{ visitor_key: expect.stringMatching(/^ip:198\.18\./), reason: 'Spam link' }]);

    const event = await eventually(async () => (await flaggedEventsOf(plot.id))[0]);
    expect(event.data).toEqual({
      plotId: plot.id,
      displayName: 'Spammy Sam',
      zone: 'nexus',
      tier: 'basic',
      x: plot.x,
      y: plot.y,
      message: 'Buy followers cheap',
      link: 'https://spam.example/x',
      createdAt: expect.any(String),
      flagCount: 1,
      reason: 'Spam link',
    });
    const review = await eventually(() => queued(plot.id), 15_000);
    expect(review).toMatchObject({ display_name: 'Spammy Sam', flag_count: 1, reasons: ['Spam link'], source: 'visitor' });
    expect((await world.plots.inject('/metrics')).body).toMatch(/plots_flags_total\{outcome="new",service="plots"\} 1/);
  });

  it('counts the same visitor once: by cookie, by address without one, and a browser whose first flag came without the cookie', async () => {
    const plot = await claimed();
    // A browser: first flag without a cookie (keyed by its address), later ones with the cookie it was given.
    const browserIp = freshIp();
    const first = await flagPlot(world, plot.id, { ip: browserIp });
    const cookie = issuedCookie(first);
    expect(cookie).toBeTruthy();
    const again = await flagPlot(world, plot.id, { ip: freshIp(), cookie: cookie! }); // even from another network
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(issuedCookie(again)).toBeNull(); // it has one already

    // curl: never any cookie, always the same address.
    const curlIp = freshIp();
    for (let i = 0; i < 3; i++) expect((await flagPlot(world, plot.id, { ip: curlIp })).statusCode).toBe(200);

    // A visitor with a cookie, twice.
    const cookieVisitor = signed('visitor-cookie-value-0123456789ab');
    for (let i = 0; i < 2; i++)
      expect((await flagPlot(world, plot.id, { ip: freshIp(), cookie: cookieVisitor, reason: 'Offensive' })).json()).toEqual({
        flagged: true,
        plotId: plot.id,
      });

    expect(await flagRows(plot.id)).toHaveLength(3);
    // One event per distinct visitor, never for a repeat: each flag's event is written in its request's transaction,
    // so the outbox already holds every one the requests above will ever cause.
    expect((await flaggedOutboxOf(plot.id)).map((e) => e.data.flagCount)).toEqual([1, 2, 3]);
    await eventually(async () => (await queued(plot.id))?.flag_count === 3, 15_000);
    expect((await flaggedEventsOf(plot.id)).map((e) => e.data.flagCount)).toEqual([1, 2, 3]);
  });

  it('a plot flagged by 50 different visitors stays visible; moderation shows flag_count 50; each of them again changes nothing', async () => {
    const plot = await claimed({ display_name: 'Popular Target' });
    const visitors = Array.from({ length: 50 }, (_, i) => ({
      ip: freshIp(),
      cookie: signed(`fifty-visitors-cookie-${String(i).padStart(4, '0')}`),
    }));
    const responses = await Promise.all(visitors.map((v) => flagPlot(world, plot.id, v)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    await Promise.all(visitors.map((v) => flagPlot(world, plot.id, v)));

    expect(await flagRows(plot.id)).toHaveLength(50);
    const one = await world.plots.inject(`/api/plots/${plot.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().flagged).toBe(true);
    expect((await world.plots.inject('/api/plots')).json().map((p: { id: string }) => p.id)).toContain(plot.id);
    const [row] = await world.db.query(`SELECT visible, removed_at FROM plots.plots WHERE id = $1`, [plot.id]);
    expect(row).toEqual({ visible: true, removed_at: null });

    await eventually(async () => (await queued(plot.id))?.flag_count === 50, 20_000);
    // Concurrent flags are counted one after another (the plot row is locked): every count once, none lost.
    const counts = (
      await eventually(async () => {
        const found = await flaggedEventsOf(plot.id);
        return found.length === 50 ? found : null;
      })
    ).map((e) => e.data.flagCount);
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await flagPlot(world, plot.id, { ip: freshIp() })).statusCode).toBe(200); // a 51st
    await eventually(async () => (await queued(plot.id))?.flag_count === 51, 15_000);
  });

  it('404 PLOT_NOT_FOUND for an unknown plot and for one waiting for review; 400 for a malformed id; nothing written', async () => {
    const hidden = await claimed({ display_name: 'Hate Mail Co' }); // the screen holds it for review
    expect(hidden.flagged).toBe(true);
    for (const plotId of ['00000000-0000-4000-8000-000000000000', hidden.id]) {
      const response = await flagPlot(world, plotId, { ip: freshIp() });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({ code: 'PLOT_NOT_FOUND', message: 'Plot not found' });
    }
    expect(await flagRows(hidden.id)).toEqual([]);
    const malformed = await flagPlot(world, 'not-a-uuid', { ip: freshIp() });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('VALIDATION_FAILED');
    const longReason = await flagPlot(world, hidden.id, { ip: freshIp(), reason: 'x'.repeat(201) });
    expect(longReason.statusCode).toBe(400);
    for (const [reason, message] of [
      ['Spam\u0000', "reason: Reason can't contain control characters"],
      ['Spam \u202Ekniln', "reason: Reason can't contain invisible characters (zero-width spaces or text-direction marks)"],
      ['Sp\u200Bam', "reason: Reason can't contain invisible characters (zero-width spaces or text-direction marks)"],
    ]) {
      const refused = await flagPlot(world, hidden.id, { ip: freshIp(), reason });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe(message);
    }
    expect(await flagRows(hidden.id)).toEqual([]);
  });

  it(`is rate-limited per client address: ${RATE_LIMIT} requests per window, then 429 with a clear message`, async () => {
    const plot = await claimed();
    const ip = freshIp();
    for (let i = 0; i < RATE_LIMIT; i++) expect((await flagPlot(world, plot.id, { ip })).statusCode).toBe(200);
    const limited = await flagPlot(world, plot.id, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many requests\. Please wait \d+ seconds and try again\.$/),
    });
    // Others are not affected.
    expect((await flagPlot(world, plot.id, { ip: freshIp() })).statusCode).toBe(200);
    expect(await flagRows(plot.id)).toHaveLength(2);
  });
});
