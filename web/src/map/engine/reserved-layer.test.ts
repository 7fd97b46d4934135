import type { MapTile } from '@pixel-atlas/contracts/map';
import type { Region } from '@pixel-atlas/contracts/regions';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { cameraOnTile, zoomLimitsFor } from './camera.ts';
import type { MapEngineOptions, ReservedFootprint } from './engine.ts';
import {
  RESERVED_STRIPE,
  createHatchSource,
  createReservedIndex,
  drawReservedFootprints,
  hatchPeriodPx,
  paintHatchTile,
  paintReservedMarkers,
} from './reserved-layer.ts';
import { recordingContext, recordingSurfaces } from './test-doubles.ts';
import { mountEngine } from './test-engine.ts';

const held: ReservedFootprint = { x: 20, y: 20, size: 2, reason: 'held' };
const review: ReservedFootprint = { x: 26, y: 22, size: 1, reason: 'review' };

describe('reserved footprints: index and hatch', () => {
  it('finds the footprint under every tile it covers, and nothing beside it', () => {
    const index = createReservedIndex([held, review]);
    expect(index.at(20, 20)).toBe(held);
    expect(index.at(21, 21)).toBe(held);
    expect(index.at(22, 20)).toBeNull();
    expect(index.at(26, 22)).toBe(review);
    expect(index.at(-1, 0)).toBeNull();
    expect(index.at(1.5, 2)).toBeNull();
  });

  it('hatch periods are powers of two (seamless across 512-px layer tiles) that grow with the zoom', () => {
    for (const tilePx of [3, 10, 21.6, 48, 72, 384]) {
      const period = hatchPeriodPx(tilePx, 1);
      expect(512 % period).toBe(0);
      expect(period).toBeGreaterThanOrEqual(8);
    }
    expect(hatchPeriodPx(72, 1)).toBeGreaterThan(hatchPeriodPx(21.6, 1));
    expect(hatchPeriodPx(48, 2)).toBeGreaterThan(hatchPeriodPx(48, 1));
  });

  it('paints the hatch tile as stair-stepped diagonals of whole cells, in the reason colour', () => {
    const ctx = recordingContext();
    paintHatchTile(ctx, 'held', 16);
    const cells = ctx.calls.filter((call) => call.name === 'fillRect').map((call) => call.args as [number, number, number, number]);
    expect(ctx.fillStyle).toBe(RESERVED_STRIPE.held);
    expect(cells).toHaveLength(8 * 3);
    for (const [x, y, w, h] of cells) {
      expect([w, h]).toEqual([2, 2]);
      expect((x / 2 + y / 2) % 8 < 3).toBe(true);
    }
  });

  it('draws only the footprints in view, with one pattern fill per reason, at device pixels', () => {
    const ctx = recordingContext();
    const surfaces = recordingSurfaces();
    const hatch = createHatchSource(surfaces.factory);
    const limits = zoomLimitsFor(false);
    // Tile (20, 20) at the centre of an 800×600 view, 48 px per tile at zoom 1.
    const camera = cameraOnTile(20, 20, 1, limits);
    const far: ReservedFootprint = { x: 80, y: 80, size: 1, reason: 'held' };
    drawReservedFootprints(ctx, [held, review, far], camera, { width: 800, height: 600 }, 2, hatch);
    const patterns = ctx.calls.filter((call) => call.name === 'createPattern');
    expect(patterns).toHaveLength(2);
    expect(surfaces.created.map((s) => s.width)).toEqual([hatchPeriodPx(48, 2), hatchPeriodPx(48, 2)]);
    const rects = ctx.calls.filter((call) => call.name === 'rect').map((call) => call.args as number[]);
    // The held 2×2 footprint: its top-left tile is centred, so it starts half a tile left and up of the centre.
    expect(rects).toContainEqual([(400 - 24) * 2, (300 - 24) * 2, 96 * 2, 96 * 2]);
    const farX = (400 - 24 + 60 * 48) * 2;
    expect(rects.some(([x]) => x === farX)).toBe(false);
    // Nothing at all when there is nothing reserved.
    const empty = recordingContext();
    drawReservedFootprints(empty, [], camera, { width: 800, height: 600 }, 1, hatch);
    expect(empty.calls).toEqual([]);
  });

  it('bakes a hatch into the far-zoom overview', () => {
    const ctx = recordingContext();
    paintReservedMarkers(ctx, [held], 8);
    const cells = ctx.calls.filter((call) => call.name === 'rect').map((call) => call.args as number[]);
    // Wash (one rect) plus half of the 8×8 cells of 2 px over a 16-px footprint.
    expect(cells[0]).toEqual([160, 160, 16, 16]);
    expect(cells.length - 1).toBe(32);
  });
});

/** 90x90 world: land in [10, 80)². */
const tiles: MapTile[] = Array.from({ length: 8100 }, (_, index) => {
  const x = index % 90;
  const y = Math.floor(index / 90);
  const land = x >= 10 && x < 80 && y >= 10 && y < 80;
  return { x, y, is_land: land, zone_value: land ? 1 : 0, zone_name: land ? 'Region 1' : 'Water' };
});
const regions: Region[] = [
  { value: 1, name: 'West Realm', focus: { x: 70, y: 70 }, audience: 'a', description: 'd', notableLocations: ['1', '2', '3', '4'] },
];

function setup(options: Partial<MapEngineOptions> = {}) {
  const mounted = mountEngine({ prefersReducedMotion: () => true, ...options });
  mounted.engine.setLayout({ tiles, regions });
  return mounted;
}

describe('map engine: reserved land', () => {
  it('a click on reserved land says so, with the reason; elsewhere nothing is reserved', () => {
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    const onTileClick = vi.fn();
    const { engine, click } = setup({ onTileClick });
    engine.setReservedFootprints([held, review]);
    engine.flyTo(21, 21, 1);
    click(400, 300);
    expect(onTileClick).toHaveBeenLastCalledWith(expect.objectContaining({ x: 21, y: 21, isLand: true, plot: null, reserved: held }));
    engine.flyTo(26, 22, 1);
    click(400, 300);
    expect(onTileClick.mock.lastCall?.[0].reserved).toBe(review);
    engine.flyTo(40, 40, 1);
    click(400, 300);
    expect(onTileClick.mock.lastCall?.[0].reserved ?? null).toBeNull();
  });

  it('hovering reserved land reports it (and its end), with a not-allowed cursor', () => {
    const onReservedHover = vi.fn();
    const { engine, canvas, pointer } = setup({ onReservedHover });
    engine.setReservedFootprints([held]);
    engine.flyTo(20, 20, 1);
    pointer('pointermove', 400, 300);
    expect(onReservedHover).toHaveBeenLastCalledWith(held, { x: 400, y: 300 });
    expect(canvas.style.cursor).toBe('not-allowed');
    pointer('pointermove', 400 + 48 * 3, 300);
    expect(onReservedHover).toHaveBeenLastCalledWith(null, expect.anything());
    expect(canvas.style.cursor).toBe('pointer');
  });

  it('hatches reserved land into the cached world tiles; the same list again rebuilds nothing', () => {
    const { engine, frames, surfaces } = setup();
    engine.flyTo(20, 20, 1);
    frames.step();
    const patternsDrawn = () => surfaces.created.flatMap((s) => s.context.calls).filter((call) => call.name === 'createPattern').length;
    expect(patternsDrawn()).toBe(0);
    engine.setReservedFootprints([held]);
    expect(frames.pending()).toBe(1);
    frames.step();
    expect(patternsDrawn()).toBeGreaterThan(0);
    const surfacesBefore = surfaces.created.length;
    engine.setReservedFootprints([{ ...held }]);
    expect(frames.pending()).toBe(0);
    expect(surfaces.created.length).toBe(surfacesBefore);
    engine.setReservedFootprints([]);
    expect(frames.pending()).toBe(1);
  });
});
