import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { footprintIsLandQuery } from '@pixel-atlas/contracts/queries';
import { query } from '@pixel-atlas/service-kit/rpc';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { eventually, TEST_INTERNAL_TOKEN } from '@pixel-atlas/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { describeApi } from '../openapi.ts';

const asAdmin = { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-admin-user': 'warden' };

// Two replicas on the same database: the second must see every change the first one makes.
const service = servicePerFile((env) => buildApp(loadEnv({ ...env, MAP_SEED: 'test-seed' })), { replicas: 2, bus: 'map-test' });

describe('the map layout', () => {
  it('is generated at first start and served with every tile and the 13 regions', async () => {
    const response = await service.app.inject('/api/map-layout');
    expect(response.statusCode).toBe(200);
    const layout = response.json();
    expect(layout.tiles).toHaveLength(8100);
    expect(layout.regions).toHaveLength(13);
    expect(layout.seed).toBe('test-seed');
    const land = layout.tiles.filter((t: { is_land: boolean }) => t.is_land).length;
    expect(land / 8100).toBeGreaterThan(0.5);
  });

  it('answers 304 to a matching ETag and compresses', async () => {
    const first = await service.app.inject({ url: '/api/map-layout', headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    const raw = gunzipSync(first.rawPayload);
    expect(JSON.parse(raw.toString()).tiles).toHaveLength(8100);
    expect(first.rawPayload.length).toBeLessThan(raw.length / 5);
    const again = await service.app.inject({ url: '/api/map-layout', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['content-length']).toBeUndefined();
  });

  it('answers the land query over NATS: water is never claimable', async () => {
    const { tiles } = (await service.app.inject('/api/map-layout')).json<{
      tiles: Array<{ x: number; y: number; is_land: boolean; zone_name: string }>;
    }>();
    const landTile = tiles.find((t) => t.is_land);
    assert(landTile, 'the map has land');
    // The reply names the region of the footprint's top-left tile (plots stores it on the plot).
    expect(await query(service.bus, footprintIsLandQuery, { x: landTile.x, y: landTile.y, size: 1 })).toEqual({
      mapExists: true,
      land: true,
      regionName: landTile.zone_name,
    });
    expect(await query(service.bus, footprintIsLandQuery, { x: 0, y: 0, size: 1 })).toEqual({
      mapExists: true,
      land: false,
      regionName: null,
    });
    expect(await query(service.bus, footprintIsLandQuery, { x: 88, y: 88, size: 4 })).toEqual({
      mapExists: true,
      land: false,
      regionName: null,
    });
    // Every land tile's region is the one the layout shows for it.
    for (const tile of tiles.filter((t) => t.is_land).slice(0, 200)) {
      expect((await query(service.bus, footprintIsLandQuery, { x: tile.x, y: tile.y, size: 1 })).regionName).toBe(tile.zone_name);
    }
  });

  it('refuses generate and clear without an admin (401) and generate while a map exists (409, nothing changes)', async () => {
    expect((await service.app.inject({ method: 'POST', url: '/api/admin/generate-map' })).statusCode).toBe(401);
    expect(
      (await service.app.inject({ method: 'DELETE', url: '/api/admin/map-layout', headers: { 'x-admin-user': 'forged' } })).statusCode,
    ).toBe(401);
    const before = (await service.app.inject('/api/map-layout')).headers.etag;
    const conflict = await service.app.inject({ method: 'POST', url: '/api/admin/generate-map', headers: asAdmin });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.message).toMatch(/already exists/);
    expect((await service.app.inject('/api/map-layout')).headers.etag).toBe(before);
  });

  it('clears, says the map is not available on every replica, then generates again', async () => {
    await service.replica(1).inject('/api/map-layout'); // warm the other replica's cache
    const cleared = await service.app.inject({ method: 'DELETE', url: '/api/admin/map-layout', headers: asAdmin });
    expect(cleared.statusCode).toBe(200);
    expect(await service.app.db.mapTile.count()).toBe(0);
    expect((await service.app.inject('/api/map-layout')).statusCode).toBe(404);
    await eventually(async () => (await service.replica(1).inject('/api/map-layout')).statusCode === 404);
    expect((await service.app.inject('/api/map-layout')).json().error).toEqual({
      code: 'MAP_NOT_AVAILABLE',
      message: 'The map is not available right now.',
    });
    expect(await query(service.bus, footprintIsLandQuery, { x: 40, y: 40, size: 1 })).toEqual({
      mapExists: false,
      land: false,
      regionName: null,
    });

    const generated = await service.app.inject({ method: 'POST', url: '/api/admin/generate-map', headers: asAdmin });
    expect(generated.statusCode).toBe(201);
    expect(generated.json()).toMatchObject({ message: 'Map generated successfully! The atlas is now ready for use.', tileCount: 8100 });
    await eventually(async () => (await service.replica(1).inject('/api/map-layout')).statusCode === 200);
  });

  it('publishes map.layout.generated and map.layout.cleared through the outbox', async () => {
    await eventually(async () => (await service.app.db.outboxEvent.count({ where: { publishedAt: null } })) === 0);
    const subjects = (await service.app.db.outboxEvent.findMany({ orderBy: { createdAt: 'asc' } })).map((e) => e.subject);
    expect(subjects).toEqual(['map.layout.generated', 'map.layout.cleared', 'map.layout.generated']);
  });
});

it('documents in OpenAPI the operations describeApi() describes', async () => {
  const doc = (await service.app.inject('/openapi.json')).json();
  expect(doc.paths, 'the public document is built from describeApi()').toEqual((await describeApi()).paths);
});
