import { eventually } from '@pixel-atlas/service-kit/testing';
import { buyAndPay, claim, claimBody, payTestCheckout, sessionEvents, startCheckout, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { describe, expect, it } from 'vitest';
import { TestBrowser } from '../testing/test-browser.ts';

// Holding land without paying: one open checkout per browser (never per address), and Cancel frees the spot at once (test checkout).
const world = worldPerFile();

const nextSpot = spotSupply(world, 4, 60);
let ipIndex = 0;
const freshIp = () => `198.51.100.${++ipIndex}`;

/** Live holds of one browser, joined across the two schemas (a hold is the browser's through its payment). */
const holdsOfBrowser = (browser: TestBrowser) =>
  world.db.count(
    `plots.footprints f JOIN payments.payments p ON p.hold_id = f.hold_id
      WHERE f.kind = 'hold' AND f.expires_at > now() AND p.browser_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [browserCookieValue(browser)],
  );
const holdOfSession = async (sessionId: string) =>
  (await world.db.query(`SELECT 1 FROM plots.footprints WHERE kind = 'hold' AND session_id = $1`, [sessionId])).length;
/** The browser's checkout cookie value, without its signature (what payments hashes). */
function browserCookieValue(browser: TestBrowser): string {
  const signed = decodeURIComponent(browser.jar.get('pa_checkout') ?? '');
  return signed.slice(0, signed.lastIndexOf('.'));
}
const payment = (sessionId: string) => world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } });
const testSession = (sessionId: string) => world.payments.db.testCheckoutSession.findUniqueOrThrow({ where: { id: sessionId } });

/** The Cancel link of the test checkout page, followed the way a browser does. */
async function cancelFromPage(url: string) {
  const page = await world.payments.inject({ method: 'GET', url, headers: viaGateway() });
  const href = /<a href="([^"]+)">Cancel<\/a>/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
  expect(href).toMatch(/^\/api\/payments\/checkout-cancel\?session_id=/);
  return world.payments.inject({ method: 'GET', url: href!, headers: viaGateway() });
}

describe('one open checkout per browser, never per address', () => {
  it('a second checkout from the same browser releases the first (payment cancelled, test session expired); SQL counts one hold', async () => {
    const browser = new TestBrowser(world, freshIp());
    const [a, b] = [nextSpot(), nextSpot()];
    const first = (await browser.startCheckout({ tier: 'featured', ...a })).json();
    expect(await holdsOfBrowser(browser)).toBe(1);
    const second = await browser.startCheckout({ tier: 'basic', ...b });
    expect(second.statusCode).toBe(200);
    // At once, not after an event round trip.
    expect(await holdsOfBrowser(browser)).toBe(1);
    expect(await holdOfSession(first.sessionId)).toBe(0);
    expect(await holdOfSession(second.json().sessionId)).toBe(1);
    expect(await payment(first.sessionId)).toMatchObject({ status: 'cancelled', clientIp: browser.ip, cancelledAt: expect.any(Date) });
    expect((await testSession(first.sessionId)).status).toBe('expired');
    // The superseded session can no longer be paid.
    expect((await payTestCheckout(world, first.url)).statusCode).toBe(410);
    // The first spot is free for anyone at once.
    expect((await startCheckout(world, { tier: 'featured', ...a }, freshIp())).statusCode).toBe(200);
    // payments.checkout.expired is still emitted for the superseded session (plots' durable way to drop the hold).
    await eventually(async () => (await sessionEvents(world, 'payments.checkout.expired', first.sessionId)).length > 0);
  });

  it('the same browser choosing the same spot again gets it (its own old hold is released first)', async () => {
    const browser = new TestBrowser(world, freshIp());
    const spot = nextSpot();
    const first = (await browser.startCheckout({ tier: 'basic', ...spot })).json();
    const again = await browser.startCheckout({ tier: 'basic', ...spot });
    expect(again.statusCode).toBe(200);
    expect(again.json().sessionId).not.toBe(first.sessionId);
    expect(await holdsOfBrowser(browser)).toBe(1);
  });

  it('checkouts racing from one browser end with one hold and one pending payment', async () => {
    const browser = new TestBrowser(world, freshIp());
    expect((await browser.startCheckout({ tier: 'basic', ...nextSpot() })).statusCode).toBe(200);
    const spots = [nextSpot(), nextSpot(), nextSpot(), nextSpot()];
    const responses = await Promise.all(spots.map((spot) => browser.startCheckout({ tier: 'basic', ...spot })));
    expect(responses.every((r) => [200, 409].includes(r.statusCode))).toBe(true);
    expect(responses.some((r) => r.statusCode === 200)).toBe(true);
    expect(await holdsOfBrowser(browser)).toBe(1);
    expect(await world.payments.db.payment.count({ where: { clientIp: browser.ip, status: 'pending' } })).toBe(1);
  });

  it('a paid checkout is never released by a newer one from the same browser', async () => {
    const browser = new TestBrowser(world, freshIp());
    const spot = nextSpot();
    const { url, sessionId } = (await browser.startCheckout({ tier: 'basic', ...spot })).json();
    expect((await payTestCheckout(world, url)).statusCode).toBe(303);
    expect((await browser.startCheckout({ tier: 'basic', ...nextSpot() })).statusCode).toBe(200);
    expect(await payment(sessionId)).toMatchObject({ status: 'paid', cancelledAt: null });
    expect(await holdOfSession(sessionId)).toBe(1);
    expect((await claim(world, await claimBody(sessionId, 'basic', spot.x, spot.y))).statusCode).toBe(201);
  });

  it('two browsers on one address each start a checkout and each pay for and claim their own spot', async () => {
    const ip = freshIp();
    const [alice, bob] = [new TestBrowser(world, ip), new TestBrowser(world, ip)];
    const [a, b] = [nextSpot(), nextSpot()];
    const first = await alice.startCheckout({ tier: 'basic', ...a });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ held: true });
    // Bob's checkout leaves Alice's alone: both spots are held, each for its own session.
    const second = await bob.startCheckout({ tier: 'featured', ...b });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ held: true });
    expect(alice.cookieHeader).toMatch(/^pa_checkout=/);
    expect(bob.cookieHeader).not.toBe(alice.cookieHeader);
    expect(await holdOfSession(first.json().sessionId)).toBe(1);
    expect(await holdOfSession(second.json().sessionId)).toBe(1);

    // Alice presses Pay after Bob started: paid, not 'expired'.
    expect((await payTestCheckout(world, first.json().url)).statusCode).toBe(303);
    expect((await payTestCheckout(world, second.json().url)).statusCode).toBe(303);
    expect((await claim(world, await claimBody(first.json().sessionId, 'basic', a.x, a.y), ip)).statusCode).toBe(201);
    expect((await claim(world, await claimBody(second.json().sessionId, 'featured', b.x, b.y), ip)).statusCode).toBe(201);
    expect(await payment(first.json().sessionId)).toMatchObject({ status: 'paid', cancelledAt: null });
    expect(await payment(second.json().sessionId)).toMatchObject({ status: 'paid', cancelledAt: null });
  });

  it("a forged or tampered checkout cookie names no browser: it cannot cancel another browser's checkout", async () => {
    const ip = freshIp();
    const owner = new TestBrowser(world, ip);
    const { sessionId } = (await owner.startCheckout({ tier: 'basic', ...nextSpot() })).json();
    const [name, signed] = owner.cookieHeader!.split('=') as [string, string];
    const value = decodeURIComponent(signed).slice(0, decodeURIComponent(signed).lastIndexOf('.'));
    for (const forged of [value, `${value}.${'A'.repeat(43)}`]) {
      const intruder = new TestBrowser(world, ip);
      intruder.jar.set(name, encodeURIComponent(forged));
      const response = await intruder.startCheckout({ tier: 'basic', ...nextSpot() });
      expect(response.statusCode).toBe(200);
      // Given a cookie of its own instead.
      expect(intruder.jar.get(name)).not.toBe(encodeURIComponent(forged));
    }
    expect(await payment(sessionId)).toMatchObject({ status: 'pending', cancelledAt: null });
    expect(await holdOfSession(sessionId)).toBe(1);
  });
});

describe('GET /api/payments/checkout-cancel (the cancel URL)', () => {
  it('Cancel on the test checkout page: payment cancelled, hold gone at once, 303 to the map with tier and position; another buyer buys the tile straight away', async () => {
    const spot = nextSpot();
    const { url, sessionId } = (await startCheckout(world, { tier: 'prime', ...spot }, freshIp())).json();
    const cancelled = await cancelFromPage(url);
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(`/?checkout=cancelled&tier=prime&x=${spot.x}&y=${spot.y}`);
    expect(await payment(sessionId)).toMatchObject({ status: 'cancelled' });
    expect((await testSession(sessionId)).status).toBe('expired');
    expect(await holdOfSession(sessionId)).toBe(0);

    // Another address checks out the same tile and pays, with no waiting.
    const other = await startCheckout(world, { tier: 'prime', ...spot }, freshIp());
    expect(other.statusCode).toBe(200);
    expect((await payTestCheckout(world, other.json().url)).statusCode).toBe(303);
    expect((await claim(world, await claimBody(other.json().sessionId, 'prime', spot.x, spot.y))).statusCode).toBe(201);
    // The cancelled session can't be paid any more, and cancelling again changes nothing.
    expect((await payTestCheckout(world, url)).statusCode).toBe(410);
    const again = await world.payments.inject({ method: 'GET', url: `/api/payments/checkout-cancel?session_id=${sessionId}` });
    expect(again.headers.location).toBe(`/?checkout=cancelled&tier=prime&x=${spot.x}&y=${spot.y}`);
    expect((await world.payments.inject('/metrics')).body).toMatch(/checkouts_cancelled_total\{reason="buyer",service="payments"\} \d+/);
  });

  it('cancel of a paid session keeps everything: still paid, hold kept, 303 to /claim, the claim succeeds', async () => {
    const spot = nextSpot();
    const sessionId = await buyAndPay(world, { tier: 'featured', ...spot });
    const response = await world.payments.inject({
      method: 'GET',
      url: `/api/payments/checkout-cancel?session_id=${sessionId}`,
      headers: viaGateway(),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/claim?session_id=${sessionId}`);
    expect(await payment(sessionId)).toMatchObject({ status: 'paid', cancelledAt: null });
    expect(await holdOfSession(sessionId)).toBe(1);
    expect((await startCheckout(world, { tier: 'basic', ...spot }, freshIp())).statusCode).toBe(409);
    expect((await claim(world, await claimBody(sessionId, 'featured', spot.x, spot.y))).statusCode).toBe(201);
  });

  it('an unknown or missing session id just goes back to the map', async () => {
    for (const url of ['/api/payments/checkout-cancel?session_id=cs_test_nope', '/api/payments/checkout-cancel']) {
      const response = await world.payments.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/?checkout=cancelled');
    }
  });
});
