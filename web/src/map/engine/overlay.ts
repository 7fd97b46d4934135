/**
 * What changes without the world changing — the selected-tile pin (and its bounce), the hovered
 * region label, the keyboard reticle — drawn on its own transparent canvas above the map, so a hover
 * or a bounce repaints a few small rectangles and never the world underneath.
 */
import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import type { Region } from '@pixel-atlas/contracts/regions';
import { screenToTile, worldToScreen, type Camera, type Viewport } from './camera.ts';
import { tileScreenSize } from './level-of-detail.ts';
import { drawMapPin, PIN_BOUNCE_MS, pinBounceOffset, pinRadius } from './map-pin.ts';
import { drawRegionLabels, type PlacedLabel } from './region-labels.ts';

export interface OverlayState {
  camera: Camera;
  viewport: Viewport;
  dpr: number;
  selected: { x: number; y: number; colour: string; since: number } | null;
  hoveredRegion: Region | null;
  placedLabels: readonly PlacedLabel[];
  keyboardFocus: boolean;
  time: number;
  reducedMotion: boolean;
}

/** CSS pixels. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function overlayHasContent(state: Pick<OverlayState, 'selected' | 'hoveredRegion' | 'keyboardFocus'>): boolean {
  return state.selected !== null || state.hoveredRegion !== null || state.keyboardFocus;
}

/**
 * Paints the overlay items in CSS pixels (the context is scaled by dpr here) and returns the boxes
 * painted, so the next frame clears only those, and whether the pin is still bouncing.
 */
export function paintOverlay(ctx: CanvasRenderingContext2D, state: OverlayState): { painted: Box[]; animating: boolean } {
  const painted: Box[] = [];
  let animating = false;
  const { camera, viewport } = state;
  ctx.setTransform(state.dpr, 0, 0, state.dpr, 0, 0);
  if (state.selected) {
    const tip = worldToScreen(camera, viewport, (state.selected.x + 0.5) * TILE_SIZE_PX, (state.selected.y + 0.75) * TILE_SIZE_PX);
    const radius = pinRadius(tileScreenSize(camera.zoom));
    const elapsed = state.time - state.selected.since;
    const lift = pinBounceOffset(elapsed, radius, state.reducedMotion);
    drawMapPin(ctx, tip.x, tip.y, radius, state.selected.colour, lift);
    if (elapsed < PIN_BOUNCE_MS && !state.reducedMotion) animating = true;
    // Head above the tip (3 radii with the outline), bounce lift, shadow below.
    painted.push({ x: tip.x - radius * 1.5, y: tip.y + lift - radius * 3.5, width: radius * 3, height: radius * 3.5 - lift + radius });
  }
  const hovered = state.hoveredRegion ? state.placedLabels.find((label) => label.region.value === state.hoveredRegion?.value) : undefined;
  if (hovered) {
    drawRegionLabels(ctx, [hovered], hovered.region);
    painted.push({ x: hovered.x, y: hovered.y, width: hovered.width + 2, height: hovered.height + 2 });
  }
  if (state.keyboardFocus) painted.push(...drawKeyboardReticle(ctx, camera, viewport));
  return { painted, animating };
}

/**
 * The overlay canvas: repainted when its items change or move, cleared box by box (a full clear of an
 * empty overlay would be a full-screen write for nothing).
 */
export interface OverlayLayer {
  /** Repaints; returns whether the pin still bounces (the caller asks for another frame). */
  draw(state: OverlayState): boolean;
  /** The overlay draws nothing and has nothing left to clear. */
  isClear(): boolean;
}

export function createOverlayLayer(canvas: HTMLCanvasElement): OverlayLayer {
  const ctx = canvas.getContext('2d');
  let previous: Box[] = [];
  let previousDpr = 1;
  return {
    draw(state) {
      if (!ctx) return false;
      const width = Math.max(1, Math.round(state.viewport.width * state.dpr));
      const height = Math.max(1, Math.round(state.viewport.height * state.dpr));
      if (canvas.width !== width || canvas.height !== height) {
        // Resizing clears the backing store.
        canvas.width = width;
        canvas.height = height;
        previous = [];
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      for (const box of previous) {
        const pad = 4;
        ctx.clearRect(
          Math.floor((box.x - pad) * previousDpr),
          Math.floor((box.y - pad) * previousDpr),
          Math.ceil((box.width + pad * 2) * previousDpr),
          Math.ceil((box.height + pad * 2) * previousDpr),
        );
      }
      const { painted, animating } = paintOverlay(ctx, state);
      previous = painted;
      previousDpr = state.dpr;
      return animating;
    },
    isClear: () => previous.length === 0,
  };
}

/** Shown while the canvas has keyboard focus: Enter acts on the tile under the cross. */
function drawKeyboardReticle(ctx: CanvasRenderingContext2D, camera: Camera, viewport: Viewport): Box[] {
  const painted: Box[] = [];
  const tile = screenToTile(camera, viewport, viewport.width / 2, viewport.height / 2);
  ctx.save();
  if (tile) {
    const topLeft = worldToScreen(camera, viewport, tile.x * TILE_SIZE_PX, tile.y * TILE_SIZE_PX);
    const size = tileScreenSize(camera.zoom);
    ctx.strokeStyle = '#7dd3fc';
    ctx.lineWidth = 2;
    ctx.strokeRect(topLeft.x, topLeft.y, size, size);
    painted.push({ x: topLeft.x - 1, y: topLeft.y - 1, width: size + 2, height: size + 2 });
  }
  const cx = viewport.width / 2;
  const cy = viewport.height / 2;
  ctx.strokeStyle = '#120f1f';
  ctx.lineWidth = 4;
  ctx.beginPath();
  ctx.moveTo(cx - 10, cy);
  ctx.lineTo(cx + 10, cy);
  ctx.moveTo(cx, cy - 10);
  ctx.lineTo(cx, cy + 10);
  ctx.stroke();
  ctx.strokeStyle = '#7dd3fc';
  ctx.lineWidth = 2;
  ctx.stroke();
  ctx.restore();
  painted.push({ x: cx - 12, y: cy - 12, width: 24, height: 24 });
  return painted;
}
