import type { Region } from '@pixel-atlas/contracts/regions';
import { describe, expect, it } from 'vitest';
import { cameraOnTile, zoomLimitsFor } from './camera.ts';
import { keepLabelsOffPlots } from './label-clearance.ts';
import type { PlacedLabel } from './region-labels.ts';

const region = (value: number, name: string): Region => ({
  value,
  name,
  focus: { x: 20, y: 20 },
  audience: 'a',
  description: 'd',
  notableLocations: ['1', '2', '3', '4'],
});
// Tile (20, 20) centred in an 800×600 view at zoom 1 (48 px per tile): its top-left corner is at (376, 276).
const camera = cameraOnTile(20, 20, 1, zoomLimitsFor(false));
const viewport = { width: 800, height: 600 };
const label = (value: number, x: number, y: number): PlacedLabel => ({
  region: region(value, `Region ${value}`),
  x,
  y,
  width: 120,
  height: 22,
  fontPx: 12,
});
const takenTiles = (tiles: Array<[number, number]>) => (x: number, y: number) => tiles.some(([tx, ty]) => tx === x && ty === y);

describe('labels never cover plots', () => {
  it('keeps a label where the land under it is free', () => {
    const labels = [label(1, 340, 280)];
    expect(keepLabelsOffPlots(labels, camera, viewport, takenTiles([[25, 25]]))).toEqual(labels);
  });

  it('moves a label off a plot to the nearest free place: above it, clear of the row the plot is on', () => {
    // The plate (y 280..304 with its shadow) lies on row 20 (y 276..324), over the plot on (20, 20).
    // One step up (y 254) still touches row 20; two steps up (y 228..252) is row 19 only.
    const [moved] = keepLabelsOffPlots([label(1, 340, 280)], camera, viewport, takenTiles([[20, 20]]));
    expect(moved?.x).toBe(340);
    expect(moved?.y).toBe(228);
  });

  it('tries below when above is taken too, and leaves a label out when every place around is', () => {
    const [below] = keepLabelsOffPlots(
      [label(1, 340, 280)],
      camera,
      viewport,
      takenTiles([
        [20, 20],
        [20, 19],
      ]),
    );
    expect(below?.y).toBe(280 + 52);
    expect(keepLabelsOffPlots([label(1, 340, 280)], camera, viewport, () => true)).toEqual([]);
  });

  it('does not move a label onto another one', () => {
    // The first label already sits where the second would go above the plot: the second goes below.
    const first = label(1, 340, 228);
    const second = label(2, 340, 280);
    const placed = keepLabelsOffPlots([first, second], camera, viewport, takenTiles([[20, 20]]));
    expect(placed[0]).toEqual(first);
    expect(placed[1]?.y).toBe(280 + 52);
  });
});
