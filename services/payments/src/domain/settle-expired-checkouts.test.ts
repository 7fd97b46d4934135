import { landSpots, startCheckout, startWorld, type World } from '@pixel-atlas/test-stack/world';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleExpiredCheckouts } from './settle-expired-checkouts.ts';

let world: World;
let replica: World['payments'];
let spots: Array<{ x: number; y: number }>;
beforeAll(async () => {
  world = await startWorld({ stripe: true });
  replica = await world.spawn('payments');
  spots = landSpots(world, 4, 10);
});
afterAll(async () => world?.close());

const sweepOn = (app: World['payments']) =>
  settleExpiredCheckouts({ db: app.db, provider: app.checkoutProvider, log: app.log, metrics: app.serviceMetrics, graceMs: 0 });

/** Stripe calls about one session (retrieve, expire, …), whatever the method. */
const callsAbout = (sessionId: string) =>
  world
    .fakeStripe!.calls.filter((call) => call.path.startsWith(`/v1/checkout/sessions/${sessionId}`))
    .map((call) => `${call.method} ${call.path}`);

/** A checkout whose session Stripe has expired and whose expiry we have passed, as the sweep finds it. */
async function expiredCheckout(): Promise<string> {
  const response = await startCheckout(world, { tier: 'basic', ...spots.shift()! });
  expect(response.statusCode).toBe(200);
  const sessionId = response.json().sessionId as string;
  world.fakeStripe!.expire(sessionId);
  await world.db.query(`UPDATE payments.payments SET expires_at = now() - interval '5 minutes' WHERE stripe_session_id = $1`, [sessionId]);
  return sessionId;
}

describe('expiry sweep with two payments replicas', () => {
  it('one replica sweeps at a time: Stripe hears about each expired session once, not once per replica', async () => {
    const sessionIds: string[] = [];
    for (let i = 0; i < 6; i += 1) sessionIds.push(await expiredCheckout());

    const results = await Promise.all([sweepOn(world.payments), sweepOn(replica), sweepOn(world.payments), sweepOn(replica)]);

    // Exactly one tick won the lock and settled all of them; the others stood aside (or found nothing left).
    expect(results.filter((n) => n === sessionIds.length)).toHaveLength(1);
    expect(results.every((n) => n === null || n === 0 || n === sessionIds.length)).toBe(true);
    for (const id of sessionIds) {
      const calls = callsAbout(id);
      expect(calls.filter((call) => call === `GET /v1/checkout/sessions/${id}`)).toHaveLength(1);
      expect(new Set(calls).size).toBe(calls.length);
    }
    const statuses = await world.db.query<{ status: string }>(`SELECT status FROM payments.payments WHERE stripe_session_id = ANY($1)`, [
      sessionIds,
    ]);
    expect(statuses.map((row) => row.status)).toEqual(sessionIds.map(() => 'expired'));
  });

  it('the lock is released with the sweep: the next tick on the other replica sweeps again', async () => {
    const first = await expiredCheckout();
    expect(await sweepOn(world.payments)).toBe(1);
    const second = await expiredCheckout();
    expect(await sweepOn(replica)).toBe(1);
    expect(callsAbout(first).filter((call) => call.startsWith('GET'))).toHaveLength(1);
    expect(callsAbout(second).filter((call) => call.startsWith('GET'))).toHaveLength(1);
  });
});
