import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { plotListCompactSchema } from '@pixel-atlas/contracts/plot-list-compact';
import { decodePlotListCompact, PLOT_LIST_COMPACT_VERSION } from '@pixel-atlas/contracts/plot-list-compact-codec';
import { plotListResponseSchema } from '@pixel-atlas/contracts/plots';
import { eventually } from '@pixel-atlas/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buyAndClaim, buyAndPay, claim, claimBody, startCheckout, viaGateway, waterTile } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

const world = worldPerFile();
let replica: FastifyInstance;
beforeAll(async () => {
  replica = await world.spawn('plots');
});

const nextSpot = spotSupply(world, 4, 60);
async function claimed(name = 'Ada Lovelace') {
  const spot = nextSpot();
  const { response } = await buyAndClaim(world, { tier: 'basic', ...spot }, { display_name: name });
  expect(response.statusCode).toBe(201);
  return response.json().plot;
}

describe('GET /api/plots', () => {
  it('lists visible plots without image bytes, valid against the contract', async () => {
    const empty = await world.plots.inject('/api/plots');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    const plot = await claimed();
    const list = await world.plots.inject('/api/plots');
    expect(plotListResponseSchema.parse(list.json())).toEqual([plot]);
    // A plot waiting for review is in no public list.
    await world.db.query(`UPDATE plots.plots SET visible = false WHERE id = $1`, [plot.id]);
    world.plots.plotList.invalidate();
    expect((await world.plots.inject('/api/plots')).json()).toEqual([]);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).statusCode).toBe(404);
    expect((await world.plots.inject(`/api/users/Ada%20Lovelace/plots`)).json().plots).toEqual([]);
    await world.db.query(`UPDATE plots.plots SET visible = true WHERE id = $1`, [plot.id]);
    world.plots.plotList.invalidate();
  });

  it('answers 304 to a matching If-None-Match, and a new ETag after a change', async () => {
    const first = await world.plots.inject('/api/plots');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const cached = await world.plots.inject({ url: '/api/plots', headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    await claimed('Second Person');
    const changed = await world.plots.inject({ url: '/api/plots', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('is compressed with brotli or gzip as the client accepts', async () => {
    const identity = await world.plots.inject('/api/plots');
    const br = await world.plots.inject({ url: '/api/plots', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(identity.json());
    const gz = await world.plots.inject({ url: '/api/plots', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(identity.json());
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('format=compact: the same plots column by column, with its own ETag/304, compressed as the client accepts', async () => {
    await claimed('Compact Reader');
    const spec = (await world.plots.inject('/api/plots')).json();
    const compact = await world.plots.inject('/api/plots?format=compact');
    expect(compact.statusCode).toBe(200);
    const parsed = plotListCompactSchema.parse(compact.json());
    expect(parsed.version).toBe(PLOT_LIST_COMPACT_VERSION);
    expect(decodePlotListCompact(parsed)).toEqual(spec);
    expect(compact.body.length).toBeLessThan(JSON.stringify(spec).length);
    const etag = compact.headers.etag as string;
    expect(etag).not.toBe((await world.plots.inject('/api/plots')).headers.etag);
    expect((await world.plots.inject({ url: '/api/plots?format=compact', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const br = await world.plots.inject({ url: '/api/plots?format=compact', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(compact.json());
    const gz = await world.plots.inject({ url: '/api/plots?format=compact', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(compact.json());
  });

  it('refuses a format it does not know with a 400, and ignores other query parameters', async () => {
    const unknown = await world.plots.inject('/api/plots?format=xml');
    expect(unknown.statusCode).toBe(400);
    expect(errorBodySchema.parse(unknown.json()).error.code).toBe('VALIDATION_FAILED');
    expect((await world.plots.inject('/api/plots?cache=1')).json()).toEqual((await world.plots.inject('/api/plots')).json());
  });

  it('another replica drops its cached list when a plot is claimed elsewhere (plots.plot.claimed on NATS)', async () => {
    const before = (await replica.inject('/api/plots')).json();
    const plot = await claimed('Replica Watcher');
    const after = await eventually(async () => {
      const list = (await replica.inject('/api/plots')).json();
      return list.length === before.length + 1 ? list : null;
    });
    expect(after).toContainEqual(plot);
  });
});

describe('GET /api/plots/:id and the avatar', () => {
  it('404 PLOT_NOT_FOUND for unknown and malformed ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await world.plots.inject(`/api/plots/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({ code: 'PLOT_NOT_FOUND', message: 'Plot not found' });
      expect((await world.plots.inject(`/api/plots/${id}/avatar`)).statusCode).toBe(404);
    }
  });

  it('serves the small rendition as a PNG by default, ?size=medium and ?size=large as WebP, each its own size', async () => {
    const side = 1300;
    const grain = await sharp({
      create: {
        width: side,
        height: side,
        channels: 3,
        background: { r: 90, g: 140, b: 200 },
        noise: { type: 'gaussian', mean: 128, sigma: 20 },
      },
    })
      .blur(1.5)
      .raw()
      .toBuffer();
    // The crop as a browser that encodes WebP sends it: photo-like, well under 1 MB.
    const photo = await sharp(grain, { raw: { width: side, height: side, channels: 3 } })
      .webp({ quality: 90 })
      .toBuffer();
    const spot = nextSpot();
    const avatar_url = `data:image/webp;base64,${photo.toString('base64')}`;
    const { response } = await buyAndClaim(world, { tier: 'basic', ...spot }, { display_name: 'Webp Owner', avatar_url });
    expect(response.statusCode, response.body).toBe(201);
    const url = response.json().plot.avatar_url as string;
    const renditions = [
      ['', 'image/png', 'png', 128],
      ['?size=small', 'image/png', 'png', 128],
      ['?size=bogus', 'image/png', 'png', 128],
      ['?size=medium', 'image/webp', 'webp', 512],
      ['?size=large', 'image/webp', 'webp', 1152],
    ] as const;
    const etags = new Set<string>();
    for (const [query, contentType, format, width] of renditions) {
      const answer = await world.plots.inject(`${url}${query}`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type'], query).toBe(contentType);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(await sharp(answer.rawPayload).metadata(), query).toMatchObject({ format, width, height: width });
      etags.add(answer.headers.etag as string);
    }
    expect(etags.size).toBe(3);
  });

  it('serves an avatar stored as a PNG before WebP as a PNG: large and medium as stored, small made from it', async () => {
    const plot = await claimed('Png Keeper');
    const oldPng = await sharp({ create: { width: 512, height: 512, channels: 4, background: '#3a6' } })
      .png()
      .toBuffer();
    await world.db.query(`UPDATE plots.plot_avatars SET png = $1 WHERE plot_id = $2`, [oldPng, plot.id]);
    for (const [query, width] of [
      ['?size=large', 512],
      ['?size=medium', 512],
      ['', 128],
    ] as const) {
      const answer = await world.plots.inject(`${plot.avatar_url}${query}`);
      expect(answer.headers['content-type'], query).toBe('image/png');
      expect(await sharp(answer.rawPayload).metadata(), query).toMatchObject({ format: 'png', width });
    }
  });
});

describe('GET /api/users/:username/plots', () => {
  it('matches display names ignoring case, decoded from the URL, and nothing else', async () => {
    const one = await claimed('Zoë Ünicode');
    const two = await claimed('ZOË ünicode');
    await claimed('Zoë Ünicode 2');
    const response = await world.plots.inject(`/api/users/${encodeURIComponent('zoë ünicode')}/plots`);
    expect(response.statusCode).toBe(200);
    expect(response.json().username).toBe('zoë ünicode');
    expect(response.json().plots.map((p: { id: string }) => p.id)).toEqual([one.id, two.id]);
    expect((await world.plots.inject('/api/users/nobody-here/plots')).json()).toEqual({ username: 'nobody-here', plots: [] });
    // LIKE wildcards are not wildcards here.
    expect((await world.plots.inject('/api/users/Zo%25/plots')).json().plots).toEqual([]);
    // A NUL byte was a PostgreSQL error (22021) and a 500.
    const nul = await world.plots.inject('/api/users/Zo%00e/plots');
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message: "username: User name can't contain control characters" });
  });
});

describe('GET /api/position-available', () => {
  it('says why a spot is not available: water, out of grid, taken, held', async () => {
    const ask = async (query: string) =>
      (await world.plots.inject({ url: `/api/position-available?${query}`, headers: viaGateway() })).json();
    const water = waterTile(world);
    expect(await ask(`x=${water.x}&y=${water.y}`)).toEqual({ available: false, reason: 'water' });
    expect(await ask('x=88&y=40&tier=premium')).toEqual({ available: false, reason: 'out_of_grid' });
    const free = nextSpot();
    expect(await ask(`x=${free.x}&y=${free.y}&tier=premium`)).toEqual({ available: true });
    expect((await startCheckout(world, { tier: 'basic', x: free.x + 3, y: free.y + 3 })).statusCode).toBe(200);
    expect(await ask(`x=${free.x}&y=${free.y}&tier=premium`)).toEqual({ available: false, reason: 'held' });
    expect(await ask(`x=${free.x}&y=${free.y}&tier=prime`)).toEqual({ available: true });
    // ('test' is on the spec's word list: 'Position Test' would be held for review, and say so.)
    const plot = await claimed('Position Holder');
    expect(await ask(`x=${plot.x}&y=${plot.y}`)).toEqual({
      available: false,
      reason: 'taken',
      overlaps: { id: plot.id, display_name: 'Position Holder' },
    });
    const bad = await world.plots.inject('/api/position-available?x=abc&y=1');
    expect(bad.statusCode).toBe(400);
  });

  it('says no_map when the layout was cleared, and claims then fail clearly', async () => {
    const spot = nextSpot();
    const sessionId = await buyAndPay(world, { tier: 'basic', ...spot });
    const cleared = await world.map!.inject({
      method: 'DELETE',
      url: '/api/admin/map-layout',
      headers: { ...viaGateway(), 'x-admin-user': 'admin' },
    });
    expect(cleared.statusCode).toBeLessThan(300);
    const free = nextSpot();
    await eventually(async () => (await world.plots.inject(`/api/position-available?x=${free.x}&y=${free.y}`)).json().reason === 'no_map');
    const response = await claim(world, await claimBody(sessionId, 'basic', spot.x, spot.y));
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({
      code: 'MAP_NOT_AVAILABLE',
      message: 'The map is not available right now, so plots cannot be placed. Please try again later.',
    });
    const checkout = await startCheckout(world, { tier: 'basic', ...free });
    expect(checkout.statusCode).toBe(404);
    expect(checkout.json().error.code).toBe('MAP_NOT_AVAILABLE');
  });
});
