/**
 * Reserved land: footprints held while someone pays, and plots waiting for review (hidden, so their
 * name and avatar are not shown). They look like free land unless drawn, so they get a pixel-art hatch
 * baked into the static world tiles (nothing per frame), and hit testing tells a click on them apart.
 */
import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import type { ReservedFootprint, ReservedReason } from '@pixel-atlas/contracts/plots';
import { visibleTileRange, type Camera, type Viewport } from './camera.ts';
import type { CanvasFactory, Surface } from './canvas-factory.ts';
import { createFootprintLookup, footprintDeviceRect, strokeFootprintOutlines, type DeviceRect } from './footprints.ts';
import { tileScreenSize } from './level-of-detail.ts';

export type { ReservedFootprint, ReservedReason };

/** What the map says about reserved land (hover text, and the start of the click's refusal). */
export const RESERVED_HOVER_TEXT: Record<ReservedReason, string> = {
  held: 'Reserved while someone pays',
  review: 'Under review',
};

/** Stripe colour per reason: gold for a purchase in progress, lavender for a plot waiting for review. */
export const RESERVED_STRIPE: Record<ReservedReason, string> = {
  held: '#f2c14e',
  review: '#b6a8e6',
};
/** Dims the terrain under the stripes, so reserved land reads as unavailable at a glance. */
const RESERVED_WASH = 'rgba(14, 11, 28, 0.5)';

/** Tile → reserved footprint lookup (one array read per hit test), like the plot index. */
export interface ReservedIndex {
  footprints: readonly ReservedFootprint[];
  at(tileX: number, tileY: number): ReservedFootprint | null;
}

export function createReservedIndex(footprints: readonly ReservedFootprint[], gridSize = GRID_SIZE): ReservedIndex {
  return { footprints, at: createFootprintLookup(footprints, (footprint) => footprint, gridSize) };
}

/** The hatch is 8 × 8 "art pixels"; three cells of each diagonal row are stripe. */
const HATCH_CELLS = 8;
const STRIPE_CELLS = 3;

/**
 * Side in device pixels of one hatch repeat: a power of two (so the pattern, anchored at each world tile's
 * corner, runs on seamlessly across the 512-px tile edges), about a third of a map tile, at least 8.
 */
export function hatchPeriodPx(tilePx: number, dpr: number): number {
  const wanted = Math.max(8, Math.min(64, (tilePx * dpr) / 3));
  return 2 ** Math.round(Math.log2(wanted));
}

/**
 * The pattern tiles, one per reason and period, drawn with whole-pixel rectangles: stair-stepped
 * diagonals in the map's pixel-art style rather than anti-aliased lines.
 */
export interface HatchSource {
  tile(reason: ReservedReason, periodPx: number): Surface & CanvasImageSource;
}

export function createHatchSource(createSurface: CanvasFactory): HatchSource {
  const tiles = new Map<string, Surface & CanvasImageSource>();
  return {
    tile(reason, periodPx) {
      const key = `${reason}|${periodPx}`;
      let surface = tiles.get(key);
      if (!surface) {
        surface = createSurface(periodPx, periodPx);
        const ctx = surface.getContext('2d');
        if (ctx) paintHatchTile(ctx, reason, periodPx);
        tiles.set(key, surface);
      }
      return surface;
    },
  };
}

export function paintHatchTile(ctx: CanvasRenderingContext2D, reason: ReservedReason, periodPx: number): void {
  const cell = periodPx / HATCH_CELLS;
  ctx.fillStyle = RESERVED_STRIPE[reason];
  // Rising diagonals (bottom-left to top-right): cell (cx, cy) is stripe when (cx + cy) mod 8 < 3.
  for (let cy = 0; cy < HATCH_CELLS; cy++) {
    for (let k = 0; k < STRIPE_CELLS; k++) {
      const cx = (((HATCH_CELLS - cy + k) % HATCH_CELLS) + HATCH_CELLS) % HATCH_CELLS;
      ctx.fillRect(cx * cell, cy * cell, cell, cell);
    }
  }
}

interface ReservedRect extends DeviceRect {
  footprint: ReservedFootprint;
}

/**
 * Draws the reserved footprints in view over the terrain (device pixels of the target, whose origin
 * is the view's top-left): a dark wash, the hatch of the reason's colour, a frame of the same colour
 * and a dark outline. Everything is batched per reason, a few fills per tile however many footprints.
 */
export function drawReservedFootprints(
  ctx: CanvasRenderingContext2D,
  footprints: readonly ReservedFootprint[],
  camera: Camera,
  viewport: Viewport,
  dpr: number,
  hatch: HatchSource,
): void {
  if (footprints.length === 0) return;
  const range = visibleTileRange(camera, viewport, 1);
  const rects: ReservedRect[] = [];
  for (const footprint of footprints) {
    if (
      footprint.x >= range.x1 ||
      footprint.x + footprint.size <= range.x0 ||
      footprint.y >= range.y1 ||
      footprint.y + footprint.size <= range.y0
    )
      continue;
    rects.push({ ...footprintDeviceRect(camera, viewport, dpr, footprint), footprint });
  }
  if (rects.length === 0) return;
  const tilePx = tileScreenSize(camera.zoom);
  const period = hatchPeriodPx(tilePx, dpr);
  const frame = Math.max(1, Math.round(Math.min(4, tilePx * 0.06) * dpr));

  ctx.save();
  ctx.fillStyle = RESERVED_WASH;
  ctx.beginPath();
  for (const rect of rects) ctx.rect(rect.x, rect.y, rect.width, rect.height);
  ctx.fill();
  for (const reason of ['held', 'review'] as const) {
    const ofReason = rects.filter((rect) => rect.footprint.reason === reason);
    if (ofReason.length === 0) continue;
    const pattern = ctx.createPattern(hatch.tile(reason, period), 'repeat');
    if (pattern) {
      ctx.fillStyle = pattern;
      ctx.globalAlpha = 0.8;
      ctx.beginPath();
      for (const rect of ofReason) ctx.rect(rect.x, rect.y, rect.width, rect.height);
      ctx.fill();
      ctx.globalAlpha = 1;
    }
    // The frame as a ring (outer box, inner box the other way round), in one fill.
    ctx.fillStyle = RESERVED_STRIPE[reason];
    ctx.beginPath();
    for (const rect of ofReason) {
      ctx.rect(rect.x, rect.y, rect.width, rect.height);
      if (rect.width > frame * 2 && rect.height > frame * 2) {
        ctx.moveTo(rect.x + frame, rect.y + frame);
        ctx.lineTo(rect.x + frame, rect.y + rect.height - frame);
        ctx.lineTo(rect.x + rect.width - frame, rect.y + rect.height - frame);
        ctx.lineTo(rect.x + rect.width - frame, rect.y + frame);
        ctx.closePath();
      }
    }
    ctx.fill();
  }
  strokeFootprintOutlines(ctx, rects, dpr);
  ctx.restore();
}

/**
 * Far-zoom markers baked into the overview bitmap (tilePx per tile): the footprint washed dark with
 * rising diagonals of its reason's colour in quarter-tile cells, the same hatch at that size.
 */
export function paintReservedMarkers(ctx: CanvasRenderingContext2D, footprints: readonly ReservedFootprint[], tilePx: number): void {
  if (footprints.length === 0) return;
  ctx.save();
  ctx.fillStyle = RESERVED_WASH;
  ctx.beginPath();
  for (const f of footprints) ctx.rect(f.x * tilePx, f.y * tilePx, f.size * tilePx, f.size * tilePx);
  ctx.fill();
  const cell = Math.max(1, Math.round(tilePx / 4));
  for (const reason of ['held', 'review'] as const) {
    ctx.fillStyle = RESERVED_STRIPE[reason];
    ctx.beginPath();
    for (const f of footprints) {
      if (f.reason !== reason) continue;
      const cells = Math.ceil((f.size * tilePx) / cell);
      for (let cy = 0; cy < cells; cy++) {
        for (let cx = 0; cx < cells; cx++) if ((cx + cy) % 4 < 2) ctx.rect(f.x * tilePx + cx * cell, f.y * tilePx + cy * cell, cell, cell);
      }
    }
    ctx.fill();
  }
  ctx.restore();
}
