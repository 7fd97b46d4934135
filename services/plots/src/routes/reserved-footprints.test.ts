import { releaseHoldCommand } from '@pixel-atlas/contracts/queries';
import { reservedFootprintListSchema } from '@pixel-atlas/contracts/plots';
import { query } from '@pixel-atlas/service-kit/rpc';
import { assert, describe, expect, it } from 'vitest';
import { buyAndClaim, startCheckout, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

const world = worldPerFile();

const nextSpot = spotSupply(world, 4, 40);
const reserved = async () => {
  const response = await world.plots.inject({ url: '/api/reserved-footprints', headers: viaGateway() });
  expect(response.statusCode).toBe(200);
  return reservedFootprintListSchema.parse(response.json());
};
const ask = async (x: number, y: number, tier = 'basic') =>
  (await world.plots.inject({ url: `/api/position-available?x=${x}&y=${y}&tier=${tier}`, headers: viaGateway() })).json();
async function holdIdOf(sessionId: string): Promise<string> {
  const [payment] = await world.db.query<{ hold_id: string }>(`SELECT hold_id FROM payments.payments WHERE stripe_session_id = $1`, [
    sessionId,
  ]);
  assert(payment, `no payment for ${sessionId}`);
  return payment.hold_id;
}

async function claimPlot(name: string, tier: 'basic' | 'featured' = 'basic', spot = nextSpot()) {
  const { sessionId, response } = await buyAndClaim(world, { tier, ...spot }, { display_name: name, message: 'Hello there' });
  expect(response.statusCode).toBe(201);
  return {
    ...response.json<{ plot: { id: string; x: number; y: number; display_name: string }; warning?: string }>(),
    sessionId,
    spot,
  };
}

describe('GET /api/reserved-footprints', () => {
  it('shows a checkout hold as held at once (the replica that took it drops its cached list), and a released one goes', async () => {
    expect(await reserved()).toEqual([]);
    const spot = nextSpot();
    const checkout = await startCheckout(world, { tier: 'featured', ...spot });
    expect(checkout.statusCode).toBe(200);
    expect(await reserved()).toEqual([{ x: spot.x, y: spot.y, size: 2, reason: 'held' }]);
    expect(await ask(spot.x + 1, spot.y + 1)).toEqual({ available: false, reason: 'held' });

    const { sessionId } = checkout.json<{ sessionId: string }>();
    expect(await query(world.payments.bus, releaseHoldCommand, { holdId: await holdIdOf(sessionId) })).toEqual({ released: true });
    expect(await reserved()).toEqual([]);
    expect(await ask(spot.x + 1, spot.y + 1)).toEqual({ available: true });
  });

  it('leaves out expired holds, like every other check', async () => {
    const [spot, later] = [nextSpot(), nextSpot()];
    const { sessionId } = (await startCheckout(world, { tier: 'basic', ...spot })).json<{ sessionId: string }>();
    await world.db.query(`UPDATE plots.footprints SET expires_at = now() - interval '1 second' WHERE hold_id = $1`, [
      await holdIdOf(sessionId),
    ]);
    // A hold taken after the expiry drops the replica's list (it keeps it up to RESERVED_FOOTPRINTS_CACHE_MS
    // otherwise): the list that shows this one was read after the expiry.
    expect((await startCheckout(world, { tier: 'basic', ...later })).statusCode).toBe(200);
    const list = await reserved();
    expect(list).toContainEqual({ x: later.x, y: later.y, size: 1, reason: 'held' });
    expect(list.filter((f) => f.x === spot.x && f.y === spot.y)).toEqual([]);
    expect(await ask(spot.x, spot.y)).toEqual({ available: true });
  });

  it('shows a plot under review as review, and nothing that would identify it; an approved one is a plot again', async () => {
    const { plot, warning, sessionId, spot } = await claimPlot('Drug Deals Daily', 'featured');
    expect(warning).toBeTruthy();
    const response = await world.plots.inject({ url: '/api/reserved-footprints', headers: viaGateway() });
    expect(response.json()).toContainEqual({ x: spot.x, y: spot.y, size: 2, reason: 'review' });
    for (const secret of [plot.id, 'Drug Deals Daily', sessionId, 'Hello there', 'avatar']) expect(response.body).not.toContain(secret);
    for (const footprint of response.json<Array<Record<string, unknown>>>())
      expect(Object.keys(footprint).sort()).toEqual(['reason', 'size', 'x', 'y']);

    // Under review: the reason, never the name.
    expect(await ask(spot.x, spot.y)).toEqual({ available: false, reason: 'review' });
    expect(await ask(spot.x - 1, spot.y, 'featured')).toEqual({ available: false, reason: 'review' });
  });

  it('is revalidated with an ETag (304 while nothing changed), not cached blindly', async () => {
    const first = await world.plots.inject({ url: '/api/reserved-footprints', headers: viaGateway() });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await world.plots.inject({ url: '/api/reserved-footprints', headers: { ...viaGateway(), 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    const spot = nextSpot();
    await startCheckout(world, { tier: 'basic', ...spot });
    const changed = await world.plots.inject({ url: '/api/reserved-footprints', headers: { ...viaGateway(), 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toContainEqual({ x: spot.x, y: spot.y, size: 1, reason: 'held' });
  });

  it('is in the OpenAPI document', async () => {
    const paths = Object.keys((await world.plots.inject('/openapi.json')).json().paths);
    expect(paths).toContain('/api/reserved-footprints');
  });
});

describe('GET /api/position-available names what is in the way', () => {
  it('a footprint over a visible plot names that plot; a plot is named before a hold; touching is fine', async () => {
    const spot = nextSpot();
    // Ada's basic plot sits one tile in from the corner of a 4×4 spot.
    const { plot } = await claimPlot('Ada Lovelace', 'basic', { x: spot.x + 1, y: spot.y + 1 });
    expect(await ask(spot.x, spot.y, 'featured')).toEqual({
      available: false,
      reason: 'taken',
      overlaps: { id: plot.id, display_name: 'Ada Lovelace' },
    });
    expect(await ask(spot.x, spot.y, 'basic')).toEqual({ available: true });
    // A hold beside Ada, under the same premium footprint: the visible plot is the one named.
    expect((await startCheckout(world, { tier: 'basic', x: spot.x + 3, y: spot.y + 3 })).statusCode).toBe(200);
    expect(await ask(spot.x, spot.y, 'premium')).toEqual({
      available: false,
      reason: 'taken',
      overlaps: { id: plot.id, display_name: 'Ada Lovelace' },
    });
    expect(await ask(spot.x + 2, spot.y + 2, 'featured')).toEqual({ available: false, reason: 'held' });
  });
});
