// The directory a crawler walks: region counts and pages and a plot's neighbours show only what the public map shows,
// in a stable order, and dead links (an unknown region, a page past the last) are 404s.
import {
  DIRECTORY_PAGE_SIZE,
  NEIGHBOUR_COUNT,
  plotNeighboursSchema,
  regionListSchema,
  regionPageSchema,
  regionSlug,
} from '@pixel-atlas/contracts/directory';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { REGION_DEFINITIONS } from '@pixel-atlas/contracts/regions';
import { describe, expect, it } from 'vitest';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { insertPlot } from '../testing/insert-plot.ts';

// Plots are written straight into the table: the plots service alone, on its own database, reads them.
const world = servicePerFile((env) => buildApp(loadEnv({ ...env, LINK_CHECK_INTERVAL_MS: '0' })));
const get = (url: string, headers: Record<string, string> = {}) => world.app.inject({ url, headers });

describe('GET /api/regions', () => {
  it('lists the thirteen regions in order with zero counts, and no Uncharted, on an empty map', async () => {
    const response = await get('/api/regions');
    expect(response.statusCode).toBe(200);
    const { regions } = regionListSchema.parse(response.json());
    expect(regions.map((r) => r.name)).toEqual(REGION_DEFINITIONS.map((r) => r.name));
    expect(regions.map((r) => r.slug)).toContain('tech-creator-core');
    expect(regions.every((r) => r.plotCount === 0 && r.lastModified === null)).toBe(true);
  });

  it('counts only public plots: not hidden (under review), not removed; Uncharted holds plots of no known region', async () => {
    const early = new Date('2026-11-01T10:00:00.000Z');
    const edited = new Date('2026-11-20T08:30:00.000Z');
    await insertPlot(world.db, { x: 1, y: 10, regionName: 'Creator Coast', createdAt: early });
    await insertPlot(world.db, { x: 2, y: 10, regionName: 'Creator Coast', createdAt: early, contentUpdatedAt: edited });
    await insertPlot(world.db, { x: 3, y: 10, regionName: 'Creator Coast', createdAt: early });
    // Later than the edit, but neither is public: they change neither the count nor lastModified.
    await insertPlot(world.db, { x: 4, y: 10, regionName: 'Creator Coast', visible: false });
    await insertPlot(world.db, { x: 5, y: 10, regionName: 'Creator Coast', removed: true });
    await insertPlot(world.db, { x: 6, y: 10, regionName: null, createdAt: early });
    await insertPlot(world.db, { x: 7, y: 10, regionName: 'A Region Renamed Since', createdAt: edited });
    await insertPlot(world.db, { x: 8, y: 10, regionName: null, visible: false });

    const response = await get('/api/regions');
    const { regions } = regionListSchema.parse(response.json());
    expect(regions.map((r) => r.slug)).toEqual([...REGION_DEFINITIONS.map((r) => regionSlug(r.name)), 'uncharted']);
    expect(regions.find((r) => r.name === 'Creator Coast')).toEqual({
      slug: 'creator-coast',
      name: 'Creator Coast',
      plotCount: 3,
      lastModified: edited.toISOString(),
    });
    expect(regions.at(-1)).toEqual({ slug: 'uncharted', name: 'Uncharted Lands', plotCount: 2, lastModified: edited.toISOString() });
    expect(regions.filter((r) => r.plotCount > 0).map((r) => r.slug)).toEqual(['creator-coast', 'uncharted']);
  });

  it('answers with an ETag a CDN may keep a second, and 304 while nothing changed', async () => {
    const first = await get('/api/regions');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=1, stale-while-revalidate=60');
    const again = await get('/api/regions', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await insertPlot(world.db, { x: 9, y: 10, regionName: 'Creator Coast' });
    const changed = await get('/api/regions', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe('GET /api/regions/:slug', () => {
  it('pages a region by y, then x, 48 to a page, without hidden or removed plots, and 404s past the last page', async () => {
    // 50 public plots in two rows, written in a scrambled order; two more that are not public.
    const spots = Array.from({ length: 50 }, (_, i) => ({ x: 10 + (i % 25), y: 1 + Math.floor(i / 25) }));
    const scrambled = spots.map((spot, i) => spots[(i * 17) % 50]!);
    for (let i = 0; i < scrambled.length; i += 10) {
      await Promise.all(scrambled.slice(i, i + 10).map((spot) => insertPlot(world.db, { ...spot, regionName: 'Maker Moorlands' })));
    }
    await insertPlot(world.db, { x: 0, y: 0, regionName: 'Maker Moorlands', visible: false });
    await insertPlot(world.db, { x: 1, y: 0, regionName: 'Maker Moorlands', removed: true });

    const first = await get('/api/regions/maker-moorlands');
    expect(first.statusCode).toBe(200);
    const page1 = regionPageSchema.parse(first.json());
    expect(page1.region).toMatchObject({ slug: 'maker-moorlands', name: 'Maker Moorlands', plotCount: 50 });
    expect(page1).toMatchObject({ page: 1, pageCount: 2 });
    expect(page1.plots).toHaveLength(DIRECTORY_PAGE_SIZE);
    const page2 = regionPageSchema.parse((await get('/api/regions/maker-moorlands?page=2')).json());
    expect(page2).toMatchObject({ page: 2, pageCount: 2 });
    const positions = [...page1.plots, ...page2.plots].map((p) => ({ x: p.x, y: p.y }));
    expect(positions).toEqual([...spots].sort((a, b) => a.y - b.y || a.x - b.x));
    expect(page1.plots.every((p) => p.region_name === 'Maker Moorlands' && p.avatar_url.startsWith(`/api/plots/${p.id}/avatar`))).toBe(
      true,
    );

    const past = await get('/api/regions/maker-moorlands?page=3');
    expect(past.statusCode).toBe(404);
    expect(errorBodySchema.parse(past.json()).error.code).toBe('NOT_FOUND');
  });

  it('gives page 1 of an empty region (no further page), 404 for an unknown region, 400 for a bad page', async () => {
    const empty = await get('/api/regions/forum-fields');
    expect(empty.statusCode).toBe(200);
    expect(regionPageSchema.parse(empty.json())).toMatchObject({ page: 1, pageCount: 1, plots: [], region: { plotCount: 0 } });
    expect((await get('/api/regions/forum-fields?page=2')).statusCode).toBe(404);
    const unknown = await get('/api/regions/atlantis');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    expect((await get('/api/regions/Forum-Fields')).statusCode).toBe(404);
    for (const page of ['0', '-1', '1.5', 'two', '10001']) {
      const bad = await get(`/api/regions/forum-fields?page=${page}`);
      expect(bad.statusCode, page).toBe(400);
    }
  });

  it('lists Uncharted: plots with no region or a region name no longer on the map', async () => {
    const page = regionPageSchema.parse((await get('/api/regions/uncharted')).json());
    expect(page.region).toMatchObject({ name: 'Uncharted Lands', plotCount: 2 });
    expect(page.plots.map((p) => [p.x, p.region_name])).toEqual([
      [6, null],
      [7, 'A Region Renamed Since'],
    ]);
  });
});

describe('GET /api/plots/:id/neighbours', () => {
  it('gives the nearest public plots by centre, nearest first, never the plot itself nor a hidden or removed one', async () => {
    // A 2×2 plot at (70,70): its centre is (71,71). The others in this corner, farthest to nearest.
    const centre = await insertPlot(world.db, { x: 70, y: 70, size: 2 });
    const far = await insertPlot(world.db, { x: 80, y: 80 }); // (80.5, 80.5)
    const d5b = await insertPlot(world.db, { x: 76, y: 70 }); // (76.5, 70.5): 5.52
    const d5a = await insertPlot(world.db, { x: 65, y: 70 }); // (65.5, 70.5): 5.52, same distance, smaller x
    const d4 = await insertPlot(world.db, { x: 70, y: 75 }); // (70.5, 75.5): 4.53
    const d3 = await insertPlot(world.db, { x: 73, y: 73, size: 2 }); // (74, 74): 4.24
    const d2 = await insertPlot(world.db, { x: 72, y: 68 }); // (72.5, 68.5): 2.92
    const d1 = await insertPlot(world.db, { x: 72, y: 70 }); // (72.5, 70.5): 1.58
    await insertPlot(world.db, { x: 69, y: 70, visible: false }); // nearest of all, under review
    await insertPlot(world.db, { x: 70, y: 72, removed: true }); // as near, removed

    const response = await get(`/api/plots/${centre.id}/neighbours`);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toMatch(/^W\/".+"$/);
    const { plots } = plotNeighboursSchema.parse(response.json());
    expect(plots).toHaveLength(NEIGHBOUR_COUNT);
    // Same distance: the higher row first (smaller y), then the smaller x: d5b (y 70, x 76) after d5a (y 70, x 65).
    expect(plots.map((p) => p.id)).toEqual([d1.id, d2.id, d3.id, d4.id, d5a.id, d5b.id]);
    expect(plots.map((p) => p.id)).not.toContain(far.id);

    // From a plot with few others nearby the list is still nearest first, with the centre plot in it.
    const fromFar = plotNeighboursSchema.parse((await get(`/api/plots/${far.id}/neighbours`)).json());
    expect(fromFar.plots[0]!.id).toBe(d3.id);
    expect(fromFar.plots.map((p) => p.id)).not.toContain(far.id);
  });

  it('is not found for a hidden, removed, unknown or malformed plot id', async () => {
    const hidden = await insertPlot(world.db, { x: 60, y: 85, visible: false });
    const removed = await insertPlot(world.db, { x: 61, y: 85, removed: true });
    for (const id of [hidden.id, removed.id, '00000000-0000-4000-8000-000000000000', 'not-a-plot']) {
      const response = await get(`/api/plots/${id}/neighbours`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error.code).toBe('PLOT_NOT_FOUND');
    }
  });
});

describe('the directory queries', () => {
  it('read the partial indexes, not the whole table', async () => {
    // Plenty of rows, and fresh statistics, so the planner's choice is the one a full map gets.
    await world.db.query(
      `INSERT INTO plots.plots (id, zone, tier, x, y, size, display_name, message, stripe_session_id, region_name, visible)
       SELECT gen_random_uuid(), 'creator', 'basic', g % 90, g / 90, 1, 'P' || g, 'Hi', 'cs_bulk_' || g,
              (ARRAY['Knowledge Knolls', 'Wellness Wilds', 'Pixel Plains'])[1 + g % 3], g % 10 <> 0
         FROM generate_series(0, 7999) AS g`,
    );
    await world.db.query('ANALYZE plots.plots');
    const plan = async (sql: string) =>
      (await world.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).map((row) => row['QUERY PLAN']).join('\n');
    const page = await plan(
      `SELECT "id" FROM plots.plots WHERE "visible" AND "removed_at" IS NULL AND "region_name" = 'Pixel Plains' ORDER BY "y", "x", "id" LIMIT 48 OFFSET 960`,
    );
    expect(page).toContain('plots_public_region_position_idx');
    const near = await plan(
      `SELECT "id" FROM plots.plots WHERE "visible" AND "removed_at" IS NULL AND "id" <> '00000000-0000-4000-8000-000000000000'
        ORDER BY point("x" + "size" / 2.0, "y" + "size" / 2.0) <-> point(40.5, 40.5) LIMIT 24`,
    );
    expect(near).toContain('plots_public_center_idx');
    const mid = plotNeighboursSchema.parse(
      (
        await get(
          `/api/plots/${(await world.db.query<{ id: string }>(`SELECT id FROM plots.plots WHERE x = 45 AND y = 45 AND visible`))[0]!.id}/neighbours`,
        )
      ).json(),
    );
    expect(mid.plots).toHaveLength(NEIGHBOUR_COUNT);
  });
});
