import type { Region } from '@pixel-atlas/contracts/regions';
import { assert, describe, expect, it } from 'vitest';
import { labelAt, layoutRegionLabels } from './region-labels.ts';

const region = (value: number, name: string, x: number, y: number): Region => ({
  value,
  name,
  focus: { x, y },
  audience: '',
  description: '',
  notableLocations: ['a', 'b', 'c', 'd'],
});
const measure = (text: string) => text.length * 8;
const viewport = { width: 800, height: 600 };

describe('region labels', () => {
  it('centres each label on its region focus tile', () => {
    const camera = { centerX: 10.5 * 48, centerY: 10.5 * 48, zoom: 1 };
    const [label] = layoutRegionLabels([region(1, 'Pixel Plains', 10, 10)], camera, viewport, measure);
    assert(label, 'the region gets a label');
    expect(label.x + label.width / 2).toBeCloseTo(400, 0);
    expect(label.y + label.height / 2).toBeCloseTo(300, 0);
  });

  it('skips labels that would overlap one already placed, and labels off-screen', () => {
    const camera = { centerX: 10 * 48, centerY: 10 * 48, zoom: 0.3 };
    const placed = layoutRegionLabels(
      [region(1, 'Knowledge Knolls', 10, 10), region(2, 'Wellness Wilds', 11, 10), region(3, 'Far Away', 89, 89)],
      camera,
      viewport,
      measure,
    );
    expect(placed.map((label) => label.region.name)).toEqual(['Knowledge Knolls']);
  });

  it('hides labels when the world is too small to read them', () => {
    const camera = { centerX: 2160, centerY: 2160, zoom: 0.05 };
    expect(layoutRegionLabels([region(1, 'Pixel Plains', 45, 45)], camera, viewport, measure)).toEqual([]);
  });

  it('hit-tests a point against the placed labels', () => {
    const camera = { centerX: 10.5 * 48, centerY: 10.5 * 48, zoom: 1 };
    const placed = layoutRegionLabels([region(1, 'Pixel Plains', 10, 10)], camera, viewport, measure);
    expect(labelAt(placed, 400, 300)?.region.name).toBe('Pixel Plains');
    expect(labelAt(placed, 10, 10)).toBeNull();
  });
});
