import { GRID_SIZE, TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';

/** World coordinates are CSS pixels at zoom 1: tile (x, y) covers [x*48, (x+1)*48). */
export const WORLD_SIZE_PX = GRID_SIZE * TILE_SIZE_PX;

export interface Camera {
  /** World point shown at the centre of the viewport. */
  centerX: number;
  centerY: number;
  zoom: number;
}

export interface Viewport {
  /** CSS pixels. */
  width: number;
  height: number;
}

export interface ZoomLimits {
  initial: number;
  min: number;
  max: number;
}

export interface ScreenPoint {
  x: number;
  y: number;
}

export interface TileRange {
  /** Inclusive start, exclusive end, clipped to the grid. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Spec section 9: touch starts further out and cannot zoom in as far as a desktop. */
export function zoomLimitsFor(isTouch: boolean): ZoomLimits {
  return isTouch ? { initial: 0.3, min: 0.05, max: 3 } : { initial: 0.45, min: 0.05, max: 8 };
}

/** Spec section 2: a coarse pointer or a viewport narrower than 768 px counts as touch. */
export function detectTouchDevice(win: Pick<Window, 'innerWidth' | 'matchMedia'> = window): boolean {
  const coarse = typeof win.matchMedia === 'function' && win.matchMedia('(pointer: coarse)').matches;
  return coarse || win.innerWidth < 768;
}

export function initialCamera(limits: ZoomLimits): Camera {
  return { centerX: WORLD_SIZE_PX / 2, centerY: WORLD_SIZE_PX / 2, zoom: limits.initial };
}

export function worldToScreen(camera: Camera, viewport: Viewport, worldX: number, worldY: number): ScreenPoint {
  return {
    x: (worldX - camera.centerX) * camera.zoom + viewport.width / 2,
    y: (worldY - camera.centerY) * camera.zoom + viewport.height / 2,
  };
}

export function screenToWorld(camera: Camera, viewport: Viewport, screenX: number, screenY: number): ScreenPoint {
  return {
    x: (screenX - viewport.width / 2) / camera.zoom + camera.centerX,
    y: (screenY - viewport.height / 2) / camera.zoom + camera.centerY,
  };
}

/** The tile under a screen point, or null outside the grid. */
export function screenToTile(camera: Camera, viewport: Viewport, screenX: number, screenY: number): ScreenPoint | null {
  const world = screenToWorld(camera, viewport, screenX, screenY);
  const x = Math.floor(world.x / TILE_SIZE_PX);
  const y = Math.floor(world.y / TILE_SIZE_PX);
  return x >= 0 && y >= 0 && x < GRID_SIZE && y < GRID_SIZE ? { x, y } : null;
}

/**
 * Keeps the zoom inside its limits and the view centre over the world, so however far someone drags
 * or zooms out, part of the map always stays on screen and one drag brings it back.
 */
export function clampCamera(camera: Camera, limits: ZoomLimits): Camera {
  return {
    zoom: Math.min(limits.max, Math.max(limits.min, camera.zoom)),
    centerX: Math.min(WORLD_SIZE_PX, Math.max(0, camera.centerX)),
    centerY: Math.min(WORLD_SIZE_PX, Math.max(0, camera.centerY)),
  };
}

/** Moves the view by a screen-space drag: the world follows the pointer. */
export function panBy(camera: Camera, limits: ZoomLimits, dxScreen: number, dyScreen: number): Camera {
  return clampCamera(
    { ...camera, centerX: camera.centerX - dxScreen / camera.zoom, centerY: camera.centerY - dyScreen / camera.zoom },
    limits,
  );
}

/** Zooms by `factor` while the world point under (screenX, screenY) stays under it. */
export function zoomAbout(
  camera: Camera,
  viewport: Viewport,
  limits: ZoomLimits,
  factor: number,
  screenX: number,
  screenY: number,
): Camera {
  const zoom = Math.min(limits.max, Math.max(limits.min, camera.zoom * factor));
  const anchor = screenToWorld(camera, viewport, screenX, screenY);
  return clampCamera(
    {
      zoom,
      centerX: anchor.x - (screenX - viewport.width / 2) / zoom,
      centerY: anchor.y - (screenY - viewport.height / 2) / zoom,
    },
    limits,
  );
}

/**
 * Two-finger gesture step: the world point under the previous midpoint ends up under the new
 * midpoint, scaled by how much the fingers spread — pinch and two-finger drag in one move.
 */
export function pinchStep(
  camera: Camera,
  viewport: Viewport,
  limits: ZoomLimits,
  previous: { midpoint: ScreenPoint; distance: number },
  next: { midpoint: ScreenPoint; distance: number },
): Camera {
  const factor = previous.distance > 0 ? next.distance / previous.distance : 1;
  const zoomed = zoomAbout(camera, viewport, limits, factor, previous.midpoint.x, previous.midpoint.y);
  return panBy(zoomed, limits, next.midpoint.x - previous.midpoint.x, next.midpoint.y - previous.midpoint.y);
}

/** Camera that centres a tile at a given zoom (used by flyTo and region navigation). */
export function cameraOnTile(tileX: number, tileY: number, zoom: number, limits: ZoomLimits): Camera {
  return clampCamera({ centerX: (tileX + 0.5) * TILE_SIZE_PX, centerY: (tileY + 0.5) * TILE_SIZE_PX, zoom }, limits);
}

/** Tiles that intersect the viewport (plus `margin` tiles around it), clipped to the grid: only these get drawn. */
export function visibleTileRange(camera: Camera, viewport: Viewport, margin = 0): TileRange {
  const topLeft = screenToWorld(camera, viewport, 0, 0);
  const bottomRight = screenToWorld(camera, viewport, viewport.width, viewport.height);
  return {
    x0: Math.max(0, Math.floor(topLeft.x / TILE_SIZE_PX) - margin),
    y0: Math.max(0, Math.floor(topLeft.y / TILE_SIZE_PX) - margin),
    x1: Math.min(GRID_SIZE, Math.ceil(bottomRight.x / TILE_SIZE_PX) + margin),
    y1: Math.min(GRID_SIZE, Math.ceil(bottomRight.y / TILE_SIZE_PX) + margin),
  };
}

export function camerasEqual(a: Camera, b: Camera): boolean {
  return a.centerX === b.centerX && a.centerY === b.centerY && a.zoom === b.zoom;
}

/** An axis-aligned screen rectangle in CSS pixels relative to the canvas. */
export interface ScreenRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether two rectangles share some area (touching edges do not count). */
export function rectsOverlap(a: ScreenRect, b: ScreenRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function insideViewport(rect: ScreenRect, viewport: Viewport): boolean {
  return rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= viewport.width && rect.y + rect.height <= viewport.height;
}

/**
 * The largest rectangle of the viewport that no occluder (panel, control, dialog) covers. Its sides
 * lie on the viewport's or the occluders' edges, so trying every pair of those x edges and, between
 * them, every gap the occluders leave in y finds it exactly; there are a handful of occluders.
 */
export function largestClearRect(viewport: Viewport, occluders: readonly ScreenRect[]): ScreenRect {
  const clipped = occluders
    .map((rect) => {
      const x0 = Math.max(0, rect.x);
      const y0 = Math.max(0, rect.y);
      const x1 = Math.min(viewport.width, rect.x + rect.width);
      const y1 = Math.min(viewport.height, rect.y + rect.height);
      return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
    })
    .filter((rect) => rect.width > 0 && rect.height > 0);
  const xs = [...new Set([0, viewport.width, ...clipped.flatMap((rect) => [rect.x, rect.x + rect.width])])].sort((a, b) => a - b);
  let best: ScreenRect = { x: 0, y: 0, width: 0, height: 0 };
  for (const [i, left] of xs.entries()) {
    for (const right of xs.slice(i + 1)) {
      const width = right - left;
      if (width * viewport.height <= best.width * best.height) continue;
      const blocked = clipped
        .filter((rect) => rect.x < right && left < rect.x + rect.width)
        .map((rect) => [rect.y, rect.y + rect.height] as const)
        .sort((a, b) => a[0] - b[0]);
      let top = 0;
      for (const [start, end] of [...blocked, [viewport.height, viewport.height] as const]) {
        if (start > top && width * (start - top) > best.width * best.height) best = { x: left, y: top, width, height: start - top };
        top = Math.max(top, end);
      }
    }
  }
  return best;
}

/**
 * Where to show a box of `width`×`height` CSS px (a plot and its pin): at `preferred` (its centre) when
 * the box fits there inside the viewport and clear of every occluder, else at the centre of the largest
 * clear rectangle.
 */
export function clearFocusPoint(
  viewport: Viewport,
  occluders: readonly ScreenRect[],
  width: number,
  height: number,
  preferred: ScreenPoint = { x: viewport.width / 2, y: viewport.height / 2 },
): ScreenPoint {
  const box = { x: preferred.x - width / 2, y: preferred.y - height / 2, width, height };
  if (insideViewport(box, viewport) && !occluders.some((rect) => rectsOverlap(rect, box))) return preferred;
  const clear = largestClearRect(viewport, occluders);
  if (clear.width === 0 || clear.height === 0) return preferred;
  return { x: clear.x + clear.width / 2, y: clear.y + clear.height / 2 };
}

/** Camera at `zoom` that shows world point (worldX, worldY) at screen point `at`. */
export function cameraShowingAt(
  worldX: number,
  worldY: number,
  zoom: number,
  at: ScreenPoint,
  viewport: Viewport,
  limits: ZoomLimits,
): Camera {
  const clampedZoom = Math.min(limits.max, Math.max(limits.min, zoom));
  return clampCamera(
    {
      zoom: clampedZoom,
      centerX: worldX - (at.x - viewport.width / 2) / clampedZoom,
      centerY: worldY - (at.y - viewport.height / 2) / clampedZoom,
    },
    limits,
  );
}
