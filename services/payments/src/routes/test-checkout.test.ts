import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { DEFAULT_TIER_PRICE_CENTS } from '@pixel-atlas/contracts/tiers';
import { eventually } from '@pixel-atlas/service-kit/testing';
import {
  buyAndClaim,
  buyAndPay,
  claim,
  claimBody,
  landSpots,
  payTestCheckout,
  publishEvent,
  sessionEvents,
  startCheckout,
  startWorld,
  viaGateway,
  waterTile,
} from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env.ts';

const world = worldPerFile({ paymentsEnv: { TIER_PRICES_CENTS: '{"premium":20000}' } });

const holds = () =>
  world.db.query<{ x: number; y: number; size: number; hold_id: string; session_id: string | null; expires_at: Date }>(
    `SELECT x, y, size, hold_id, session_id, expires_at FROM plots.footprints WHERE kind = 'hold' ORDER BY created_at`,
  );
/** Fresh, non-overlapping land spots for each case (4×4 cells fit every tier). */
const nextSpot = spotSupply(world, 4, 60);

describe('POST /api/create-checkout-session (test checkout)', () => {
  it('holds the footprint, stores a pending payment at the server price, and returns the test checkout URL', async () => {
    const spot = nextSpot();
    const response = await startCheckout(world, { tier: 'prime', ...spot, price: 1, amount: 1 } as never);
    expect(response.statusCode).toBe(200);
    const { url, sessionId } = response.json();
    expect(sessionId).toMatch(/^cs_test_pa_/);
    expect(url).toBe(`/api/test-checkout/${sessionId}`);
    const payment = await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } });
    expect(payment).toMatchObject({
      tier: 'prime',
      amount: DEFAULT_TIER_PRICE_CENTS.prime,
      currency: 'usd',
      status: 'pending',
      x: spot.x,
      y: spot.y,
      size: 3,
      plotId: null,
    });
    const [hold] = (await holds()).filter((h) => h.session_id === sessionId);
    assert(hold, 'the checkout holds its footprint');
    expect(hold).toMatchObject({ x: spot.x, y: spot.y, size: 3, hold_id: payment.holdId });
    // The hold outlives the checkout session (30 min + slack) by the margin.
    const minutes = (hold.expires_at.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(32);
    expect(minutes).toBeLessThan(35);
  });

  it('uses the configured price table (TIER_PRICES_CENTS overrides a tier)', async () => {
    const response = await startCheckout(world, { tier: 'premium', ...nextSpot() });
    const payment = await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: response.json().sessionId } });
    expect(payment.amount).toBe(20000);
  });

  it.each([
    [
      'water',
      () => ({ tier: 'basic' as const, ...waterTile(world) }),
      400,
      'INVALID_LOCATION',
      'You can only claim plots on land, not in water. Please choose another location.',
    ],
    [
      'over the edge of the grid',
      () => ({ tier: 'premium' as const, x: 88, y: 40 }),
      400,
      'INVALID_LOCATION',
      'This plot would not fit inside the map there. Please choose another location.',
    ],
  ])('refuses %s before any checkout session exists', async (_name, body, status, code, message) => {
    const before = {
      payments: await world.db.count('payments.payments'),
      sessions: await world.db.count('payments.test_checkout_sessions'),
      holds: (await holds()).length,
    };
    const response = await startCheckout(world, body());
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toMatchObject({ code, message });
    expect(await world.db.count('payments.payments')).toBe(before.payments);
    expect(await world.db.count('payments.test_checkout_sessions')).toBe(before.sessions);
    expect((await holds()).length).toBe(before.holds);
  });

  it('refuses a footprint held by another checkout, or overlapping a plot, with 409 and creates nothing', async () => {
    const spot = nextSpot();
    expect((await startCheckout(world, { tier: 'featured', ...spot })).statusCode).toBe(200);
    const before = {
      payments: await world.db.count('payments.payments'),
      sessions: await world.db.count('payments.test_checkout_sessions'),
    };
    // Overlaps the held 2×2 by one tile.
    const held = await startCheckout(world, { tier: 'basic', x: spot.x + 1, y: spot.y + 1 });
    expect(held.statusCode).toBe(409);
    expect(held.json().error).toEqual({ code: 'TILE_UNAVAILABLE', message: 'This tile is already claimed. Please choose another.' });
    // A claimed plot refuses the same way.
    const other = nextSpot();
    const sessionId = await buyAndPay(world, { tier: 'basic', ...other });
    expect((await claim(world, await claimBody(sessionId, 'basic', other.x, other.y))).statusCode).toBe(201);
    const taken = await startCheckout(world, { tier: 'basic', ...other });
    expect(taken.statusCode).toBe(409);
    expect(await world.db.count('payments.payments')).toBe(before.payments + 1);
    expect(await world.db.count('payments.test_checkout_sessions')).toBe(before.sessions + 1);
  });

  it('validates the body (tier enum, coordinates inside the grid)', async () => {
    for (const body of [
      { tier: 'gold', x: 10, y: 10 },
      { tier: 'basic', x: -1, y: 10 },
      { tier: 'basic', x: 10, y: 90 },
      { tier: 'basic', x: 1.5, y: 3 },
    ]) {
      const response = await world.payments.inject({
        method: 'POST',
        url: '/api/create-checkout-session',
        payload: body,
        headers: viaGateway(),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('rate-limits checkout starts per client (each one holds a footprint for 30 minutes)', async () => {
    const limited = await startWorld({ map: true, paymentsEnv: { CHECKOUT_RATE_LIMIT_MAX: '2' } });
    try {
      const spots = landSpots(limited, 1, 3);
      const statuses = [];
      for (const spot of spots) statuses.push((await startCheckout(limited, { tier: 'basic', ...spot }, '198.51.100.7')).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('test checkout page and pay flow', () => {
  it('shows the order clearly marked as test mode, with a plain form (no script) and a cancel link', async () => {
    const spot = nextSpot();
    const { url } = (await startCheckout(world, { tier: 'featured', ...spot })).json();
    const page = await world.payments.inject({ method: 'GET', url, headers: viaGateway() });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('TEST MODE — no real money');
    expect(page.body).toContain('Featured Plot');
    expect(page.body).toContain('2×2 tiles');
    expect(page.body).toContain(`(${spot.x}, ${spot.y})`);
    expect(page.body).toContain('$50');
    expect(page.body).toMatch(
      new RegExp(`<form method="post" action="${url}/pay">[\\s\\S]*<button type="submit">Pay \\(test mode\\)</button>[\\s\\S]*</form>`),
    );
    // It asks for the receipt address, as Stripe's page does (optional here: nothing is charged).
    expect(page.body).toMatch(
      /<label for="email">Email for your receipt<\/label>\n<input id="email" name="email" type="email" autocomplete="email"/,
    );
    // Cancel goes to payments' cancel URL: the session ends and the spot is free at once (checkout-cancel.test.ts).
    expect(page.body).toContain(
      `<a href="/api/payments/checkout-cancel?session_id=${encodeURIComponent(url.split('/').pop() ?? '')}">Cancel</a>`,
    );
    expect(page.body).not.toMatch(/<script/i);
    // The site's look: its night background and gold, the pixel font inlined (no asset of the web build), and the
    // one style block allowed by its hash, not by 'unsafe-inline'.
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)?.[1] ?? '';
    expect(style).toContain('#120f1f');
    expect(style).toContain('#f2c14e');
    expect(style).toMatch(/@font-face \{ font-family: "Press Start 2P";[^}]*src: url\(data:font\/woff2;base64,/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain('font-src data:');
  });

  it('pays, fulfils at once (payments.payment.verified), and sends the buyer to /claim with 303', async () => {
    const spot = nextSpot();
    const { url, sessionId } = (await startCheckout(world, { tier: 'basic', ...spot })).json();
    const unpaid = await world.payments.inject({ method: 'GET', url: `/api/verify-session/${sessionId}`, headers: viaGateway() });
    expect(unpaid.json()).toMatchObject({ verified: false, tier: 'basic', sessionId });

    const paid = await payTestCheckout(world, url);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/claim?session_id=${sessionId}`);
    const payment = await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } });
    expect(payment.status).toBe('paid');
    expect(payment.paidAt).toBeInstanceOf(Date);

    const verified = await world.payments.inject({ method: 'GET', url: `/api/verify-session/${sessionId}`, headers: viaGateway() });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ verified: true, tier: 'basic', sessionId });
    // Paying again changes nothing and still sends the buyer on.
    expect((await payTestCheckout(world, url)).statusCode).toBe(303);
    const events = await eventually(async () => {
      const found = await sessionEvents(world, 'payments.payment.verified', sessionId);
      return found.length ? found : null;
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      sessionId,
      tier: 'basic',
      amountCents: 2500,
      currency: 'usd',
      footprint: { x: spot.x, y: spot.y, size: 1 },
      // The Pay button was pressed with the address field left empty.
      buyerEmail: null,
    });
    // The page now says it is paid.
    expect((await world.payments.inject({ method: 'GET', url })).body).toContain('already paid');
  });

  it('an expired test session cannot be paid; it ends as expired, emits payments.checkout.expired, and plots releases the hold', async () => {
    const spot = nextSpot();
    const { url, sessionId } = (await startCheckout(world, { tier: 'basic', ...spot })).json();
    await world.payments.db.testCheckoutSession.update({ where: { id: sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const paid = await world.payments.inject({
      method: 'POST',
      url: `${url}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(paid.statusCode).toBe(410);
    expect(paid.body).toContain('This checkout session has expired');
    expect((await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } })).status).toBe('expired');
    const verified = await world.payments.inject({ method: 'GET', url: `/api/verify-session/${sessionId}` });
    expect(verified.json()).toMatchObject({ verified: false, tier: 'basic', sessionId });
    expect((await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } })).status).toBe('expired');
    await eventually(async () => (await holds()).every((h) => h.session_id !== sessionId));
    expect(await sessionEvents(world, 'payments.checkout.expired', sessionId)).toHaveLength(1);
  });

  it('pays a POST with no body at all (a script or an API client, no receipt address)', async () => {
    const { url, sessionId } = (await startCheckout(world, { tier: 'basic', ...nextSpot() })).json();
    const paid = await world.payments.inject({ method: 'POST', url: `${url}/pay` });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/claim?session_id=${sessionId}`);
  });

  it('answers unknown sessions with 404 (JSON for verify, HTML for the page)', async () => {
    const verify = await world.payments.inject({ method: 'GET', url: '/api/verify-session/cs_test_nope' });
    expect(verify.statusCode).toBe(404);
    expect(verify.json().error).toEqual({ code: 'SESSION_NOT_FOUND', message: 'Your payment session is invalid or has expired.' });
    const page = await world.payments.inject({ method: 'GET', url: '/api/test-checkout/cs_test_nope' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Checkout session not found');
  });

  it('the expiry sweep settles pending checkouts whose session expired', async () => {
    const spot = nextSpot();
    const { sessionId } = (await startCheckout(world, { tier: 'basic', ...spot })).json();
    const past = new Date(Date.now() - 5 * 60_000);
    await world.payments.db.testCheckoutSession.update({ where: { id: sessionId }, data: { expiresAt: past } });
    await world.payments.db.payment.update({ where: { stripeSessionId: sessionId }, data: { expiresAt: past } });
    const { settleExpiredCheckouts } = await import('../domain/settle-expired-checkouts.ts');
    const settled = await settleExpiredCheckouts({
      db: world.payments.db,
      provider: world.payments.checkoutProvider,
      log: world.payments.log,
      metrics: world.payments.serviceMetrics,
    });
    expect(settled).toBeGreaterThanOrEqual(1);
    world.payments.outbox.kick();
    expect((await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } })).status).toBe('expired');
    await eventually(async () => (await holds()).every((h) => h.session_id !== sessionId));
  });
});

describe('used sessions and payment records', () => {
  it('records the used session with the client IP when the plot is claimed, and links the payment', async () => {
    const spot = nextSpot();
    const { sessionId, response } = await buyAndClaim(world, { tier: 'basic', ...spot }, {}, '192.0.2.44');
    expect(response.statusCode).toBe(201);
    const plotId = response.json().plot.id;
    const used = await eventually(() => world.payments.db.usedSession.findUnique({ where: { sessionId } }));
    expect(used).toMatchObject({ sessionId, plotId, ipAddress: '192.0.2.44' });
    expect(used.usedAt).toBeInstanceOf(Date);
    expect((await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } })).plotId).toBe(plotId);

    // A removed plot (plots.plot.removed, emitted when moderation rejects it) unlinks: never deletes.
    await publishEvent(world, 'plots.plot.removed', { plotId, sessionId, reason: 'rejected' });
    await eventually(
      async () => (await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } })).plotId === null,
    );
    const payment = await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } });
    expect(payment.status).toBe('paid');
    expect(await world.payments.db.usedSession.count({ where: { sessionId } })).toBe(1);
  });

  it('counts sessions created and payments verified by tier', async () => {
    const metrics = (await world.payments.inject('/metrics')).body;
    expect(metrics).toMatch(/checkout_sessions_created_total\{tier="basic",service="payments"\} \d+/);
    expect(metrics).toMatch(/payments_verified_total\{tier="basic",service="payments"\} \d+/);
  });

  it('answers sessionEntitlementQuery (plots falls back to it when the verified event is late)', async () => {
    const { query } = await import('@pixel-atlas/service-kit/rpc');
    const { sessionEntitlementQuery } = await import('@pixel-atlas/contracts/queries');
    const spot = nextSpot();
    const sessionId = await buyAndPay(world, { tier: 'featured', ...spot });
    expect(await query(world.plots.bus, sessionEntitlementQuery, { sessionId })).toEqual({
      sessionId,
      paid: true,
      tier: 'featured',
      footprint: { x: spot.x, y: spot.y, size: 2 },
      buyerEmail: null,
      amountCents: 5000,
      currency: 'usd',
      paidAt: expect.any(String),
    });
    const pending = (await startCheckout(world, { tier: 'basic', ...nextSpot() })).json().sessionId;
    expect(await query(world.plots.bus, sessionEntitlementQuery, { sessionId: pending })).toMatchObject({ paid: false, tier: 'basic' });
    await expect(query(world.plots.bus, sessionEntitlementQuery, { sessionId: 'cs_test_unknown' })).rejects.toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
  });
});

describe('configuration', () => {
  const base = {
    NODE_ENV: 'test',
    DATABASE_URL: 'postgresql://x@localhost/db',
    NATS_URL: 'nats://localhost:4222',
    INTERNAL_TOKEN: 'x'.repeat(20),
  };
  it('refuses the test checkout in production, naming the problem', () => {
    expect(() => loadEnv({ ...base, NODE_ENV: 'production' })).toThrow(
      /STRIPE_SECRET_KEY: is required unless NODE_ENV is explicitly development or test/,
    );
    expect(() =>
      loadEnv({ ...base, NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }),
    ).not.toThrow();
  });
  it('an unset NODE_ENV means production rules: no free test checkout; only explicit development or test allow it', () => {
    const { NODE_ENV: _unset, ...withoutNodeEnv } = base;
    expect(() => loadEnv(withoutNodeEnv)).toThrow(
      /STRIPE_SECRET_KEY: is required unless NODE_ENV is explicitly development or test \(unset counts as production\)/,
    );
    expect(() => loadEnv({ ...withoutNodeEnv, NODE_ENV: '' })).toThrow(/NODE_ENV/);
    expect(loadEnv({ ...withoutNodeEnv, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).NODE_ENV).toBe('production');
    expect(loadEnv({ ...base, NODE_ENV: 'development' }).STRIPE_SECRET_KEY).toBeUndefined();
    expect(loadEnv(base).NODE_ENV).toBe('test');
  });
  it('the payments process with NODE_ENV unset and no Stripe key refuses to start: exit 78, naming STRIPE_SECRET_KEY', async () => {
    const { spawnSync } = await import('node:child_process');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '../../../..');
    // Nothing inherited: no NODE_ENV, no Stripe keys (vitest itself sets NODE_ENV=test in this process).
    const { NODE_ENV: _unset, ...withoutNodeEnv } = base;
    const run = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'services/payments/src/server.ts')],
      {
        env: { PATH: process.env.PATH, ...withoutNodeEnv },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status).toBe(78);
    expect(run.stderr).toMatch(/STRIPE_SECRET_KEY: is required unless NODE_ENV is explicitly development or test/);
  });
  it('requires the webhook secret with a Stripe key, and validates price overrides', () => {
    expect(() => loadEnv({ ...base, STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY/);
    expect(() => loadEnv({ ...base, TIER_PRICES_CENTS: 'cheap' })).toThrow(/TIER_PRICES_CENTS: must be JSON/);
    expect(() => loadEnv({ ...base, TIER_PRICES_CENTS: '{"gold":100}' })).toThrow(/TIER_PRICES_CENTS/);
    expect(() => loadEnv({ ...base, TIER_PRICES_CENTS: '{"basic":10}' })).toThrow(/at least 50 cents/);
    expect(loadEnv({ ...base, TIER_PRICES_CENTS: '{"prime":10000}' }).TIER_PRICES_CENTS).toEqual({ prime: 10000 });
  });
});
