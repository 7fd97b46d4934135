import { eventually } from '@pixel-atlas/service-kit/testing';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  avatarDataUrl,
  buyAndClaim,
  buyAndPay,
  claim,
  claimBody,
  startCheckout,
  streamEvents,
  viaGateway,
  waterTile,
} from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

const world = worldPerFile();

/** Fresh non-overlapping 4×4 land squares: each case buys inside its own. */
const nextSpot = spotSupply(world, 4, 120);

async function written() {
  const [row] = await world.db.query<Record<string, string>>(`SELECT
    (SELECT count(*) FROM plots.plots) AS plots,
    (SELECT count(*) FROM plots.plot_avatars) AS avatars,
    (SELECT count(*) FROM plots.footprints WHERE kind = 'plot') AS footprints,
    (SELECT count(*) FROM plots.outbox_events) AS events`);
  return row;
}

/** Payments' used-session row (payments records it when it hears plots.plot.claimed). */
const usedSession = async (sessionId: string) =>
  (
    await world.db.query<{ ip_address: string | null }>(`SELECT ip_address FROM payments.used_sessions WHERE session_id = $1`, [sessionId])
  )[0];
const pngOf = async (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .png()
    .toBuffer();
const dataUrl = (mime: string, bytes: Buffer | string) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
/** plots_claimed_total of a tier as plots counts it now (other cases claim that tier too, and a restart starts it over). */
const claimedTotal = async (tier: string) =>
  Number(
    new RegExp(`plots_claimed_total\\{tier="${tier}",service="plots"\\} (\\d+)`).exec((await world.plots.inject('/metrics')).body)?.[1] ??
      0,
  );

describe('POST /api/claim-plot: the happy path, end to end', () => {
  it('test checkout paid through payments → claim → plot, avatar, lists, user page, event, used session', async () => {
    const featuredBefore = await claimedTotal('featured');
    const spot = nextSpot();
    const { sessionId, response } = await buyAndClaim(
      world,
      { tier: 'featured', ...spot },
      {
        display_name: '  Grace Hopper ',
        message: 'Debugging since 1947',
        zone: 'creator',
        notification_email: 'grace@example.com',
      },
      '192.0.2.10',
    );
    expect(response.statusCode).toBe(201);
    const { plot, warning } = response.json();
    expect(warning).toBeUndefined();
    expect(plot).toMatchObject({
      zone: 'creator',
      tier: 'featured',
      x: spot.x,
      y: spot.y,
      display_name: 'Grace Hopper',
      message: 'Debugging since 1947',
      link: 'https://example.com/ada',
      avatar_url: `/api/plots/${plot.id}/avatar`,
      flagged: false,
      reviewed: false,
    });
    expect(new Date(plot.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const [row] = await world.db.query(`SELECT size, visible, notification_email, stripe_session_id FROM plots.plots WHERE id = $1`, [
      plot.id,
    ]);
    expect(row).toEqual({ size: 2, visible: true, notification_email: 'grace@example.com', stripe_session_id: sessionId });
    // The session's hold became the plot's footprint.
    expect(
      await world.db.query(`SELECT kind, x, y, size FROM plots.footprints WHERE plot_id = $1 OR session_id = $2`, [plot.id, sessionId]),
    ).toEqual([{ kind: 'plot', x: spot.x, y: spot.y, size: 2 }]);

    const one = await world.plots.inject(`/api/plots/${plot.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(plot);
    const list = await world.plots.inject('/api/plots');
    expect(list.json()).toContainEqual(plot);
    expect(list.body).not.toContain('base64');

    const avatar = await world.plots.inject(plot.avatar_url);
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['content-type']).toBe('image/png');
    expect(avatar.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(avatar.rawPayload).metadata();
    // The test avatar is 64×64: re-encoded at its own size, never enlarged.
    expect(meta).toMatchObject({ format: 'png', width: 64, height: 64 });
    expect(meta.exif).toBeUndefined();
    expect(
      (await world.plots.inject({ url: plot.avatar_url, headers: { 'if-none-match': avatar.headers.etag as string } })).statusCode,
    ).toBe(304);

    const user = await world.plots.inject(`/api/users/${encodeURIComponent('grace HOPPER')}/plots`);
    expect(user.json()).toEqual({ username: 'grace HOPPER', plots: [plot] });

    const available = await world.plots.inject(`/api/position-available?x=${spot.x + 1}&y=${spot.y + 1}`);
    expect(available.json()).toEqual({ available: false, reason: 'taken', overlaps: { id: plot.id, display_name: plot.display_name } });

    const event = await eventually(async () => (await streamEvents(world, 'plots.plot.claimed')).find((e) => e.data.plotId === plot.id));
    expect(event.data).toMatchObject({
      sessionId,
      tier: 'featured',
      size: 2,
      visible: true,
      screenedWords: [],
      clientIp: '192.0.2.10',
      notificationEmail: 'grace@example.com',
    });
    expect((await eventually(() => usedSession(sessionId))).ip_address).toBe('192.0.2.10');
    expect(await claimedTotal('featured')).toBe(featuredBefore + 1);
  });

  it('accepts JPEG and GIF avatars and re-encodes larger ones to 128×128 PNG', async () => {
    for (const [format, mime] of [
      ['jpeg', 'image/jpeg'],
      ['gif', 'image/gif'],
    ] as const) {
      const spot = nextSpot();
      const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3a6' } })
        .withMetadata({ exif: { IFD0: { Copyright: 'secret-location' } } })
        .toFormat(format)
        .toBuffer();
      const { response } = await buyAndClaim(world, { tier: 'basic', ...spot }, { avatar_url: dataUrl(mime, bytes) });
      expect(response.statusCode).toBe(201);
      const avatar = await world.plots.inject(response.json().plot.avatar_url);
      expect(await sharp(avatar.rawPayload).metadata()).toMatchObject({ format: 'png', width: 128, height: 128 });
      expect(avatar.rawPayload.includes(Buffer.from('secret-location'))).toBe(false);
      // The large rendition (the map's, for big plots close up) is the stored WebP: here the picture's own 200×200.
      const url = response.json().plot.avatar_url as string;
      const large = await world.plots.inject(`${url}${url.includes('?') ? '&' : '?'}size=large`);
      expect(large.headers['content-type']).toBe('image/webp');
      expect(await sharp(large.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 200, height: 200 });
      expect(large.headers.etag).not.toBe(avatar.headers.etag);
    }
  });

  it('crops a small avatar to a square at its own size, never enlarging it', async () => {
    const spot = nextSpot();
    const bytes = await sharp({ create: { width: 90, height: 60, channels: 4, background: '#a36' } })
      .png()
      .toBuffer();
    const { response } = await buyAndClaim(world, { tier: 'basic', ...spot }, { avatar_url: dataUrl('image/png', bytes) });
    expect(response.statusCode).toBe(201);
    const avatar = await world.plots.inject(response.json().plot.avatar_url);
    expect(await sharp(avatar.rawPayload).metadata()).toMatchObject({ format: 'png', width: 60, height: 60 });
  });
});

describe('one session, one plot', () => {
  it('the identical claim sent again returns the same plot (200); a different one is refused (409); concurrent duplicates make one plot', async () => {
    const spot = nextSpot();
    const sessionId = await buyAndPay(world, { tier: 'basic', ...spot });
    const body = await claimBody(sessionId, 'basic', spot.x, spot.y);
    const results = await Promise.all(Array.from({ length: 6 }, () => claim(world, body)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const ids = new Set(results.map((r) => r.json().plot.id));
    expect(ids.size).toBe(1);
    const retry = await claim(world, body);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().plot.id).toBe([...ids][0]);

    const elsewhere = nextSpot();
    const other = await claim(world, await claimBody(sessionId, 'basic', elsewhere.x, elsewhere.y));
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toEqual({ code: 'SESSION_ALREADY_USED', message: 'This payment has already been used to claim a plot.' });
    const renamed = await claim(world, { ...body, display_name: 'Someone Else' });
    expect(renamed.statusCode).toBe(409);
    expect(
      Number(
        (await world.db.query<{ n: string }>(`SELECT count(*) AS n FROM plots.plots WHERE stripe_session_id = $1`, [sessionId]))[0]?.n,
      ),
    ).toBe(1);
  });
});

/**
 * The refusal cases share one paid Prime session on one spot, bought once for the file: each case is refused with
 * nothing written, so the session is still unused for the next, in any order.
 */
let sessionId: string;
let spot: { x: number; y: number };
let refusalSessionPaid: Promise<void> | undefined;
const payForRefusals = () =>
  (refusalSessionPaid ??= (async () => {
    spot = nextSpot();
    sessionId = await buyAndPay(world, { tier: 'prime', ...spot });
  })());

/** Claims with the shared session, these fields changed: refused with this status and code, and nothing written. */
const refused = async (overrides: Record<string, unknown>, status: number, code: string, message?: string | RegExp) => {
  const before = await written();
  const response = await claim(world, await claimBody(sessionId, 'prime', spot.x, spot.y, overrides));
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().error.code).toBe(code);
  if (typeof message === 'string') expect(response.json().error.message).toBe(message);
  if (message instanceof RegExp) expect(response.json().error.message).toMatch(message);
  expect(await written()).toEqual(before);
  return response.json().error;
};

describe('refusals, clear 4xx and nothing written: the paid tier and the place', () => {
  beforeAll(payForRefusals);

  it('a tier other than the paid one', async () => {
    const error = await refused(
      { tier: 'premium' },
      400,
      'VALIDATION_FAILED',
      'tier: Your payment was for a Prime Plot (3×3), not a Premium Plot. Please claim a Prime Plot.',
    );
    expect(error.details.paidTier).toBe('prime');
    await refused({ tier: 'basic' }, 400, 'VALIDATION_FAILED', /Your payment was for a Prime Plot/);
  });

  it('water, and a footprint hanging over water or the grid edge', async () => {
    await refused(
      { ...waterTile(world) },
      400,
      'INVALID_LOCATION',
      'You can only claim plots on land, not in water. Please choose another location.',
    );
    await refused(
      { x: 88, y: 40 },
      400,
      'INVALID_LOCATION',
      'This plot would not fit inside the map there. Please choose another location.',
    );
    await refused({ x: 95, y: 40 }, 400, 'VALIDATION_FAILED');
  });

  it('a footprint held by another checkout session', async () => {
    const other = nextSpot();
    expect((await startCheckout(world, { tier: 'basic', x: other.x + 2, y: other.y + 2 })).statusCode).toBe(200);
    await refused({ x: other.x, y: other.y }, 409, 'TILE_UNAVAILABLE', 'This tile is already claimed. Please choose another.');
  });
});

describe('refusals, clear 4xx and nothing written: the avatar', () => {
  beforeAll(payForRefusals);

  it.each([
    ['not an image', () => dataUrl('image/png', 'just some text, not pixels'), /must be a JPG, PNG or GIF image/],
    [
      'an SVG',
      () => dataUrl('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      /must be a JPG, PNG or GIF image/,
    ],
    [
      'an SVG labelled as PNG',
      () => dataUrl('image/png', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      /must be a JPG, PNG or GIF image/,
    ],
    ['a remote URL (never fetched)', () => 'https://example.com/me.png', /uploaded image/],
    ['broken base64', () => 'data:image/png;base64,%%%%', /not valid base64/],
    ['base64 with a stray character inside', () => 'data:image/png;base64,iVBORw0K*GgoAAAA=', /not valid base64/],
    ['base64 with a fifth character left over', () => 'data:image/png;base64,iVBORw0KG', /not valid base64/],
  ])('an avatar that is %s', async (_name, avatar, message) => {
    await refused({ avatar_url: avatar() }, 400, 'VALIDATION_FAILED', message);
  });

  it('a WebP bomb (the crop travels as WebP where the browser can encode it: the same pixel bound)', async () => {
    const bomb = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    await refused(
      { avatar_url: dataUrl('image/webp', bomb) },
      400,
      'VALIDATION_FAILED',
      'avatar_url: Avatar image has too many pixels. Please upload a smaller image.',
    );
  });

  it('a BMP (not on the allow-list)', async () => {
    const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(60, 0)]);
    await refused({ avatar_url: dataUrl('image/bmp', bmp) }, 400, 'VALIDATION_FAILED', /must be a JPG, PNG or GIF image/);
  });

  it('an avatar over 1 MiB decoded', async () => {
    const big = Buffer.concat([await pngOf(8, 8), Buffer.alloc(1024 * 1024)]);
    await refused(
      { avatar_url: dataUrl('image/png', big) },
      400,
      'VALIDATION_FAILED',
      'avatar_url: Avatar must be at most 1 MB (1048576 bytes).',
    );
  });

  it('a truncated PNG', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 256 * 256 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 256, height: 256, channels: 3 },
    })
      .png()
      .toBuffer();
    await refused(
      { avatar_url: dataUrl('image/png', noise.subarray(0, Math.floor(noise.length / 2))) },
      400,
      'VALIDATION_FAILED',
      /damaged or incomplete|could not be read/,
    );
  });

  it('an image with too many pixels for its size (decompression bomb)', async () => {
    const bomb = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await refused(
      { avatar_url: dataUrl('image/png', bomb) },
      400,
      'VALIDATION_FAILED',
      'avatar_url: Avatar image has too many pixels. Please upload a smaller image.',
    );
  });
});

describe('refusals, clear 4xx and nothing written: the fields and the session', () => {
  beforeAll(payForRefusals);

  it.each([
    [{ link: 'javascript:alert(1)' }, 'link: Please enter a valid http or https URL'],
    [{ link: 'data:text/html,<b>hi</b>' }, 'link: Please enter a valid http or https URL'],
    [{ display_name: 'A' }, 'display_name: Display name must be at least 2 characters'],
    [{ display_name: 'x'.repeat(31) }, 'display_name: Display name must be at most 30 characters'],
    [{ display_name: '   A   ' }, 'display_name: Display name must be at least 2 characters'],
    [{ message: 'm'.repeat(141) }, 'message: Message must be at most 140 characters'],
    [{ zone: 'lava' }, 'zone'],
    [{ tier: 'gold' }, 'tier'],
    [{ notification_email: 'not-an-email' }, 'notification_email: Please enter a valid email address'],
    [{ avatar_url: '' }, 'avatar_url: Please upload and save an avatar for your plot.'],
    [{ x: 1.5 }, 'x'],
  ])('invalid fields %#', async (overrides, message) => {
    const error = await refused(overrides, 400, 'VALIDATION_FAILED');
    expect(error.message).toContain(message);
  });

  it('an unpaid session (402) and an unknown one (404)', async () => {
    const unpaid = (await startCheckout(world, { tier: 'basic', ...nextSpot() })).json().sessionId;
    const before = await written();
    const a = await claim(world, await claimBody(unpaid, 'basic', spot.x, spot.y));
    expect(a.statusCode).toBe(402);
    expect(a.json().error.message).toBe('This payment has not been completed. Please finish paying before claiming your plot.');
    const b = await claim(world, await claimBody('cs_test_made_up', 'basic', spot.x, spot.y));
    expect(b.statusCode).toBe(404);
    expect(b.json().error).toEqual({ code: 'SESSION_NOT_FOUND', message: 'Your payment session is invalid or has expired.' });
    expect(await written()).toEqual(before);
  });

  it('control, bidi and zero-width characters in the name or message, and a link with user info (400, the shared rule)', async () => {
    const invisible = "can't contain invisible characters (zero-width spaces or text-direction marks)";
    for (const [char, problem] of [
      ['\u0000', "can't contain control characters"],
      ['\u0085', "can't contain control characters"],
      ['\u202E', invisible],
      ['\u2066', invisible],
      ['\u200B', invisible],
      ['\uFEFF', invisible],
    ] as const) {
      await refused({ display_name: `Ad${char}a` }, 400, 'VALIDATION_FAILED', `display_name: Display name ${problem}`);
      await refused({ message: `Hello ${char}there` }, 400, 'VALIDATION_FAILED', `message: Message ${problem}`);
    }
    await refused({ display_name: 'Ada\nLovelace' }, 400, 'VALIDATION_FAILED', 'display_name: Display name must be on one line');
    for (const link of ['https://user:pw@example.com', 'https://a.com\\@b.example']) {
      await refused({ link }, 400, 'VALIDATION_FAILED', "link: Links can't contain a user name or password");
    }
  });

  it('the refused session can still claim its plot afterwards', async () => {
    // A session of its own, refused first: claiming with the shared one would leave the other cases a used session.
    const spot = nextSpot();
    const sessionId = await buyAndPay(world, { tier: 'prime', ...spot });
    for (const overrides of [{ tier: 'premium' }, { ...waterTile(world) }, { avatar_url: 'data:image/png;base64,%%%%' }]) {
      const refusal = await claim(world, await claimBody(sessionId, 'prime', spot.x, spot.y, overrides));
      expect(refusal.statusCode, JSON.stringify(overrides)).toBe(400);
    }
    const ok = await claim(world, await claimBody(sessionId, 'prime', spot.x, spot.y));
    expect(ok.statusCode).toBe(201);
  });
});

describe('the held spot lost anyway', () => {
  it('the buyer keeps the paid entitlement and claims elsewhere', async () => {
    const spot = nextSpot();
    const alice = await buyAndPay(world, { tier: 'basic', ...spot });
    // Alice's hold ran out (she paid at the last minute and came back late); Bob bought and claimed the spot.
    await world.db.query(`UPDATE plots.footprints SET expires_at = now() - interval '1 minute' WHERE session_id = $1`, [alice]);
    const bob = await buyAndPay(world, { tier: 'basic', ...spot });
    expect((await claim(world, await claimBody(bob, 'basic', spot.x, spot.y, { display_name: 'Bob' }))).statusCode).toBe(201);

    const lost = await claim(world, await claimBody(alice, 'basic', spot.x, spot.y));
    expect(lost.statusCode).toBe(409);
    expect(lost.json().error).toEqual({ code: 'TILE_UNAVAILABLE', message: 'This tile is already claimed. Please choose another.' });
    expect((await world.payments.inject(`/api/verify-session/${alice}`)).json()).toMatchObject({ verified: true });
    const elsewhere = nextSpot();
    const second = await claim(world, await claimBody(alice, 'basic', elsewhere.x, elsewhere.y));
    expect(second.statusCode).toBe(201);
    expect(second.json().plot).toMatchObject({ x: elsewhere.x, y: elsewhere.y });
  });
});

describe('restarts between payment and claim', () => {
  it.each([{ services: ['plots'] }, { services: ['payments'] }, { services: ['plots', 'payments'] }] as const)(
    'restarting $services: the buyer still gets the plot',
    async ({ services }) => {
      const spot = nextSpot();
      const sessionId = await buyAndPay(world, { tier: 'featured', ...spot });
      for (const service of services) await world.restart(service);
      const response = await claim(world, await claimBody(sessionId, 'featured', spot.x, spot.y));
      expect(response.statusCode).toBe(201);
      await eventually(() => usedSession(sessionId));
    },
  );

  it('payments down when the claim arrives, but the verified event already reached plots', async () => {
    const spot = nextSpot();
    const sessionId = await buyAndPay(world, { tier: 'basic', ...spot });
    await eventually(() => world.plots.db.entitlement.findUnique({ where: { sessionId } }));
    await world.payments.close();
    try {
      const response = await claim(world, await claimBody(sessionId, 'basic', spot.x, spot.y));
      expect(response.statusCode).toBe(201);
    } finally {
      await world.restart('payments');
    }
    // The used session is recorded once payments is back (its durable consumer catches up).
    await eventually(() => usedSession(sessionId), 15_000);
  });
});

it('requests through the gateway keep their request id in the events', async () => {
  const spot = nextSpot();
  const sessionId = await buyAndPay(world, { tier: 'basic', ...spot });
  const response = await world.plots.inject({
    method: 'POST',
    url: '/api/claim-plot',
    payload: await claimBody(sessionId, 'basic', spot.x, spot.y),
    headers: { ...viaGateway(), 'x-request-id': 'req-claim-42' },
  });
  expect(response.statusCode).toBe(201);
  const event = await eventually(async () => (await streamEvents(world, 'plots.plot.claimed')).find((e) => e.data.sessionId === sessionId));
  expect((event as unknown as { requestId: string }).requestId).toBe('req-claim-42');
  expect(await avatarDataUrl()).toMatch(/^data:image\/png;base64,/);
});
