import { DEFAULT_TIER_PRICE_CENTS } from '@pixel-atlas/contracts/tiers';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { STRIPE_WEBHOOK_SECRET } from '@pixel-atlas/test-stack/fake-stripe';
import { claim, claimBody, outboxEvents, sessionEvents, startCheckout, waterTile } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { TestBrowser } from '../testing/test-browser.ts';

/** The real SDK, used here only to sign test payloads the way Stripe signs webhooks. */
const signer = new Stripe('sk_test_signer_only', { telemetry: false });

const world = worldPerFile({ stripe: true });

const nextSpot = spotSupply(world, 4, 60);
const fake = () => world.fakeStripe!;
const payment = (sessionId: string) => world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: sessionId } });
const holdOf = async (sessionId: string) =>
  (await world.db.query(`SELECT hold_id FROM plots.footprints WHERE kind = 'hold' AND session_id = $1`, [sessionId])).length;
const verifiedEvents = (sessionId: string) => sessionEvents(world, 'payments.payment.verified', sessionId);

async function checkout(tier: 'basic' | 'featured' | 'prime' | 'premium' = 'basic') {
  const spot = nextSpot();
  const response = await startCheckout(world, { tier, ...spot });
  expect(response.statusCode).toBe(200);
  return { ...response.json<{ url: string; sessionId: string }>(), spot };
}

async function webhook(
  event: Record<string, unknown>,
  { secret = STRIPE_WEBHOOK_SECRET, signature }: { secret?: string; signature?: string | null } = {},
) {
  const payload = JSON.stringify(event);
  const header = signature === undefined ? signer.webhooks.generateTestHeaderString({ payload, secret }) : signature;
  return world.payments.inject({
    method: 'POST',
    url: '/api/payments/stripe-webhook',
    // Stripe's own content type, parameters included.
    headers: { 'content-type': 'application/json; charset=utf-8', ...(header === null ? {} : { 'stripe-signature': header }) },
    payload,
  });
}

const verify = (sessionId: string) => world.payments.inject({ method: 'GET', url: `/api/verify-session/${sessionId}` });

describe('Stripe Checkout through the real SDK (local fake of the API)', () => {
  it('creates the session from the server price table, with success/cancel URLs, metadata, expiry and the hold as idempotency key', async () => {
    const before = Date.now();
    const { url, sessionId, spot } = await checkout('featured');
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
    const session = fake().sessions.get(sessionId)!;
    expect(session.mode).toBe('payment');
    expect(session.amount_total).toBe(DEFAULT_TIER_PRICE_CENTS.featured);
    expect(session.currency).toBe('usd');
    expect(session.line_items_input).toEqual([
      {
        quantity: '1',
        price_data: {
          currency: 'usd',
          unit_amount: '5000',
          product_data: { name: 'Pixel Atlas: Featured Plot', description: `2×2 plot at (${spot.x}, ${spot.y})` },
        },
      },
    ]);
    expect(session.success_url).toBe('http://localhost:8080/claim?session_id={CHECKOUT_SESSION_ID}');
    expect(session.cancel_url).toBe('http://localhost:8080/api/payments/checkout-cancel?session_id={CHECKOUT_SESSION_ID}');
    const stored = await payment(sessionId);
    expect(session.metadata).toMatchObject({ tier: 'featured', x: String(spot.x), y: String(spot.y), holdId: stored.holdId });
    const lifetime = session.expires_at - Math.floor(before / 1000);
    expect(lifetime).toBeGreaterThanOrEqual(30 * 60);
    expect(lifetime).toBeLessThanOrEqual(32 * 60);
    const create = fake().calls.find((c) => c.method === 'POST' && c.idempotencyKey === stored.holdId);
    expect(create?.path).toBe('/v1/checkout/sessions');
    expect(stored).toMatchObject({ provider: 'stripe', status: 'pending', amount: 5000, currency: 'usd' });
    expect(await holdOf(sessionId)).toBe(1);
  });

  it('a water, held or taken footprint is refused before any Stripe session is created', async () => {
    const creates = () => fake().calls.filter((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions').length;
    const before = { creates: creates(), payments: await world.payments.db.payment.count() };
    expect((await startCheckout(world, { tier: 'basic', ...waterTile(world) })).statusCode).toBe(400);
    const { spot } = await checkout('premium');
    const held = await startCheckout(world, { tier: 'basic', x: spot.x + 3, y: spot.y + 3 });
    expect(held.statusCode).toBe(409);
    expect(held.json().error.code).toBe('TILE_UNAVAILABLE');
    expect(creates()).toBe(before.creates + 1);
    expect(await world.payments.db.payment.count()).toBe(before.payments + 1);
  });

  it('when Stripe fails: 502 with the spec message, no payment row, and the hold released', async () => {
    const spot = nextSpot();
    const payments = await world.payments.db.payment.count();
    fake().failNextCreates(1);
    const response = await startCheckout(world, { tier: 'basic', ...spot });
    expect(response.statusCode).toBe(502);
    expect(response.json().error).toEqual({ code: 'UPSTREAM_UNAVAILABLE', message: 'Failed to start payment process. Please try again.' });
    expect(await world.payments.db.payment.count()).toBe(payments);
    // The spot is free again at once.
    expect((await startCheckout(world, { tier: 'basic', ...spot })).statusCode).toBe(200);
  });

  it('verify: unpaid → false; paid → true and one payments.payment.verified; repeated → unchanged', async () => {
    const { sessionId, spot } = await checkout('prime');
    expect((await verify(sessionId)).json()).toMatchObject({ verified: false, tier: 'prime', sessionId });
    // The address the buyer typed on Stripe's page (Checkout always asks for one) travels on for the receipt.
    fake().complete(sessionId, { email: 'prime.buyer@example.com' });
    expect((await verify(sessionId)).json()).toMatchObject({ verified: true, tier: 'prime', sessionId });
    expect((await verify(sessionId)).json()).toMatchObject({ verified: true, tier: 'prime', sessionId });
    expect(await payment(sessionId)).toMatchObject({ status: 'paid' });
    const events = await eventually(async () => ((await verifiedEvents(sessionId)).length ? verifiedEvents(sessionId) : null));
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      sessionId,
      tier: 'prime',
      amountCents: 7500,
      currency: 'usd',
      footprint: { x: spot.x, y: spot.y, size: 3 },
      buyerEmail: 'prime.buyer@example.com',
    });
  });

  it('verify: complete but unpaid (delayed payment method) → false', async () => {
    const { sessionId } = await checkout();
    fake().complete(sessionId, { payment_status: 'unpaid' });
    expect((await verify(sessionId)).json()).toMatchObject({ verified: false });
    expect((await payment(sessionId)).status).toBe('pending');
  });

  it('verify: paid with the wrong amount or currency → never honoured', async () => {
    const { sessionId } = await checkout('premium');
    fake().complete(sessionId, { amount_total: 100 });
    expect((await verify(sessionId)).json()).toMatchObject({ verified: false, tier: 'premium' });
    const other = await checkout('basic');
    fake().complete(other.sessionId, { currency: 'eur' });
    expect((await verify(other.sessionId)).json()).toMatchObject({ verified: false });
    expect((await payment(sessionId)).status).toBe('pending');
    expect(await verifiedEvents(sessionId)).toHaveLength(0);
  });

  it('verify: unknown session → 404 SESSION_NOT_FOUND', async () => {
    const response = await verify('cs_test_doesnotexist');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('SESSION_NOT_FOUND');
  });
});

describe('Stripe webhook (signed)', () => {
  it('checkout.session.completed (paid) fulfils; duplicates change nothing twice', async () => {
    const { sessionId } = await checkout('featured');
    fake().complete(sessionId);
    const event = fake().event('checkout.session.completed', sessionId);
    const first = await webhook(event);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, ignored: false });
    expect((await payment(sessionId)).status).toBe('paid');
    const paidAt = (await payment(sessionId)).paidAt;
    // The same event redelivered, and another notice for the same session, in parallel.
    const again = await Promise.all([
      webhook(event),
      webhook(event),
      webhook(fake().event('checkout.session.completed', sessionId)),
      verify(sessionId),
    ]);
    expect(again.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await payment(sessionId)).paidAt).toEqual(paidAt);
    // Each notice is answered after its transaction committed, the event with it: the outbox holds all they caused.
    const outboxed = (await outboxEvents(world, 'payments', 'payments.payment.verified')).filter((e) => e.data.sessionId === sessionId);
    expect(outboxed).toHaveLength(1);
    await eventually(async () => (await verifiedEvents(sessionId)).length === 1);
    expect(await verifiedEvents(sessionId)).toHaveLength(1);
  });

  it('checkout.session.completed while unpaid → 200, still pending', async () => {
    const { sessionId } = await checkout();
    fake().complete(sessionId, { payment_status: 'unpaid' });
    expect((await webhook(fake().event('checkout.session.completed', sessionId))).statusCode).toBe(200);
    expect((await payment(sessionId)).status).toBe('pending');
  });

  it('checkout.session.completed with the wrong amount → 200 (no retry storm), never paid', async () => {
    const { sessionId } = await checkout('prime');
    fake().complete(sessionId, { amount_total: 7499 });
    expect((await webhook(fake().event('checkout.session.completed', sessionId))).statusCode).toBe(200);
    expect((await payment(sessionId)).status).toBe('pending');
    expect(await verifiedEvents(sessionId)).toHaveLength(0);
  });

  it('checkout.session.expired → payment expired, payments.checkout.expired, hold released', async () => {
    const { sessionId, spot } = await checkout('featured');
    fake().expire(sessionId);
    expect((await webhook(fake().event('checkout.session.expired', sessionId))).statusCode).toBe(200);
    expect(await payment(sessionId)).toMatchObject({ status: 'expired' });
    await eventually(async () => (await holdOf(sessionId)) === 0);
    expect(await sessionEvents(world, 'payments.checkout.expired', sessionId)).toHaveLength(1);
    // The spot can be bought again.
    expect((await startCheckout(world, { tier: 'featured', ...spot })).statusCode).toBe(200);
  });

  it('out of order: an expired notice after completion never undoes the payment', async () => {
    const { sessionId } = await checkout('basic');
    fake().complete(sessionId);
    // A stale "expired" notice arriving first: Stripe says the session is complete and paid, so it is fulfilled.
    const stale = { ...fake().event('checkout.session.completed', sessionId), type: 'checkout.session.expired' };
    expect((await webhook(stale)).statusCode).toBe(200);
    expect((await payment(sessionId)).status).toBe('paid');
    expect((await webhook(fake().event('checkout.session.completed', sessionId))).statusCode).toBe(200);
    // Even if the provider later reported it expired, paid stays paid.
    fake().expire(sessionId);
    expect((await webhook(fake().event('checkout.session.expired', sessionId))).statusCode).toBe(200);
    expect(await payment(sessionId)).toMatchObject({ status: 'paid', expiredAt: null });
    await eventually(async () => (await verifiedEvents(sessionId)).length === 1);
    expect(await sessionEvents(world, 'payments.checkout.expired', sessionId)).toHaveLength(0);
  });

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const { sessionId } = await checkout();
    fake().complete(sessionId);
    const event = fake().event('checkout.session.completed', sessionId);
    const wrongSecret = await webhook(event, { secret: 'whsec_someone_else' });
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json().error.message).toBe('Webhook signature verification failed');
    expect((await webhook(event, { signature: 't=1,v1=deadbeef' })).statusCode).toBe(400);
    expect((await webhook(event, { signature: null })).statusCode).toBe(400);
    // Signed for one body, sent with another.
    const header = signer.webhooks.generateTestHeaderString({ payload: JSON.stringify(event), secret: STRIPE_WEBHOOK_SECRET });
    const tampered = await world.payments.inject({
      method: 'POST',
      url: '/api/payments/stripe-webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload: JSON.stringify({ ...event, id: 'evt_other' }),
    });
    expect(tampered.statusCode).toBe(400);
    expect((await payment(sessionId)).status).toBe('pending');
  });

  it('acknowledges other event types and unknown sessions without acting', async () => {
    const { sessionId } = await checkout();
    const other = await webhook({ ...fake().event('checkout.session.completed', sessionId), type: 'payment_intent.created' });
    expect(other.json()).toEqual({ received: true, ignored: true });
    const unknown = await webhook({
      id: 'evt_x',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_unknown' } },
    });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ received: true, ignored: true });
  });
});

describe('crash between creating the Stripe session and storing the payment', () => {
  it('a paid session we have no row for is adopted from its metadata when Stripe notifies us', async () => {
    const { sessionId } = await checkout('featured');
    const stored = await payment(sessionId);
    await world.payments.db.payment.delete({ where: { id: stored.id } });
    fake().complete(sessionId);
    expect((await webhook(fake().event('checkout.session.completed', sessionId))).json()).toEqual({ received: true, ignored: false });
    expect(await payment(sessionId)).toMatchObject({
      status: 'paid',
      tier: 'featured',
      amount: 5000,
      holdId: stored.holdId,
      x: stored.x,
      y: stored.y,
      size: 2,
    });
    await eventually(async () => (await verifiedEvents(sessionId)).length === 1);
  });
});

describe('fulfilment without webhook or browser', () => {
  it('a paid session whose webhook was lost and whose buyer never verified still gets its plot (plots asks payments, payments asks Stripe)', async () => {
    const { sessionId, spot } = await checkout('basic');
    fake().complete(sessionId, { email: 'Lost.Webhook@example.com' });
    const response = await claim(world, await claimBody(sessionId, 'basic', spot.x, spot.y));
    expect(response.statusCode).toBe(201);
    expect((await payment(sessionId)).status).toBe('paid');
    // The address from Stripe's customer_details reached the plot through payments' answer, for the receipt and recovery;
    // payments keeps no copy of it.
    const [plot] = await world.db.query<{ notification_email: string }>(
      `SELECT notification_email FROM plots.plots WHERE stripe_session_id = $1`,
      [sessionId],
    );
    expect(plot?.notification_email).toBe('Lost.Webhook@example.com');
    expect(JSON.stringify(await payment(sessionId))).not.toContain('Lost.Webhook');
  });
});

describe('holds end early with Stripe: cancel_url and a newer checkout from the same browser', () => {
  const cancel = (sessionId: string) =>
    world.payments.inject({ method: 'GET', url: `/api/payments/checkout-cancel?session_id=${sessionId}` });

  it('a newer checkout from the same browser expires the older Stripe session and releases its hold', async () => {
    const browser = new TestBrowser(world, '198.51.100.201');
    const first = await browser.startCheckout({ tier: 'basic', ...nextSpot() });
    const second = await browser.startCheckout({ tier: 'basic', ...nextSpot() });
    expect(second.statusCode).toBe(200);
    const firstId = first.json().sessionId;
    expect(fake().sessions.get(firstId)!.status).toBe('expired');
    expect(fake().calls.some((c) => c.method === 'POST' && c.path === `/v1/checkout/sessions/${firstId}/expire`)).toBe(true);
    expect(await payment(firstId)).toMatchObject({ status: 'cancelled' });
    expect(await holdOf(firstId)).toBe(0);
    expect(await holdOf(second.json().sessionId)).toBe(1);
  });

  it('cancel_url: Stripe session expired, payment cancelled, hold released at once, 303 to the map', async () => {
    const { sessionId, spot } = await checkout('featured');
    const response = await cancel(sessionId);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/?checkout=cancelled&tier=featured&x=${spot.x}&y=${spot.y}`);
    expect(fake().sessions.get(sessionId)!.status).toBe('expired');
    expect(await payment(sessionId)).toMatchObject({ status: 'cancelled' });
    expect(await holdOf(sessionId)).toBe(0);
    expect((await startCheckout(world, { tier: 'featured', ...spot }, '198.51.100.202')).statusCode).toBe(200);
  });

  it('paid at Stripe before the cancel arrived (webhook not yet here): Stripe refuses to expire, the payment is recorded, the hold kept', async () => {
    const { sessionId, spot } = await checkout('basic');
    fake().complete(sessionId);
    const response = await cancel(sessionId);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/claim?session_id=${sessionId}`);
    expect(await payment(sessionId)).toMatchObject({ status: 'paid', cancelledAt: null });
    expect(await holdOf(sessionId)).toBe(1);
    expect((await claim(world, await claimBody(sessionId, 'basic', spot.x, spot.y))).statusCode).toBe(201);
  });
});
