import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import type { Region } from '@pixel-atlas/contracts/regions';
import { worldToScreen, type Camera, type Viewport } from './camera.ts';
import { LABEL_MIN_TILE_PX, tileScreenSize } from './level-of-detail.ts';

export interface PlacedLabel {
  region: Region;
  /** CSS pixels, relative to the canvas. */
  x: number;
  y: number;
  width: number;
  height: number;
  fontPx: number;
}

export const LABEL_FONT_FAMILY = '"Press Start 2P", ui-monospace, monospace';
const PADDING_X = 6;
const PADDING_Y = 5;

export function labelFontPx(zoom: number): number {
  const tilePx = tileScreenSize(zoom);
  return tilePx < 12 ? 8 : tilePx < 40 ? 10 : 12;
}

/**
 * Where each region's label plate goes on screen: centred on the region's focus tile, skipped when
 * off-screen or when it would overlap a label already placed (far out, thirteen plates would pile up).
 */
export function layoutRegionLabels(
  regions: readonly Region[],
  camera: Camera,
  viewport: Viewport,
  measureText: (text: string, fontPx: number) => number,
): PlacedLabel[] {
  if (tileScreenSize(camera.zoom) < LABEL_MIN_TILE_PX) return [];
  const fontPx = labelFontPx(camera.zoom);
  const placed: PlacedLabel[] = [];
  for (const region of regions) {
    const anchor = worldToScreen(camera, viewport, (region.focus.x + 0.5) * TILE_SIZE_PX, (region.focus.y + 0.5) * TILE_SIZE_PX);
    const width = Math.ceil(measureText(region.name, fontPx)) + PADDING_X * 2;
    const height = fontPx + PADDING_Y * 2;
    const label = { region, x: Math.round(anchor.x - width / 2), y: Math.round(anchor.y - height / 2), width, height, fontPx };
    if (label.x + width < 0 || label.y + height < 0 || label.x > viewport.width || label.y > viewport.height) continue;
    if (placed.some((other) => overlaps(other, label))) continue;
    placed.push(label);
  }
  return placed;
}

function overlaps(a: PlacedLabel, b: PlacedLabel): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

export function labelAt(placed: readonly PlacedLabel[], screenX: number, screenY: number): PlacedLabel | null {
  // The last placed label is drawn on top, so it is the one under the pointer.
  const hit = placed.findLast(
    (label) => screenX >= label.x && screenX < label.x + label.width && screenY >= label.y && screenY < label.y + label.height,
  );
  return hit ?? null;
}

/** Dark plate, 2 px border, hard shadow: the same chunky look as the UI chrome. Context is in CSS px. */
export function drawRegionLabels(ctx: CanvasRenderingContext2D, placed: readonly PlacedLabel[], hovered: Region | null): void {
  if (placed.length === 0) return;
  ctx.save();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const label of placed) {
    const isHovered = hovered?.value === label.region.value;
    ctx.fillStyle = '#000';
    ctx.fillRect(label.x + 2, label.y + 2, label.width, label.height);
    ctx.fillStyle = isHovered ? '#2a2342' : 'rgba(18, 15, 31, 0.88)';
    ctx.fillRect(label.x, label.y, label.width, label.height);
    ctx.strokeStyle = isHovered ? '#f2c14e' : '#8f80c9';
    ctx.lineWidth = 2;
    ctx.strokeRect(label.x + 1, label.y + 1, label.width - 2, label.height - 2);
    ctx.font = `${label.fontPx}px ${LABEL_FONT_FAMILY}`;
    ctx.fillStyle = isHovered ? '#f2c14e' : '#f4efe1';
    ctx.fillText(label.region.name, label.x + label.width / 2, label.y + label.height / 2 + 1);
  }
  ctx.restore();
}
