import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import type { Region } from '@pixel-atlas/contracts/regions';
import { screenToTile, type ScreenPoint } from './camera.ts';
import type { MapEngineOptions, TileClick } from './engine.ts';
import { layoutBox } from './layout-box.ts';
import type { MapPlot } from './plot-index.ts';
import { labelAt, type PlacedLabel } from './region-labels.ts';
import type { ReservedFootprint } from './reserved-layer.ts';
import type { SceneState } from './scene.ts';

export interface HitTestingOptions {
  canvas: HTMLCanvasElement;
  scene: SceneState;
  events: Pick<MapEngineOptions, 'onTileClick' | 'onPlotHover' | 'onReservedHover' | 'onRegionLabelHover'>;
  /** The hovered region label is drawn on the overlay. */
  hoveredRegionChanged: () => void;
}

/** What is under a point of the map (CSS px relative to the canvas), told to the host as clicks and hovers. */
export interface HitTesting {
  click(point: ScreenPoint): void;
  hover(point: ScreenPoint): void;
  leave(): void;
}

export function createHitTesting({ canvas, scene, events, hoveredRegionChanged }: HitTestingOptions): HitTesting {
  let hoveredPlot: MapPlot | null = null;
  let hoveredReserved: ReservedFootprint | null = null;

  function toClient(point: ScreenPoint): ScreenPoint {
    const box = layoutBox(canvas);
    return { x: box.left + point.x, y: box.top + point.y };
  }

  function emitHoverPlot(plot: MapPlot | null, point: ScreenPoint): void {
    if (plot?.id === hoveredPlot?.id) return;
    hoveredPlot = plot;
    events.onPlotHover?.(plot, toClient(point));
  }

  function emitHoverReserved(footprint: ReservedFootprint | null, point: ScreenPoint): void {
    if (footprint === hoveredReserved) return;
    hoveredReserved = footprint;
    events.onReservedHover?.(footprint, toClient(point));
  }

  function emitHoverRegion(region: Region | null, point: ScreenPoint): void {
    if (region?.value === scene.hoveredRegion?.value) return;
    scene.hoveredRegion = region;
    events.onRegionLabelHover?.(region, toClient(point));
    hoveredRegionChanged();
  }

  return {
    click(point) {
      const hit = tileUnder(scene, point);
      // Land (or a plot) under a label wins: labels sit on land, and a buyer tapping the tile there means the tile.
      if (hit && (hit.isLand || hit.plot)) {
        events.onTileClick?.(hit);
        return;
      }
      const label = labelAt(scene.placedLabels, point.x, point.y);
      if (label) {
        // A tap on a label over water opens its card (the regions menu reaches every card too).
        scene.hoveredRegion = null;
        emitHoverRegion(label.region, labelAnchor(label));
        return;
      }
      if (hit) events.onTileClick?.(hit);
    },
    hover(point) {
      const label = labelAt(scene.placedLabels, point.x, point.y);
      emitHoverRegion(label?.region ?? null, label ? labelAnchor(label) : point);
      const hit = label ? null : tileUnder(scene, point);
      emitHoverPlot(hit?.plot ?? null, point);
      const reserved = hit && !hit.plot ? (hit.reserved ?? null) : null;
      emitHoverReserved(reserved, point);
      canvas.style.cursor = reserved ? 'not-allowed' : label || hit?.plot || hit?.isLand ? 'pointer' : 'grab';
    },
    leave() {
      emitHoverPlot(null, { x: 0, y: 0 });
      emitHoverReserved(null, { x: 0, y: 0 });
      emitHoverRegion(null, { x: 0, y: 0 });
    },
  };
}

function tileUnder(scene: SceneState, point: ScreenPoint): TileClick | null {
  const tile = screenToTile(scene.camera, scene.viewport, point.x, point.y);
  if (!tile || !scene.layout) return null;
  return {
    x: tile.x,
    y: tile.y,
    isLand: scene.layout.land[tile.y * GRID_SIZE + tile.x] === 1,
    plot: scene.plots.plotAt(tile.x, tile.y),
    reserved: scene.reserved.at(tile.x, tile.y) ?? undefined,
  };
}

/** A label's card hangs from the middle of its bottom edge. */
function labelAnchor(label: PlacedLabel): ScreenPoint {
  return { x: label.x + label.width / 2, y: label.y + label.height };
}
