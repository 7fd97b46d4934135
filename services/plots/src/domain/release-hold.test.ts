import { releaseHoldCommand } from '@pixel-atlas/contracts/queries';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { query } from '@pixel-atlas/service-kit/rpc';
import { assert, describe, expect, it } from 'vitest';
import { buyAndPay, publishEvent, startCheckout } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

const world = worldPerFile({ moderation: false });

const nextSpot = spotSupply(world, 1, 3);
async function holdIdOf(sessionId: string): Promise<string> {
  const [payment] = await world.db.query<{ hold_id: string }>(`SELECT hold_id FROM payments.payments WHERE stripe_session_id = $1`, [
    sessionId,
  ]);
  assert(payment, `no payment for ${sessionId}`);
  return payment.hold_id;
}
const holds = async (sessionId: string) =>
  (await world.db.query(`SELECT 1 FROM plots.footprints WHERE kind = 'hold' AND session_id = $1`, [sessionId])).length;

describe('a paid hold is never released', () => {
  it('releaseHoldCommand and payments.checkout.expired leave the hold of a paid session alone, and free an unpaid one', async () => {
    const [paidSpot, unpaidSpot] = [nextSpot(), nextSpot()];
    const paid = await buyAndPay(world, { tier: 'basic', ...paidSpot });
    await eventually(async () => (await world.db.query(`SELECT 1 FROM plots.entitlements WHERE session_id = $1`, [paid])).length === 1);
    const unpaid = (await startCheckout(world, { tier: 'basic', ...unpaidSpot })).json().sessionId as string;

    expect(await query(world.payments.bus, releaseHoldCommand, { holdId: await holdIdOf(paid) })).toEqual({ released: false });
    await publishEvent(world, 'payments.checkout.expired', { sessionId: paid });
    expect(await query(world.payments.bus, releaseHoldCommand, { holdId: await holdIdOf(unpaid) })).toEqual({ released: true });
    // The event is applied in order after the command: give the consumer time, then the paid hold must still be there.
    await publishEvent(world, 'payments.checkout.expired', { sessionId: unpaid });
    await eventually(
      async () => (await world.db.query(`SELECT 1 FROM plots.inbox_events WHERE subject LIKE '%payments.checkout.expired'`)).length >= 2,
    );
    expect(await holds(paid)).toBe(1);
    expect(await holds(unpaid)).toBe(0);
  });
});
