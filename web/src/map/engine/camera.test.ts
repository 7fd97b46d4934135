import { GRID_SIZE, TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import { describe, expect, it } from 'vitest';
import {
  cameraOnTile,
  cameraShowingAt,
  clampCamera,
  clearFocusPoint,
  largestClearRect,
  detectTouchDevice,
  panBy,
  pinchStep,
  screenToTile,
  screenToWorld,
  visibleTileRange,
  worldToScreen,
  WORLD_SIZE_PX,
  zoomAbout,
  zoomLimitsFor,
  type Camera,
} from './camera.ts';

const viewport = { width: 800, height: 600 };
const desktop = zoomLimitsFor(false);
const touch = zoomLimitsFor(true);
const camera: Camera = { centerX: 2000, centerY: 1500, zoom: 0.8 };

describe('zoom limits', () => {
  it('follows the spec: 0.3/0.05/3 on touch, 0.45/0.05/8 on desktop', () => {
    expect(touch).toEqual({ initial: 0.3, min: 0.05, max: 3 });
    expect(desktop).toEqual({ initial: 0.45, min: 0.05, max: 8 });
  });

  it('counts a coarse pointer or a viewport under 768 px as touch', () => {
    const media = (coarse: boolean) => () => ({ matches: coarse }) as MediaQueryList;
    expect(detectTouchDevice({ innerWidth: 1280, matchMedia: media(true) })).toBe(true);
    expect(detectTouchDevice({ innerWidth: 767, matchMedia: media(false) })).toBe(true);
    expect(detectTouchDevice({ innerWidth: 768, matchMedia: media(false) })).toBe(false);
  });
});

describe('camera math', () => {
  it('converts between world and screen coordinates both ways', () => {
    const screen = worldToScreen(camera, viewport, 1234, 987);
    const back = screenToWorld(camera, viewport, screen.x, screen.y);
    expect(back.x).toBeCloseTo(1234);
    expect(back.y).toBeCloseTo(987);
    expect(worldToScreen(camera, viewport, camera.centerX, camera.centerY)).toEqual({ x: 400, y: 300 });
  });

  it.each([
    [1.5, 100, 80],
    [0.5, 700, 550],
    [3, 400, 300],
  ])('zooming by %s about (%s, %s) keeps the world point under the cursor fixed', (factor, x, y) => {
    const before = screenToWorld(camera, viewport, x, y);
    const zoomed = zoomAbout(camera, viewport, desktop, factor, x, y);
    expect(zoomed.zoom).toBeCloseTo(camera.zoom * factor);
    const after = screenToWorld(zoomed, viewport, x, y);
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
  });

  it('clamps zoom to the device limits', () => {
    expect(zoomAbout(camera, viewport, desktop, 100, 400, 300).zoom).toBe(8);
    expect(zoomAbout(camera, viewport, touch, 100, 400, 300).zoom).toBe(3);
    expect(zoomAbout(camera, viewport, desktop, 0.0001, 400, 300).zoom).toBe(0.05);
  });

  it('keeps the view centre over the world so the map cannot be lost off-screen', () => {
    const far = panBy(camera, desktop, -1e6, 1e6);
    expect(far.centerX).toBe(WORLD_SIZE_PX);
    expect(far.centerY).toBe(0);
    expect(clampCamera({ centerX: -5, centerY: 99999, zoom: 1 }, desktop)).toEqual({ centerX: 0, centerY: WORLD_SIZE_PX, zoom: 1 });
  });

  it('drags the world along with the pointer', () => {
    const moved = panBy(camera, desktop, 80, -40);
    expect(moved.centerX).toBeCloseTo(camera.centerX - 80 / camera.zoom);
    expect(moved.centerY).toBeCloseTo(camera.centerY + 40 / camera.zoom);
  });

  it('pinches: spreading fingers zooms about the midpoint, moving them pans', () => {
    const midpoint = { x: 300, y: 200 };
    const anchor = screenToWorld(camera, viewport, midpoint.x, midpoint.y);
    const next = pinchStep(camera, viewport, touch, { midpoint, distance: 100 }, { midpoint: { x: 320, y: 230 }, distance: 150 });
    expect(next.zoom).toBeCloseTo(camera.zoom * 1.5);
    const underFingers = screenToWorld(next, viewport, 320, 230);
    expect(underFingers.x).toBeCloseTo(anchor.x);
    expect(underFingers.y).toBeCloseTo(anchor.y);
  });

  it('centres a tile for flyTo targets', () => {
    expect(cameraOnTile(10, 20, 1.2, desktop)).toEqual({ centerX: 10.5 * TILE_SIZE_PX, centerY: 20.5 * TILE_SIZE_PX, zoom: 1.2 });
  });
});

describe('culling and hit testing', () => {
  it('lists only the tiles in view', () => {
    // 10x10 tiles of 48 px at zoom 1, centred on tile (45, 45)'s top-left corner.
    const view = { centerX: 45 * TILE_SIZE_PX, centerY: 45 * TILE_SIZE_PX, zoom: 1 };
    expect(visibleTileRange(view, { width: 480, height: 480 })).toEqual({ x0: 40, y0: 40, x1: 50, y1: 50 });
    expect(visibleTileRange(view, { width: 480, height: 480 }, 2)).toEqual({ x0: 38, y0: 38, x1: 52, y1: 52 });
  });

  it('clips the visible range to the grid', () => {
    const corner = { centerX: 0, centerY: 0, zoom: 1 };
    expect(visibleTileRange(corner, { width: 480, height: 480 })).toEqual({ x0: 0, y0: 0, x1: 5, y1: 5 });
    const whole = { centerX: WORLD_SIZE_PX / 2, centerY: WORLD_SIZE_PX / 2, zoom: 0.05 };
    expect(visibleTileRange(whole, viewport)).toEqual({ x0: 0, y0: 0, x1: GRID_SIZE, y1: GRID_SIZE });
  });

  it('finds the tile under a screen point, and nothing outside the grid', () => {
    const view = { centerX: 45 * TILE_SIZE_PX, centerY: 45 * TILE_SIZE_PX, zoom: 1 };
    expect(screenToTile(view, { width: 480, height: 480 }, 240, 240)).toEqual({ x: 45, y: 45 });
    expect(screenToTile(view, { width: 480, height: 480 }, 239, 200)).toEqual({ x: 44, y: 44 });
    const corner = { centerX: 0, centerY: 0, zoom: 1 };
    expect(screenToTile(corner, { width: 480, height: 480 }, 10, 10)).toBeNull();
  });
});

describe('clear space beside panels', () => {
  const phone = { width: 390, height: 780 };
  const regionsOpen = { x: 12, y: 12, width: 190, height: 520 };
  const findPlots = { x: 240, y: 12, width: 138, height: 44 };
  const controls = { x: 330, y: 560, width: 48, height: 208 };

  it('finds the largest rectangle no panel covers', () => {
    expect(largestClearRect(phone, [])).toEqual({ x: 0, y: 0, ...phone });
    // The column right of the open regions menu (188×504) beats the band under it (330×248).
    const clear = largestClearRect(phone, [regionsOpen, findPlots, controls]);
    expect(clear).toEqual({ x: 202, y: 56, width: 188, height: 504 });
    for (const panel of [regionsOpen, findPlots, controls]) {
      expect(
        clear.x >= panel.x + panel.width ||
          panel.x >= clear.x + clear.width ||
          clear.y >= panel.y + panel.height ||
          panel.y >= clear.y + clear.height,
      ).toBe(true);
    }
  });

  it('ignores the parts of panels outside the viewport', () => {
    expect(largestClearRect({ width: 100, height: 100 }, [{ x: -50, y: -50, width: 60, height: 200 }])).toEqual({
      x: 10,
      y: 0,
      width: 90,
      height: 100,
    });
  });

  it('keeps the preferred point when the box there is clear, else centres it in the clear space', () => {
    expect(clearFocusPoint(phone, [findPlots, controls], 60, 60)).toEqual({ x: 195, y: 390 });
    const moved = clearFocusPoint(phone, [regionsOpen, findPlots, controls], 60, 60);
    expect(moved).toEqual({ x: 296, y: 308 });
    // A bottom sheet over the lower 70 %: the tile goes in the band above it.
    expect(clearFocusPoint(phone, [{ x: 0, y: 234, width: 390, height: 546 }], 40, 40, { x: 200, y: 500 })).toEqual({ x: 195, y: 117 });
  });

  it('puts a world point at a chosen screen point', () => {
    const camera = cameraShowingAt(45 * TILE_SIZE_PX, 45 * TILE_SIZE_PX, 1, { x: 100, y: 500 }, viewport, desktop);
    expect(worldToScreen(camera, viewport, 45 * TILE_SIZE_PX, 45 * TILE_SIZE_PX)).toEqual({ x: 100, y: 500 });
    expect(cameraShowingAt(0, 0, 99, { x: 400, y: 300 }, viewport, desktop).zoom).toBe(desktop.max);
  });
});
