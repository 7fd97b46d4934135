import { gunzipSync } from 'node:zlib';
import { footprintIsLandQuery } from '@pixel-atlas/contracts/queries';
import { connectBus, type EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import {
  createTestDatabase,
  createTestStream,
  eventually,
  TEST_INTERNAL_TOKEN,
  testServiceEnv,
  type TestDatabase,
  type TestStream,
} from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { describeApi } from '../openapi.ts';

let db: TestDatabase;
let stream: TestStream;
let app: Awaited<ReturnType<typeof buildApp>>;
let replica: Awaited<ReturnType<typeof buildApp>>;
let bus: EventBus;

const asAdmin = { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-admin-user': 'warden' };

beforeAll(async () => {
  db = await createTestDatabase();
  stream = await createTestStream();
  const env = loadEnv({ ...testServiceEnv(db, stream), MAP_SEED: 'test-seed' });
  app = await buildApp(env);
  await app.ready();
  // A second replica on the same database: it must see every change the first one makes.
  replica = await buildApp(env);
  await replica.ready();
  bus = await connectBus(stream.busSettings('map-test'));
});

afterAll(async () => {
  await bus?.nc.drain();
  await replica?.close();
  await app?.close();
  await stream?.remove();
  await db?.drop();
});

describe('the map layout', () => {
  it('is generated at first start and served with every tile and the 13 regions', async () => {
    const response = await app.inject('/api/map-layout');
    expect(response.statusCode).toBe(200);
    const layout = response.json();
    expect(layout.tiles).toHaveLength(8100);
    expect(layout.regions).toHaveLength(13);
    expect(layout.seed).toBe('test-seed');
    const land = layout.tiles.filter((t: { is_land: boolean }) => t.is_land).length;
    expect(land / 8100).toBeGreaterThan(0.5);
  });

  it('answers 304 to a matching ETag and compresses', async () => {
    const first = await app.inject({ url: '/api/map-layout', headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    const raw = gunzipSync(first.rawPayload);
    expect(JSON.parse(raw.toString()).tiles).toHaveLength(8100);
    expect(first.rawPayload.length).toBeLessThan(raw.length / 5);
    const again = await app.inject({ url: '/api/map-layout', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['content-length']).toBeUndefined();
  });

  it('answers the land query over NATS: water is never claimable', async () => {
    const { tiles } = (await app.inject('/api/map-layout')).json() as {
      tiles: Array<{ x: number; y: number; is_land: boolean; zone_name: string }>;
    };
    const landTile = tiles.find((t) => t.is_land)!;
    // The reply names the region of the footprint's top-left tile (plots stores it on the plot).
    expect(await query(bus, footprintIsLandQuery, { x: landTile.x, y: landTile.y, size: 1 })).toEqual({
      mapExists: true,
      land: true,
      regionName: landTile.zone_name,
    });
    expect(await query(bus, footprintIsLandQuery, { x: 0, y: 0, size: 1 })).toEqual({ mapExists: true, land: false, regionName: null });
    expect(await query(bus, footprintIsLandQuery, { x: 88, y: 88, size: 4 })).toEqual({ mapExists: true, land: false, regionName: null });
    // Every land tile's region is the one the layout shows for it.
    for (const tile of tiles.filter((t) => t.is_land).slice(0, 200)) {
      expect((await query(bus, footprintIsLandQuery, { x: tile.x, y: tile.y, size: 1 })).regionName).toBe(tile.zone_name);
    }
  });

  it('refuses generate and clear without an admin (401) and generate while a map exists (409, nothing changes)', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/admin/generate-map' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'DELETE', url: '/api/admin/map-layout', headers: { 'x-admin-user': 'forged' } })).statusCode).toBe(
      401,
    );
    const before = (await app.inject('/api/map-layout')).headers.etag;
    const conflict = await app.inject({ method: 'POST', url: '/api/admin/generate-map', headers: asAdmin });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.message).toMatch(/already exists/);
    expect((await app.inject('/api/map-layout')).headers.etag).toBe(before);
  });

  it('clears, says the map is not available on every replica, then generates again', async () => {
    await replica.inject('/api/map-layout'); // warm the other replica's cache
    const cleared = await app.inject({ method: 'DELETE', url: '/api/admin/map-layout', headers: asAdmin });
    expect(cleared.statusCode).toBe(200);
    expect(await app.db.mapTile.count()).toBe(0);
    expect((await app.inject('/api/map-layout')).statusCode).toBe(404);
    await eventually(async () => (await replica.inject('/api/map-layout')).statusCode === 404);
    expect((await app.inject('/api/map-layout')).json().error).toEqual({
      code: 'MAP_NOT_AVAILABLE',
      message: 'The map is not available right now.',
    });
    expect(await query(bus, footprintIsLandQuery, { x: 40, y: 40, size: 1 })).toEqual({ mapExists: false, land: false, regionName: null });

    const generated = await app.inject({ method: 'POST', url: '/api/admin/generate-map', headers: asAdmin });
    expect(generated.statusCode).toBe(201);
    expect(generated.json()).toMatchObject({ message: 'Map generated successfully! The atlas is now ready for use.', tileCount: 8100 });
    await eventually(async () => (await replica.inject('/api/map-layout')).statusCode === 200);
  });

  it('publishes map.layout.generated and map.layout.cleared through the outbox', async () => {
    await eventually(async () => (await app.db.outboxEvent.count({ where: { publishedAt: null } })) === 0);
    const subjects = (await app.db.outboxEvent.findMany({ orderBy: { createdAt: 'asc' } })).map((e) => e.subject);
    expect(subjects).toEqual(['map.layout.generated', 'map.layout.cleared', 'map.layout.generated']);
  });
});

it('documents in OpenAPI the operations describeApi() describes', async () => {
  const doc = (await app.inject('/openapi.json')).json();
  expect(doc.paths, 'the public document is built from describeApi()').toEqual((await describeApi()).paths);
});
