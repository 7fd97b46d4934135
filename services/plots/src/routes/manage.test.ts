import { createHash } from 'node:crypto';
import { eventually } from '@pixel-atlas/service-kit/testing';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { asAdmin, buyAndClaim, flaggedPlots, streamEvents, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

const world = worldPerFile();

/** Polls until the assertions in `check` pass. */
const until = (check: () => Promise<unknown>) =>
  eventually(async () => {
    await check();
    return true;
  });

const nextSpot = spotSupply(world, 2, 40);

/** The plot's held edit in moderation's review queue, once moderation has queued it. */
const queuedEdit = (plotId: string) =>
  eventually(async () => (await flaggedPlots(world)).find((item) => item.id === plotId && item.kind === 'edit'));

async function claimed(overrides: Record<string, unknown> = {}) {
  const spot = nextSpot();
  const { sessionId, response } = await buyAndClaim(world, { tier: 'basic', ...spot }, overrides);
  expect(response.statusCode).toBe(201);
  const body = response.json();
  return { plot: body.plot, token: body.manage_token as string, sessionId };
}

const manage = (token: string, method: 'GET' | 'PATCH' | 'PUT' | 'POST' = 'GET', payload?: unknown, suffix = '', ip?: string) =>
  world.plots.inject({ method, url: `/api/manage/${token}${suffix}`, payload: payload as object, headers: viaGateway(ip) });

describe('the owner link', () => {
  it('is issued once at claim: 256 random bits, only its sha256 stored, nowhere else', async () => {
    const { plot, token } = await claimed();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await world.db.query<{ token_hash: string }>(`SELECT token_hash FROM plots.plot_manage_tokens WHERE plot_id = $1`, [
      plot.id,
    ]);
    expect(row?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const outbox = await world.db.query<{ payload: unknown }>(`SELECT payload FROM plots.outbox_events`);
    expect(JSON.stringify(outbox)).not.toContain(token);
    expect(JSON.stringify(await streamEvents(world))).not.toContain(token);

    const page = await manage(token);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    const body = page.json();
    expect(body.plot).toMatchObject({ id: plot.id, display_name: 'Ada Lovelace', visible: true });
    expect(body.pendingEdit).toBeNull();
    expect(body.stats.days).toHaveLength(30);
    expect(body.linkHealth).toEqual({ status: 'unchecked', lastOkAt: null, lastCheckedAt: null, lastError: null });
  });

  it('refuses a wrong, malformed or rotated token with one 404, and an admin revoke ends it', async () => {
    const { plot, token } = await claimed();
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [wrong, 'short', `${token}x`, `${token.slice(0, -1)}.`]) {
      const response = await manage(bad);
      expect(response.statusCode, bad).toBe(404);
      expect(response.json().error).toEqual({
        code: 'NOT_FOUND',
        message: 'This owner link is not valid. It may have been replaced by a newer one.',
      });
    }
    const rotated = await manage(token, 'POST', undefined, '/rotate');
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().token as string;
    expect(fresh).not.toBe(token);
    expect((await manage(token)).statusCode).toBe(404);
    expect((await manage(token, 'PATCH', { message: 'x', link: '' })).statusCode).toBe(404);
    expect((await manage(fresh)).statusCode).toBe(200);

    expect(
      (await world.plots.inject({ method: 'POST', url: `/api/admin/plots/${plot.id}/revoke-manage-link`, headers: viaGateway() }))
        .statusCode,
    ).toBe(401);
    const revoked = await world.plots.inject({ method: 'POST', url: `/api/admin/plots/${plot.id}/revoke-manage-link`, headers: asAdmin() });
    expect(revoked.json()).toEqual({ plotId: plot.id, revoked: true });
    expect((await manage(fresh)).statusCode).toBe(404);
  });

  it('is rate-limited per client address', async () => {
    const ip = '198.51.100.77';
    const statuses = [];
    for (let i = 0; i < 31; i++) statuses.push((await manage('A'.repeat(43), 'GET', undefined, '', ip)).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('owner edits: message and link, live at once or refused', () => {
  it('a clean edit of message and link is live at once and emits plots.plot.updated; name and position stay', async () => {
    const { plot, token } = await claimed();
    const edited = await manage(token, 'PATCH', {
      message: '  New words from Ada ',
      link: 'https://example.org/new',
      display_name: 'Mallory',
      x: 0,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      status: 'applied',
      plot: { message: 'New words from Ada', link: 'https://example.org/new', display_name: 'Ada Lovelace', x: plot.x },
    });
    const publicPlot = (await world.plots.inject(`/api/plots/${plot.id}`)).json();
    expect(publicPlot).toMatchObject({ message: 'New words from Ada', link: 'https://example.org/new' });
    const list = (await world.plots.inject('/api/plots')).json<Array<{ id: string; message: string }>>();
    expect(list.find((p) => p.id === plot.id)?.message).toBe('New words from Ada');
    await until(async () => {
      const updates = (await streamEvents(world, 'plots.plot.updated')).filter((e) => e.data.plotId === plot.id);
      expect(updates).toHaveLength(1);
      expect(updates[0]?.data).toMatchObject({
        message: 'New words from Ada',
        link: 'https://example.org/new',
        changed: ['message', 'link'],
        visible: true,
      });
    });
    // Removing the link.
    const unlinked = await manage(token, 'PATCH', { message: 'New words from Ada', link: '' });
    expect(unlinked.json().plot.link).toBeNull();
  });

  it('refuses what a claim refuses (same schema), changing nothing', async () => {
    const { plot, token } = await claimed();
    for (const body of [
      { message: 'x'.repeat(141) },
      { message: 'ok', link: 'javascript:alert(1)' },
      { message: 'ok', link: 'ftp://example.com' },
    ]) {
      const response = await manage(token, 'PATCH', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).json().message).toBe('First program, first plot.');
  });

  it('refuses a NUL byte (once a PostgreSQL 500), control, bidi and zero-width characters, and user info in the link: 400, nothing changed', async () => {
    const { plot, token } = await claimed();
    const edits = () => world.db.query(`SELECT 1 FROM plots.plot_edits WHERE plot_id = $1`, [plot.id]);
    const invisible = "can't contain invisible characters (zero-width spaces or text-direction marks)";
    for (const [body, message] of [
      [{ message: 'Hello\u0000world' }, "message: Message can't contain control characters"],
      [{ message: 'Hello\u001Bworld' }, "message: Message can't contain control characters"],
      [{ message: 'Hello \u202Edlrow' }, `message: Message ${invisible}`],
      [{ message: 'Hello \u2067world\u2069' }, `message: Message ${invisible}`],
      [{ message: 'Hel\u200Blo' }, `message: Message ${invisible}`],
      [{ message: 'Hel\u2060lo' }, `message: Message ${invisible}`],
      [{ message: 'ok', link: 'https://example.com/a\u0000b' }, "link: Link can't contain control characters"],
      [{ message: 'ok', link: 'https://user:pw@example.com' }, "link: Links can't contain a user name or password"],
      [{ message: 'ok', link: 'https://a.com\\@b.example' }, "link: Links can't contain a user name or password"],
    ] as const) {
      const response = await manage(token, 'PATCH', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).json()).toMatchObject({
      message: 'First program, first plot.',
      link: 'https://example.com/ada',
    });
    expect(await edits()).toEqual([]);
    // Line breaks are a message's own: allowed, and an emoji sequence with its joiner.
    const multiline = await manage(token, 'PATCH', { message: 'Line one\nline two 👩\u200D💻', link: 'https://example.com/ada' });
    expect(multiline.json()).toMatchObject({ status: 'applied', plot: { message: 'Line one\nline two 👩\u200D💻' } });
  });
});

describe('owner edits: held for review, then approved or rejected', () => {
  it('an edit with a listed word waits for review while the plot keeps its content; approval applies it', async () => {
    const { plot, token } = await claimed();
    const held = await manage(token, 'PATCH', { message: 'I hate Mondays', link: 'https://example.com/ada' });
    expect(held.statusCode).toBe(200);
    expect(held.json()).toMatchObject({ status: 'under_review', plot: { message: 'First program, first plot.' } });
    expect(held.json().warning).toMatch(/review/);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).json().message).toBe('First program, first plot.');
    const page = (await manage(token)).json();
    expect(page.plot.message).toBe('First program, first plot.');
    expect(page.pendingEdit).toMatchObject({ message: 'I hate Mondays', link: 'https://example.com/ada' });
    const submitted = await eventually(async () => {
      const events = (await streamEvents(world, 'plots.edit.submitted')).filter((e) => e.data.plotId === plot.id);
      expect(events).toHaveLength(1);
      return events[0];
    });
    expect(submitted.data).toMatchObject({
      message: 'First program, first plot.',
      proposed: { message: 'I hate Mondays' },
      screenedWords: ['hate'],
    });
    expect((await streamEvents(world, 'plots.plot.updated')).filter((e) => e.data.plotId === plot.id)).toHaveLength(0);

    // The admin approves it in moderation's queue: plots applies it.
    const queued = await queuedEdit(plot.id);
    expect(queued).toMatchObject({
      message: 'I hate Mondays',
      current: { message: 'First program, first plot.' },
      reasons: ['hate'],
      edit_id: submitted.data.editId,
    });
    const decided = await world.moderation!.inject({
      method: 'POST',
      url: '/api/admin/approve-plot',
      payload: { plotId: plot.id, editId: submitted.data.editId },
      headers: asAdmin(),
    });
    expect(decided.statusCode).toBe(200);
    await until(async () => expect((await world.plots.inject(`/api/plots/${plot.id}`)).json().message).toBe('I hate Mondays'));
    expect((await manage(token)).json().pendingEdit).toBeNull();
  });

  it('a rejected edit is dropped and the plot stays as it was', async () => {
    const { plot, token } = await claimed();
    await manage(token, 'PATCH', { message: 'Free porn here', link: '' });
    const editId = (await queuedEdit(plot.id)).edit_id as string;
    const decided = await world.moderation!.inject({
      method: 'POST',
      url: '/api/admin/reject-plot',
      payload: { plotId: plot.id, editId },
      headers: asAdmin(),
    });
    expect(decided.statusCode).toBe(200);
    await until(async () => expect((await manage(token)).json().pendingEdit).toBeNull());
    const publicPlot = await world.plots.inject(`/api/plots/${plot.id}`);
    expect(publicPlot.statusCode).toBe(200);
    expect(publicPlot.json()).toMatchObject({ message: 'First program, first plot.', link: 'https://example.com/ada' });
  });
});

describe('owner edits: the avatar', () => {
  it('replaces the avatar through the claim re-encode: new URL version, new bytes', async () => {
    const { plot, token } = await claimed();
    const before = await world.plots.inject(`/api/plots/${plot.id}/avatar`);
    const red = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 220, g: 20, b: 20 } } })
      .jpeg()
      .toBuffer();
    const replaced = await manage(token, 'PUT', { avatar_url: `data:image/jpeg;base64,${red.toString('base64')}` }, '/avatar');
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().plot.avatar_url).toBe(`/api/plots/${plot.id}/avatar?v=1`);
    const after = await world.plots.inject(replaced.json().plot.avatar_url);
    expect(after.headers['content-type']).toBe('image/png');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(await sharp(after.rawPayload).metadata()).toMatchObject({ width: 128, height: 128, format: 'png' });
    expect(after.rawPayload.equals(before.rawPayload)).toBe(false);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect((await manage(token, 'PUT', { avatar_url: `data:image/svg+xml;base64,${svg.toString('base64')}` }, '/avatar')).statusCode).toBe(
      400,
    );
    await until(async () => {
      const updates = (await streamEvents(world, 'plots.plot.updated')).filter((e) => e.data.plotId === plot.id);
      expect(updates.map((e) => [e.data.changed, e.data.avatarUrl])).toEqual([[['avatar'], `/api/plots/${plot.id}/avatar?v=1`]]);
    });
  });

  it('only the current avatar URL is immutable: a stale or unknown ?v= is cached for a minute', async () => {
    const { plot, token } = await claimed();
    const cacheOf = async (query: string) => (await world.plots.inject(`/api/plots/${plot.id}/avatar${query}`)).headers['cache-control'];
    const IMMUTABLE = 'public, max-age=31536000, immutable';
    const SHORT = 'public, max-age=60';
    expect(await cacheOf('')).toBe(IMMUTABLE);
    for (const unknown of ['?v=1', '?v=999', '?v=abc', '?v=', '?v=0&v=0']) expect(await cacheOf(unknown), unknown).toBe(SHORT);

    const blue = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 20, b: 220 } } })
      .png()
      .toBuffer();
    const replaced = await manage(token, 'PUT', { avatar_url: `data:image/png;base64,${blue.toString('base64')}` }, '/avatar');
    expect(replaced.json().plot.avatar_url).toBe(`/api/plots/${plot.id}/avatar?v=1`);
    expect(await cacheOf('?v=1')).toBe(IMMUTABLE);
    // The claim's URL now answers the new picture: no longer for a year.
    for (const stale of ['', '?v=0', '?v=2']) expect(await cacheOf(stale), stale).toBe(SHORT);
  });
});

describe('stats', () => {
  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
  const beacon = (plotId: string, kind: string, userAgent: string, contentType = 'text/plain;charset=UTF-8') =>
    world.plots.inject({
      method: 'POST',
      url: '/api/plot-stats',
      payload: JSON.stringify({ plotId, kind }),
      headers: { ...viaGateway(), 'content-type': contentType, 'user-agent': userAgent },
    });

  it('counts each view, profile open and click once per beacon, per day, and never a bot; the owner and the admin see them', async () => {
    const { plot, token } = await claimed();
    expect((await beacon(plot.id, 'view', BROWSER)).statusCode).toBe(204);
    expect((await beacon(plot.id, 'view', BROWSER, 'application/json')).statusCode).toBe(204);
    expect((await beacon(plot.id, 'profile_open', BROWSER)).statusCode).toBe(204);
    expect((await beacon(plot.id, 'click', BROWSER)).statusCode).toBe(204);
    for (const bot of [
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'curl/8.5.0',
      'facebookexternalhit/1.1',
      'python-requests/2.31',
      '',
    ]) {
      expect((await beacon(plot.id, 'click', bot)).statusCode).toBe(204);
    }
    expect((await beacon(plot.id, 'teleport', BROWSER)).statusCode).toBe(400);
    // Badge views are heard by the gateway that serves the badge, never from a browser's beacon.
    expect((await beacon(plot.id, 'badge_view', BROWSER)).statusCode).toBe(400);
    expect((await beacon(plot.id, 'view', BROWSER, 'text/plain')).statusCode).toBe(204);
    const rows = await world.db.query(`SELECT views, profile_opens, clicks FROM plots.plot_daily_stats WHERE plot_id = $1`, [plot.id]);
    expect(rows).toEqual([{ views: 3, profile_opens: 1, clicks: 1 }]);
    const scraped = await world.plots.metrics.metrics();
    expect(scraped).toContain('plots_stat_beacons_total{kind="view",outcome="counted",service="plots"} 3');
    expect(scraped).toContain('plots_stat_beacons_total{kind="click",outcome="bot",service="plots"} 5');
    const columns = await world.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'plots' AND table_name = 'plot_daily_stats' ORDER BY 1`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(['badge_views', 'clicks', 'day', 'plot_id', 'profile_opens', 'views']);

    const days = (await manage(token)).json().stats.days;
    expect(days.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), views: 3, profileOpens: 1, clicks: 1, badgeViews: 0 });
    expect(days.slice(0, -1).every((d: { views: number }) => d.views === 0)).toBe(true);

    const top = await world.plots.inject({ url: '/api/admin/top-plots?days=7', headers: asAdmin() });
    expect(top.statusCode).toBe(200);
    expect(top.json().plots[0]).toEqual({
      plotId: plot.id,
      displayName: 'Ada Lovelace',
      tier: 'basic',
      views: 3,
      profileOpens: 1,
      clicks: 1,
    });
    expect((await world.plots.inject({ url: '/api/admin/top-plots', headers: viaGateway() })).statusCode).toBe(401);
  });
});
