import type { Footprint } from '@pixel-atlas/contracts/grid';
import { landMaskQuery } from '@pixel-atlas/contracts/queries';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import { LocalCopy } from './local-copy.ts';

/** The map's land mask and region index as plots keeps it (one byte per tile, row-major). */
export interface LandMask {
  size: number;
  land: Uint8Array;
  regions: Uint8Array;
  regionNames: string[];
}

/** What the map answers about a footprint, answered here from the copy (the same answer `footprintIsLandQuery` gives). */
export interface LandAnswer {
  mapExists: boolean;
  land: boolean;
  regionName: string | null;
}

export function checkLand(mask: LandMask | null, footprint: Footprint): LandAnswer {
  if (!mask) return { mapExists: false, land: false, regionName: null };
  const { x, y, size } = footprint;
  const inside =
    Number.isInteger(x) &&
    Number.isInteger(y) &&
    Number.isInteger(size) &&
    size >= 1 &&
    x >= 0 &&
    y >= 0 &&
    x + size <= mask.size &&
    y + size <= mask.size;
  if (!inside) return { mapExists: true, land: false, regionName: null };
  for (let row = y; row < y + size; row++) {
    for (let column = x; column < x + size; column++) {
      if (mask.land[row * mask.size + column] !== 1) return { mapExists: true, land: false, regionName: null };
    }
  }
  const code = mask.regions[y * mask.size + x] ?? 0;
  return { mapExists: true, land: true, regionName: code ? (mask.regionNames[code - 1] ?? null) : null };
}

/**
 * Where a claim (or a hold, or a position check) learns whether a footprint is land: this replica's copy of the map's
 * mask, asked for once (`landMaskQuery`) and dropped on every `map.layout.*` event (a layout generated or cleared).
 */
export class LandMaskCopy {
  readonly copy: LocalCopy<LandMask | null>;

  constructor(private readonly bus: EventBus) {
    this.copy = new LocalCopy(async () => {
      const answer = await query(this.bus, landMaskQuery, {});
      if (!answer.mapExists) return null;
      const land = new Uint8Array(Buffer.from(answer.land, 'base64'));
      const regions = new Uint8Array(Buffer.from(answer.regions, 'base64'));
      if (land.length !== answer.size * answer.size || regions.length !== land.length)
        throw new Error('the map sent a land mask of the wrong size');
      return { size: answer.size, land, regions, regionNames: answer.regionNames };
    });
  }

  async check(footprint: Footprint): Promise<LandAnswer> {
    return checkLand(await this.copy.get(), footprint);
  }

  private counted: { mask: LandMask; tiles: number } | null = null;

  /** Land tiles on the map (0 without one), counted once per copy of the mask. */
  async landTiles(): Promise<number> {
    const mask = await this.copy.get();
    if (!mask) return 0;
    if (this.counted?.mask !== mask) this.counted = { mask, tiles: mask.land.reduce((sum, tile) => sum + (tile === 1 ? 1 : 0), 0) };
    return this.counted.tiles;
  }
}
