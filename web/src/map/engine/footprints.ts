import { GRID_SIZE, TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import { worldToScreen, type Camera, type Viewport } from './camera.ts';

/** A square of whole tiles, from its top-left corner: a plot's or a reserved spot's. */
export interface Footprint {
  x: number;
  y: number;
  size: number;
}

/** A box on the canvas, in device pixels. */
export interface DeviceRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Tile → item lookup: every tile of an item's footprint points at it, so hit testing is one array read however many
 * items exist. Tiles off the grid, and fractional ones, find nothing.
 */
export function createFootprintLookup<T>(
  items: readonly T[],
  footprintOf: (item: T) => Footprint,
  gridSize = GRID_SIZE,
): (tileX: number, tileY: number) => T | null {
  const owner = new Int32Array(gridSize * gridSize).fill(-1);
  items.forEach((item, itemNumber) => {
    const { x: left, y: top, size } = footprintOf(item);
    for (let y = Math.max(0, top); y < Math.min(gridSize, top + size); y++) {
      for (let x = Math.max(0, left); x < Math.min(gridSize, left + size); x++) owner[y * gridSize + x] = itemNumber;
    }
  });
  return (tileX, tileY) => {
    if (!Number.isInteger(tileX) || !Number.isInteger(tileY)) return null;
    if (tileX < 0 || tileY < 0 || tileX >= gridSize || tileY >= gridSize) return null;
    const itemNumber = owner[tileY * gridSize + tileX]!; // inside the grid, checked above; -1 (nothing there) finds no entry
    return items[itemNumber] ?? null;
  };
}

/** Where a footprint lies on the canvas, in device pixels snapped to whole ones. */
export function footprintDeviceRect(camera: Camera, viewport: Viewport, dpr: number, { x, y, size }: Footprint): DeviceRect {
  const topLeft = worldToScreen(camera, viewport, x * TILE_SIZE_PX, y * TILE_SIZE_PX);
  const bottomRight = worldToScreen(camera, viewport, (x + size) * TILE_SIZE_PX, (y + size) * TILE_SIZE_PX);
  const left = Math.round(topLeft.x * dpr);
  const top = Math.round(topLeft.y * dpr);
  return { x: left, y: top, width: Math.round(bottomRight.x * dpr) - left, height: Math.round(bottomRight.y * dpr) - top };
}

/** The dark outline every footprint on the map wears, one stroke for all of them. */
export function strokeFootprintOutlines(ctx: CanvasRenderingContext2D, rects: readonly DeviceRect[], dpr: number): void {
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.85)';
  ctx.lineWidth = Math.max(1, dpr);
  ctx.beginPath();
  for (const rect of rects) ctx.rect(rect.x - 0.5, rect.y - 0.5, rect.width + 1, rect.height + 1);
  ctx.stroke();
}
