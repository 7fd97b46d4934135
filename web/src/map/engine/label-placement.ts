import { rectsOverlap, type Camera, type ScreenRect } from './camera.ts';
import { keepLabelsOffPlots } from './label-clearance.ts';
import { LABEL_FONT_FAMILY, layoutRegionLabels, type PlacedLabel } from './region-labels.ts';
import type { SceneState } from './scene.ts';

/** Where the region labels go in a frame. */
export interface LabelPlacement {
  /** The labels for a frame drawn at `camera`: clear of each other, of plots and reserved land, and of the page's chrome. */
  place(camera: Camera): PlacedLabel[];
  /** The label font arrived: widths measured with the fallback font are wrong now. */
  fontLoaded(): void;
}

/** `ctx` measures the label text (any context will do: the font is set before each measurement). */
export function createLabelPlacement(scene: SceneState, ctx: CanvasRenderingContext2D | null): LabelPlacement {
  const textWidths = new Map<string, number>();

  function measureText(text: string, fontPx: number): number {
    const key = `${fontPx}:${text}`;
    const cached = textWidths.get(key);
    if (cached !== undefined) return cached;
    let width = text.length * fontPx;
    if (ctx) {
      ctx.font = `${fontPx}px ${LABEL_FONT_FAMILY}`;
      width = ctx.measureText(text).width || width;
    }
    textWidths.set(key, width);
    return width;
  }

  /** A plot or reserved land stands on the tile: no label plate may cover it. */
  function isTakenTile(tileX: number, tileY: number): boolean {
    return scene.plots.plotAt(tileX, tileY) !== null || scene.reserved.at(tileX, tileY) !== null;
  }

  return {
    place(camera) {
      if (!scene.layout) return [];
      const { viewport } = scene;
      const labels = layoutRegionLabels(scene.layout.regions, camera, viewport, measureText);
      return unoccluded(keepLabelsOffPlots(labels, camera, viewport, isTakenTile), scene.occluded);
    },
    fontLoaded() {
      textWidths.clear();
    },
  };
}

/** Once the label font has loaded, `then` runs (label plates and plot initials were drawn with the fallback font). */
export function whenLabelFontLoads(fonts: Pick<FontFaceSet, 'load'> | null | undefined, then: () => void): void {
  fonts
    ?.load(`10px ${LABEL_FONT_FAMILY}`)
    .then(then)
    .catch(() => {});
}

/** Labels under the page's chrome would show only a sliver, or through a see-through panel: they are left out. */
function unoccluded<T extends PlacedLabel>(labels: T[], occluded: readonly ScreenRect[]): T[] {
  return occluded.length === 0 ? labels : labels.filter((label) => !occluded.some((rect) => rectsOverlap(rect, label)));
}
