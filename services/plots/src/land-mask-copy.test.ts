import { footprintIsLandQuery } from '@pixel-atlas/contracts/queries';
import { query } from '@pixel-atlas/service-kit/rpc';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { asAdmin, buyAndPay, claim, claimBody, landSpots, startCheckout, streamEvents, waterTile } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';

const world = worldPerFile();

const positionAvailable = async (x: number, y: number) =>
  (await world.plots.inject({ url: `/api/position-available?x=${x}&y=${y}&tier=basic` })).json<{ available: boolean; reason?: string }>();

describe("plots' copy of the land mask (claims check land without asking the map)", () => {
  it('answers what the map answers, for land, water and every region', async () => {
    const spots = landSpots(world, 1, 400).filter((_, i) => i % 20 === 0);
    for (const footprint of [...spots.map((s) => ({ ...s, size: 1 })), { ...waterTile(world), size: 1 }, { x: 88, y: 88, size: 4 }]) {
      const fromMap = await query(world.plots.bus, footprintIsLandQuery, footprint);
      expect(await world.plots.landMask.check(footprint)).toEqual({ ...fromMap, regionName: fromMap.regionName ?? null });
    }
  });

  it('claims without a NATS query to the map per claim: with the map gone, a claim still lands', async () => {
    const [first, second] = landSpots(world, 1, 600).slice(500);
    const firstSession = await buyAndPay(world, { tier: 'basic', ...first! });
    const secondSession = await buyAndPay(world, { tier: 'basic', ...second! });
    expect((await claim(world, await claimBody(firstSession, 'basic', first!.x, first!.y))).statusCode).toBe(201);
    await world.map!.close();
    try {
      const response = await claim(world, await claimBody(secondSession, 'basic', second!.x, second!.y));
      expect(response.statusCode).toBe(201);
      expect(response.json().plot.region_name).toBeTruthy();
    } finally {
      await world.restart('map');
    }
  });

  it('a cleared map refuses claims, holds and positions as soon as its event is heard; a new map is used at once', async () => {
    const [spot, probe, other] = landSpots(world, 1, 700).slice(650);
    const sessionId = await buyAndPay(world, { tier: 'basic', ...spot! });
    expect(await positionAvailable(probe!.x, probe!.y)).toEqual({ available: true });
    const before = world.plots.landMask.copy.invalidations;

    const cleared = await world.map!.inject({ method: 'DELETE', url: '/api/admin/map-layout', headers: asAdmin() });
    expect(cleared.statusCode).toBe(200);
    await eventually(async () => expect((await streamEvents(world, 'map.layout.cleared')).length).toBe(1));
    await eventually(async () => expect(world.plots.landMask.copy.invalidations).toBeGreaterThan(before));

    // Once plots heard it, nothing is placed on the old land.
    const refused = await claim(world, await claimBody(sessionId, 'basic', spot!.x, spot!.y));
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('MAP_NOT_AVAILABLE');
    expect(await positionAvailable(probe!.x, probe!.y)).toEqual({ available: false, reason: 'no_map' });
    expect((await startCheckout(world, { tier: 'basic', ...other! })).statusCode).not.toBe(200);

    const generated = await world.map!.inject({ method: 'POST', url: '/api/admin/generate-map', headers: asAdmin(), payload: {} });
    expect(generated.statusCode).toBe(201);
    await eventually(async () => expect((await streamEvents(world, 'map.layout.generated')).length).toBeGreaterThan(0));
    await eventually(async () => expect(await positionAvailable(probe!.x, probe!.y)).toEqual({ available: true }));
    const claimed = await claim(world, await claimBody(sessionId, 'basic', spot!.x, spot!.y));
    expect(claimed.statusCode).toBe(201);
  });
});
