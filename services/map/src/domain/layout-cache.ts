import type { MapLayout } from '@pixel-atlas/contracts/map';
import { regionSchema } from '@pixel-atlas/contracts/regions';
import { encodeJson, type EncodedJson } from '@pixel-atlas/service-kit/cached-json';
import { InvalidatedValue } from '@pixel-atlas/service-kit/invalidated-value';
import { z } from 'zod';
import type { PrismaClient } from '../db.ts';
import { createLandMask, createRegionIndex, type LandMask, type RegionIndex } from './land-mask.ts';

/** The serialised layout, compressed once per change rather than once per request. */
export interface CachedLayout {
  body: EncodedJson;
  tileCount: number;
  landMask: LandMask;
  /** Region name per tile, beside the land mask (the region a plot stands in). */
  regions: RegionIndex;
}

/**
 * The layout as every replica serves it: loaded from the database on first use and again whenever a
 * `map.layout.*` event says it changed (on any replica), so scaled-out readers never serve a stale world.
 */
export class LayoutCache {
  private readonly value = new InvalidatedValue<CachedLayout | null>({ load: () => this.load() });

  constructor(private readonly db: PrismaClient) {}

  get(): Promise<CachedLayout | null> {
    return this.value.get();
  }

  invalidate(): void {
    this.value.invalidate();
  }

  /**
   * The layout as the database holds it now (and kept as this replica's copy): for answers another service will
   * keep, which must not come from a copy that has not yet heard the latest `map.layout.*` event.
   */
  fresh(): Promise<CachedLayout | null> {
    this.invalidate();
    return this.get();
  }

  private async load(): Promise<CachedLayout | null> {
    const layout = await this.db.mapLayout.findUnique({ where: { id: 1 } });
    if (!layout) return null;
    const rows = await this.db.mapTile.findMany({ orderBy: [{ y: 'asc' }, { x: 'asc' }] });
    const body: MapLayout = {
      tiles: rows.map((t) => ({ x: t.x, y: t.y, zone_value: t.zoneValue, zone_name: t.zoneName, is_land: t.isLand })),
      // A JSON column: checked on the way out, as any data read back from storage.
      regions: z.array(regionSchema).parse(layout.regions),
      seed: layout.seed,
      generatedAt: layout.generatedAt.toISOString(),
    };
    return {
      body: await encodeJson(body, { brotliQuality: 6 }),
      tileCount: rows.length,
      landMask: createLandMask(body.tiles),
      regions: createRegionIndex(body.tiles),
    };
  }
}
