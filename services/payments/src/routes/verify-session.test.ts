import { verifySessionResponseSchema } from '@pixel-atlas/contracts/payments';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { buyAndClaim, buyAndPay, publishEvent, startCheckout, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { describe, expect, it } from 'vitest';

const world = worldPerFile();

const verify = async (sessionId: string) => {
  const response = await world.payments.inject({ method: 'GET', url: `/api/verify-session/${sessionId}`, headers: viaGateway() });
  expect(response.statusCode).toBe(200);
  return verifySessionResponseSchema.parse(response.json());
};
const nextSpot = spotSupply(world, 4, 20);

describe('GET /api/verify-session/:id beyond verified/tier', () => {
  it('gives the held position of a checkout, paid or not, so another browser can fill it in', async () => {
    const spot = nextSpot();
    const { sessionId } = (await startCheckout(world, { tier: 'featured', ...spot })).json();
    expect(await verify(sessionId)).toEqual({
      verified: false,
      tier: 'featured',
      sessionId,
      x: spot.x,
      y: spot.y,
      used: false,
      plotId: null,
      // Not paid yet, and still open: /claim says so and links back to the checkout (not "invalid or has expired").
      paymentStatus: 'open',
      checkoutUrl: expect.stringContaining(sessionId),
    });
    const paidSpot = nextSpot();
    const paid = await buyAndPay(world, { tier: 'prime', ...paidSpot });
    expect(await verify(paid)).toEqual({
      verified: true,
      tier: 'prime',
      sessionId: paid,
      x: paidSpot.x,
      y: paidSpot.y,
      used: false,
      plotId: null,
      paymentStatus: 'paid',
      checkoutUrl: null,
    });
  });

  it('says an ended checkout is expired, with no way back to it', async () => {
    const spot = nextSpot();
    const { sessionId } = (await startCheckout(world, { tier: 'basic', ...spot })).json();
    const cancelled = await world.payments.inject({
      method: 'GET',
      url: `/api/payments/checkout-cancel?session_id=${sessionId}`,
      headers: viaGateway(),
    });
    expect(cancelled.statusCode).toBe(303);
    expect(await verify(sessionId)).toMatchObject({ verified: false, paymentStatus: 'expired', checkoutUrl: null });
  });

  it('says a session that bought a plot is used, with the plot; after the plot is removed, still used but with no plot', async () => {
    const spot = nextSpot();
    const { sessionId, response: claimed } = await buyAndClaim(world, { tier: 'basic', ...spot });
    expect(claimed.statusCode).toBe(201);
    const plotId: string = claimed.json().plot.id;
    expect(plotId).toMatch(/^[0-9a-f-]{36}$/);
    // Recorded from plots.plot.claimed, which arrives a moment after the claim's answer.
    await eventually(async () => ((await verify(sessionId)).used ? true : null));
    expect(await verify(sessionId)).toEqual({
      verified: true,
      tier: 'basic',
      sessionId,
      x: spot.x,
      y: spot.y,
      used: true,
      plotId,
      paymentStatus: 'paid',
      checkoutUrl: null,
    });

    await publishEvent(world, 'plots.plot.removed', { plotId, sessionId, reason: 'rejected' });
    await eventually(async () => ((await verify(sessionId)).plotId === null ? true : null));
    expect(await verify(sessionId)).toMatchObject({ verified: true, used: true, plotId: null });
  });
});
