import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import { screenToWorld, type Camera, type Viewport } from './camera.ts';
import type { PlacedLabel } from './region-labels.ts';
import { LABEL_SHADOW_PX } from './static-layers.ts';

/** Gap between a label moved off plots and where it would have been. */
const STEP_GAP_PX = 4;
/**
 * Where a label may go instead of its region's focus, in label heights (y) and widths (x), nearest first:
 * a little above or below, then a half step to either side. Far from the focus it would name the wrong land.
 */
const OFFSETS: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [0, -1],
  [0, 1],
  [0, -2],
  [0, 2],
  [-0.5, 0],
  [0.5, 0],
  [-0.5, -1],
  [0.5, -1],
  [-0.5, 1],
  [0.5, 1],
];

const overlap = (a: PlacedLabel, b: PlacedLabel) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Labels never cover plots (or reserved land): each label keeps its place when the land under its plate
 * (and hard shadow) is free, else moves to the nearest free place around it, else is left out for this
 * view. Plots are what people paid to show; a region name can sit beside them. Cheap enough for every
 * frame: a few hundred tile lookups for thirteen labels.
 */
export function keepLabelsOffPlots(
  labels: readonly PlacedLabel[],
  camera: Camera,
  viewport: Viewport,
  isTaken: (tileX: number, tileY: number) => boolean,
): PlacedLabel[] {
  const covers = (label: PlacedLabel) => {
    const topLeft = screenToWorld(camera, viewport, label.x, label.y);
    const bottomRight = screenToWorld(camera, viewport, label.x + label.width + LABEL_SHADOW_PX, label.y + label.height + LABEL_SHADOW_PX);
    const x0 = Math.floor(topLeft.x / TILE_SIZE_PX);
    const y0 = Math.floor(topLeft.y / TILE_SIZE_PX);
    // The edge pixel's tile, not the next one: a plate ending exactly on a tile boundary does not touch it.
    const x1 = Math.ceil(bottomRight.x / TILE_SIZE_PX) - 1;
    const y1 = Math.ceil(bottomRight.y / TILE_SIZE_PX) - 1;
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (isTaken(x, y)) return true;
    return false;
  };
  const placed: PlacedLabel[] = [];
  for (const label of labels) {
    for (const [fx, fy] of OFFSETS) {
      const moved = { ...label, x: label.x + Math.round(fx * label.width), y: label.y + Math.round(fy * (label.height + STEP_GAP_PX)) };
      if (placed.some((other) => overlap(other, moved)) || covers(moved)) continue;
      placed.push(moved);
      break;
    }
  }
  return placed;
}
