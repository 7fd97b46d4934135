import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buyAndPay, claim, claimBody, startCheckout, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

// One paid session must not buy unlimited image decoding: the footprint is checked before the decode,
// attempts per session are bounded, and decodes per process are capped.
const MAX_ATTEMPTS = 20;
const world = worldPerFile({
  moderation: false,
  plotsEnv: { CLAIM_MAX_ATTEMPTS_PER_SESSION: String(MAX_ATTEMPTS), AVATAR_DECODE_CONCURRENCY: '2', AVATAR_DECODE_QUEUE: '2' },
});
let huge: string;
beforeAll(async () => {
  // 4096² pixels (the default decode bound) in a few kilobytes: valid, and the most expensive image a claim may send.
  const png = await sharp({ create: { width: 4096, height: 4096, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .png()
    .toBuffer();
  expect(png.length).toBeLessThan(1024 * 1024);
  huge = `data:image/png;base64,${png.toString('base64')}`;
});

const nextSpot = spotSupply(world, 2, 40);
/** Decodes this plots replica has run, from its own metrics (the counter the decode slots feed). */
async function decodes(): Promise<number> {
  const body = (await world.plots.inject('/metrics')).body;
  return Number(/^plots_avatar_decodes_total\{service="plots"\} (\d+)$/m.exec(body)?.[1] ?? NaN);
}
const attemptsOf = async (sessionId: string) =>
  (await world.db.query<{ claim_attempts: number }>(`SELECT claim_attempts FROM plots.entitlements WHERE session_id = $1`, [sessionId]))[0]
    ?.claim_attempts;

describe('the footprint is checked before the avatar is decoded', () => {
  it('a claim on a plot, or on another live hold, with a huge valid image answers 409 without decoding; on its own hold it decodes and succeeds', async () => {
    const [taken, held, own] = [nextSpot(), nextSpot(), nextSpot()];
    const owner = await buyAndPay(world, { tier: 'basic', ...taken });
    expect((await claim(world, await claimBody(owner, 'basic', taken.x, taken.y))).statusCode).toBe(201);
    expect((await startCheckout(world, { tier: 'basic', ...held }, '198.51.100.90')).statusCode).toBe(200);
    const buyer = await buyAndPay(world, { tier: 'basic', ...own });

    const before = await decodes();
    expect(before).toBeGreaterThanOrEqual(1);
    for (const spot of [taken, held]) {
      const started = Date.now();
      const response = await claim(world, await claimBody(buyer, 'basic', spot.x, spot.y, { avatar_url: huge }));
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toEqual({ code: 'TILE_UNAVAILABLE', message: 'This tile is already claimed. Please choose another.' });
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    expect(await decodes()).toBe(before);

    // The same image on the buyer's own held spot is decoded once and the plot is made.
    const ok = await claim(world, await claimBody(buyer, 'basic', own.x, own.y, { avatar_url: huge }));
    expect(ok.statusCode).toBe(201);
    expect(await decodes()).toBe(before + 1);
  });
});

describe('claim attempts per session are bounded', () => {
  it(`the ${MAX_ATTEMPTS + 1}st attempt of one session is refused with 429, even on a free spot; other sessions are not affected`, async () => {
    const [taken, own, other] = [nextSpot(), nextSpot(), nextSpot()];
    const owner = await buyAndPay(world, { tier: 'basic', ...taken });
    expect((await claim(world, await claimBody(owner, 'basic', taken.x, taken.y))).statusCode).toBe(201);
    const looper = await buyAndPay(world, { tier: 'basic', ...own });
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect((await claim(world, await claimBody(looper, 'basic', taken.x, taken.y, { avatar_url: huge }))).statusCode).toBe(409);
    }
    const refused = await claim(world, await claimBody(looper, 'basic', own.x, own.y, { avatar_url: huge }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('Too many claim attempts') });
    expect(await attemptsOf(looper)).toBe(MAX_ATTEMPTS + 1);
    // Counted in the database: another replica sees the same count.
    const replica = await world.spawn('plots');
    const viaReplica = await replica.inject({
      method: 'POST',
      url: '/api/claim-plot',
      payload: await claimBody(looper, 'basic', own.x, own.y),
      headers: viaGateway('198.51.100.91'),
    });
    expect(viaReplica.statusCode).toBe(429);

    const fresh = await buyAndPay(world, { tier: 'basic', ...other });
    expect((await claim(world, await claimBody(fresh, 'basic', other.x, other.y))).statusCode).toBe(201);
  });
});

describe('decode concurrency is capped per process', () => {
  it('with every decode slot and queue place taken a claim gets 503 with Retry-After (nothing written, nothing decoded, no try counted); once free, the same claim succeeds', async () => {
    const spot = nextSpot();
    const session = await buyAndPay(world, { tier: 'basic', ...spot });
    const slots = world.plots.avatarDecodeSlots;
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    // 2 decoding + 2 waiting: the process's whole budget.
    const occupants = Array.from({ length: 4 }, () => slots.run(() => busy));
    await new Promise((r) => setImmediate(r));
    expect({ running: slots.running, queued: slots.queued }).toEqual({ running: 2, queued: 2 });

    const before = await decodes();
    const refused = await claim(world, await claimBody(session, 'basic', spot.x, spot.y, { avatar_url: huge }));
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json().error).toEqual({
      code: 'NOT_READY',
      message: 'Too many images are being processed right now. Please try again in a moment.',
    });
    expect(await world.db.query(`SELECT 1 FROM plots.plots WHERE stripe_session_id = $1`, [session])).toHaveLength(0);
    expect(await decodes()).toBe(before);
    // A refusal for want of capacity is not the buyer's try: it does not count against the session's bound.
    expect(await attemptsOf(session)).toBe(0);

    release();
    await Promise.all(occupants);
    expect((await claim(world, await claimBody(session, 'basic', spot.x, spot.y, { avatar_url: huge }))).statusCode).toBe(201);
    expect((await world.plots.inject('/metrics')).body).toMatch(/^plots_avatar_decodes_refused_total\{service="plots"\} 1$/m);
  });
});
