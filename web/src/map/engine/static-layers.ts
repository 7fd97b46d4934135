/**
 * Pure renderers of the static scene — terrain, plots, region label plates — into offscreen layers.
 * They read only their arguments and paint only their target: what to cache, and when to throw it
 * away, is the layer cache's business (layer-cache.ts).
 */
import type { Camera, Viewport } from './camera.ts';
import { WORLD_SIZE_PX } from './camera.ts';
import type { CanvasFactory, Surface } from './canvas-factory.ts';
import type { RenditionCaps } from './avatar-rendition.ts';
import type { ImageCache } from './image-cache.ts';
import { chooseLevelOfDetail } from './level-of-detail.ts';
import type { MapPlot } from './plot-index.ts';
import { drawPlots, paintPlotMarkers } from './plot-layer.ts';
import { drawRegionLabels, type PlacedLabel } from './region-labels.ts';
import { drawReservedFootprints, paintReservedMarkers, type HatchSource, type ReservedFootprint } from './reserved-layer.ts';
import { OVERVIEW_TILE_PX, type TerrainRenderer } from './terrain-renderer.ts';

export type SurfaceImage = Surface & CanvasImageSource;

/** What the world layer is drawn from. */
export interface StaticWorld {
  terrain: TerrainRenderer;
  plots: readonly MapPlot[];
  /** Held and under-review land, hatched under the plots. */
  reserved: readonly ReservedFootprint[];
  hatch: HatchSource;
  /** The far-zoom bitmap (terrain overview + reserved land + plot markers); built on first use. */
  farComposite: () => SurfaceImage;
  images: ImageCache | null;
  /** The biggest avatar rendition each plot size may draw at in the current view (avatarRenditionCaps). */
  avatarCaps?: () => RenditionCaps;
}

/**
 * One square of the world as rendered at `zoom`: device pixels [x, x + width) × [y, y + height) of the
 * world drawn at that zoom and device pixel ratio (so (0, 0) is the world's top-left corner).
 */
export interface WorldTileArea {
  zoom: number;
  dpr: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Width in device pixels of the whole world rendered at `zoom`: the edge every tile snaps to. */
export function worldDeviceSize(zoom: number, dpr: number): number {
  return Math.max(1, Math.round(WORLD_SIZE_PX * zoom * dpr));
}

/** A camera and viewport that show exactly this tile: the plot and terrain renderers take a view. */
export function tileView(area: WorldTileArea): { camera: Camera; viewport: Viewport } {
  const scale = area.zoom * area.dpr;
  return {
    camera: { centerX: (area.x + area.width / 2) / scale, centerY: (area.y + area.height / 2) / scale, zoom: area.zoom },
    viewport: { width: area.width / area.dpr, height: area.height / area.dpr },
  };
}

/**
 * Paints one world tile: at far zoom the composite bitmap, nearer the terrain chunks, the reserved
 * land and the plots.
 * Pixel art stays crisp (nearest-neighbour); the target is opaque (the terrain covers every pixel).
 * Returns whether an avatar it wanted is still loading.
 */
export function renderWorldTile(ctx: CanvasRenderingContext2D, world: StaticWorld, area: WorldTileArea): boolean {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.imageSmoothingEnabled = false;
  if (chooseLevelOfDetail(area.zoom) === 'far') {
    const composite = world.farComposite();
    const perDevicePx = composite.width / worldDeviceSize(area.zoom, area.dpr);
    ctx.drawImage(
      composite,
      area.x * perDevicePx,
      area.y * perDevicePx,
      area.width * perDevicePx,
      area.height * perDevicePx,
      0,
      0,
      area.width,
      area.height,
    );
    return false;
  }
  const { camera, viewport } = tileView(area);
  world.terrain.drawChunks(ctx, camera, viewport, area.dpr);
  drawReservedFootprints(ctx, world.reserved, camera, viewport, area.dpr, world.hatch);
  return drawPlots(ctx, world.plots, camera, viewport, area.dpr, world.images, world.avatarCaps?.());
}

/** The far-zoom bitmap: the terrain overview with the reserved land and a marker per plot baked in. */
export function renderFarComposite(
  terrain: TerrainRenderer,
  plots: readonly MapPlot[],
  createSurface: CanvasFactory,
  reserved: readonly ReservedFootprint[] = [],
): SurfaceImage {
  const overview = terrain.overview();
  const surface = createSurface(overview.width, overview.height);
  const ctx = surface.getContext('2d');
  if (ctx) {
    ctx.drawImage(overview, 0, 0);
    paintReservedMarkers(ctx, reserved, OVERVIEW_TILE_PX);
    paintPlotMarkers(ctx, plots, OVERVIEW_TILE_PX);
  }
  return surface;
}

/** Room a label sprite needs around the plate: its hard shadow is offset by 2 CSS px. */
export const LABEL_SHADOW_PX = 2;

export function labelSpriteSize(label: PlacedLabel, dpr: number): { width: number; height: number } {
  return { width: Math.ceil((label.width + LABEL_SHADOW_PX) * dpr), height: Math.ceil((label.height + LABEL_SHADOW_PX) * dpr) };
}

/** One region's label plate, not hovered, at the sprite's origin (hover is drawn on the overlay). */
export function renderLabelSprite(ctx: CanvasRenderingContext2D, label: PlacedLabel, dpr: number): void {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  drawRegionLabels(ctx, [{ ...label, x: 0, y: 0 }], null);
}
