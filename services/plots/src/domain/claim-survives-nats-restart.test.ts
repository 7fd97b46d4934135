import { TestNatsServer } from '@pixel-atlas/service-kit/test-nats-server';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claim, claimBody, payTestCheckout, sessionEvents, startCheckout } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

// This file's own nats-server: stopping it disturbs nobody else.
let nats: TestNatsServer;
beforeAll(async () => {
  nats = await TestNatsServer.start();
});
afterAll(async () => nats?.destroy());
const world = worldPerFile(() => ({ nats, plotsEnv: { ENTITLEMENT_QUERY_TIMEOUT_MS: '2000' } }));
const nextSpot = spotSupply(world, 1, 1);

it('NATS down between payment and claim: the payment is recorded, the claim fails cleanly meanwhile, and succeeds once NATS is back', async () => {
  const spot = nextSpot();
  const { url, sessionId } = (await startCheckout(world, { tier: 'basic', ...spot })).json();

  await nats.stop();
  // Paying needs no broker: the payment and its payments.payment.verified event wait in the outbox.
  const paid = await payTestCheckout(world, url);
  expect(paid.statusCode).toBe(303);
  expect((await world.payments.inject(`/api/verify-session/${sessionId}`)).json()).toMatchObject({ verified: true });
  // A claim now cannot reach the map or payments: a clean 5xx and nothing written.
  const during = await claim(world, await claimBody(sessionId, 'basic', spot.x, spot.y));
  expect(during.statusCode).toBeGreaterThanOrEqual(500);
  expect(during.json().error.code).toMatch(/UPSTREAM_UNAVAILABLE|TIMEOUT/);
  expect(await world.db.query('SELECT id FROM plots.plots')).toEqual([]);

  await nats.resume();
  // The relay delivers the verified event; plots records the entitlement from it.
  await eventually(() => world.plots.db.entitlement.findUnique({ where: { sessionId } }), 20_000);
  const after = await eventually(async () => {
    const response = await claim(world, await claimBody(sessionId, 'basic', spot.x, spot.y));
    return response.statusCode === 201 ? response : null;
  }, 20_000);
  expect(after.json().plot).toMatchObject({ x: spot.x, y: spot.y, tier: 'basic' });
  await eventually(
    async () => (await world.db.query(`SELECT 1 FROM payments.used_sessions WHERE session_id = $1`, [sessionId])).length === 1,
    20_000,
  );
  expect(await sessionEvents(world, 'payments.payment.verified', sessionId)).toHaveLength(1);
});
