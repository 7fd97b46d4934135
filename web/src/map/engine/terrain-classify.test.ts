import { describe, expect, it } from 'vitest';
import { classifyTerrain, SIDE, TERRAIN } from './terrain-classify.ts';

/** Builds tiles from rows of region digits ('.' = water). */
function tilesFrom(rows: string[]) {
  return rows.flatMap((row, y) =>
    row.split('').map((cell, x) => ({ x, y, zone_value: cell === '.' ? 0 : Number(cell), is_land: cell !== '.' })),
  );
}

describe('terrain classification', () => {
  const rows = [
    '............',
    '.1111122222.',
    '.1111122222.',
    '.1111122222.',
    '.1111122222.',
    '.1111122222.',
    '............',
    '............',
    '............',
    '............',
    '............',
    '............',
  ];
  const grid = classifyTerrain(tilesFrom(rows), 12);
  const at = (x: number, y: number) => grid.kind[y * 12 + x];

  it('grades water by distance to land: shallows at the shore, deep water far out', () => {
    expect(at(0, 0)).toBe(TERRAIN.shallows);
    expect(at(5, 8)).toBe(TERRAIN.water);
    expect(at(5, 11)).toBe(TERRAIN.deepWater);
  });

  it('puts sand where land meets water, and inland kinds elsewhere', () => {
    expect(at(1, 1)).toBe(TERRAIN.sand);
    expect(at(3, 3)).not.toBe(TERRAIN.sand);
    expect([TERRAIN.grass, TERRAIN.forest, TERRAIN.hills, TERRAIN.landmark]).toContain(at(3, 3));
  });

  it('marks foam sides on water and region borders on land', () => {
    expect((grid.edges[0 * 12 + 3] ?? 0) & SIDE.south).toBeTruthy();
    expect((grid.edges[3 * 12 + 5] ?? 0) & SIDE.east).toBeTruthy();
    expect((grid.edges[3 * 12 + 6] ?? 0) & SIDE.west).toBeTruthy();
    expect(grid.edges[3 * 12 + 3]).toBe(0);
  });

  it('places at most three landmarks per region, never on top of a label', () => {
    const big = Array.from({ length: 40 }, (_, y) => (y === 0 || y === 39 ? '.'.repeat(40) : `.${'1'.repeat(38)}.`));
    const label = { x: 20, y: 20 };
    const world = classifyTerrain(tilesFrom(big), 40, [label]);
    const landmarks = [...world.kind.entries()].filter(([, kind]) => kind === TERRAIN.landmark).map(([index]) => index);
    expect(landmarks.length).toBeGreaterThan(0);
    expect(landmarks.length).toBeLessThanOrEqual(3);
    for (const index of landmarks) {
      const x = index % 40;
      const y = Math.floor(index / 40);
      expect(Math.abs(x - label.x) > 3 || Math.abs(y - label.y) > 2).toBe(true);
    }
  });

  it('is deterministic', () => {
    const again = classifyTerrain(tilesFrom(rows), 12);
    expect(again.kind).toEqual(grid.kind);
  });
});
