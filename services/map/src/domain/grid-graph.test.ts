import { describe, expect, it } from 'vitest';
import { distanceField, labelComponents, shortestPathBetween } from './grid-graph.ts';

describe('grid graph helpers', () => {
  const size = 5;
  // Two land blobs separated by a water column at x = 2.
  const land = (index: number) => index % size !== 2;

  it('labels 4-connected components', () => {
    const { sizes, labels } = labelComponents(size, land);
    expect(sizes).toEqual([10, 10]);
    expect(labels[2]).toBe(-1);
  });

  it('measures 4-neighbour distance to the nearest source', () => {
    const distance = distanceField(size, (index) => index === 0);
    expect(distance[0]).toBe(0);
    expect(distance[size * size - 1]).toBe(8);
  });

  it('finds the cells strictly between two groups, stepping only where allowed', () => {
    const path = shortestPathBetween(
      size,
      (index) => index % size < 2,
      (index) => index % size > 2,
      (index) => index % size === 2,
    );
    expect(path).toHaveLength(1);
    expect((path?.[0] ?? -1) % size).toBe(2);
    expect(
      shortestPathBetween(
        size,
        (index) => index === 0,
        (index) => index === 4,
        () => false,
      ),
    ).toBeNull();
  });
});
