import type { ScreenRect } from './camera.ts';
import type { IdlePrerender } from './idle-prerender.ts';
import type { LayerCache } from './layer-cache.ts';
import type { MapPainter } from './map-painter.ts';
import { createPlotIndex, type MapPlot } from './plot-index.ts';
import { createReservedIndex, type ReservedFootprint } from './reserved-layer.ts';
import { loadLayout, type LayoutLoading, type MapLayoutInput, type SceneState } from './scene.ts';
import type { WorldSource } from './world-source.ts';

export interface SceneDataOptions {
  scene: SceneState;
  loading: LayoutLoading;
  layers: LayerCache;
  world: WorldSource;
  map: MapPainter;
  idle: IdlePrerender;
}

/** The engine's setters for what the map shows; each change rebuilds only what depends on it. */
export interface SceneData {
  setLayout(layout: MapLayoutInput | null): void;
  setPlots(plots: readonly MapPlot[]): void;
  setReservedFootprints(footprints: readonly ReservedFootprint[]): void;
  setOccludedRects(rects: readonly ScreenRect[]): void;
}

export function createSceneData({ scene, loading, layers, world, map, idle }: SceneDataOptions): SceneData {
  /** Every cached tile shows the old data. */
  function dataChanged(): void {
    layers.invalidate();
    world.rebuild();
    map.invalidate();
  }

  // What the setters were last given: the same object again (the app taking over an engine the page's boot fed, see
  // src/boot/) changes nothing, and must not start the layout's first paint over.
  let layoutGiven: MapLayoutInput | null = null;
  let plotsGiven: readonly MapPlot[] | null = null;

  return {
    setLayout(next) {
      if (next !== null && next === layoutGiven) return;
      layoutGiven = next;
      // The work under way pre-renders the old layout's chunks.
      idle.cancel();
      scene.layout?.terrain.dispose();
      scene.layout = next ? loadLayout(next, loading) : null;
      map.layoutChanged();
      if (!next) scene.placedLabels = [];
      dataChanged();
      if (next) idle.schedule();
    },
    setPlots(plots) {
      if (plots === plotsGiven) return;
      plotsGiven = plots;
      scene.plots = createPlotIndex(plots);
      dataChanged();
    },
    setReservedFootprints(footprints) {
      if (sameFootprints(scene.reserved.footprints, footprints)) return;
      scene.reserved = createReservedIndex(footprints);
      dataChanged();
    },
    setOccludedRects(rects) {
      const next = rects.map(({ x, y, width, height }) => ({ x, y, width, height }));
      if (next.length === scene.occluded.length && next.every((rect, i) => sameRect(rect, scene.occluded[i]!))) return;
      scene.occluded = next;
      // The labels are placed again on the next frame.
      map.invalidate();
    },
  };
}

/** A poll that brings the same reserved land must not rebuild every tile. */
function sameFootprints(a: readonly ReservedFootprint[], b: readonly ReservedFootprint[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((f, i) => {
    const g = b[i]!; // same length, checked above
    return f.x === g.x && f.y === g.y && f.size === g.size && f.reason === g.reason;
  });
}

function sameRect(a: ScreenRect, b: ScreenRect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}
