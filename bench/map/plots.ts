import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import type { MapTile } from '@pixel-atlas/contracts/map';
import { TIER_SIZE, TIERS, type Tier } from '@pixel-atlas/contracts/tiers';
import type { BenchPlot } from './protocol.ts';

/**
 * Tier mix of the synthetic plots. A uniform mix would not fit: 2,000 plots averaging 7.5 tiles need
 * ~15,000 tiles and the world has ~5,400 land tiles. This mix covers ~3,800 (most plots are basic,
 * as in any sale with a $25 entry tier).
 */
export const TIER_MIX: Record<Tier, number> = { basic: 0.84, featured: 0.1, prime: 0.04, premium: 0.02 };

/** Small deterministic PRNG: the same plots on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `BENCH_PLOTS` scenario: a plot count, or `full` for a land where every tile is claimed. */
export type PlotScenario = number | 'full';

/** Parses `BENCH_PLOTS` (comma-separated: `2000,full`, `500`, `full`). */
export function parsePlotScenarios(value: string): PlotScenario[] {
  const scenarios = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): PlotScenario => {
      if (part === 'full') return 'full';
      const count = Number(part);
      if (!Number.isInteger(count) || count < 0) throw new Error(`BENCH_PLOTS: "${part}" is neither a plot count nor "full"`);
      return count;
    });
  if (scenarios.length === 0) throw new Error('BENCH_PLOTS names no scenario');
  return scenarios;
}

/**
 * `count` non-overlapping plots, every footprint on land, largest tiers placed first (a plot that finds
 * no room falls back to the next smaller tier). Positions and tiers come from a seeded PRNG.
 * `full`: the bigger tiers of the 2,000-plot mix, then a basic plot on every land tile still free —
 * the whole land claimed, the densest the map can get.
 */
export function scenarioPlots(
  tiles: readonly MapTile[],
  scenario: PlotScenario,
  seed = 42,
): { plots: BenchPlot[]; byTier: Record<Tier, number> } {
  if (scenario !== 'full') return syntheticPlots(tiles, scenario, seed);
  const landTiles = tiles.filter((tile) => tile.is_land).length;
  const bigger = Object.entries(TIER_MIX)
    .filter(([tier]) => tier !== 'basic')
    .reduce((sum, [, share]) => sum + Math.round(2000 * share), 0);
  // Every basic plot beyond the bigger tiers lands on the first free tile once random probing fails,
  // so asking for as many basics as land tiles leaves none free; the surplus is cut off at the end.
  return syntheticPlots(tiles, bigger + landTiles, seed, { basicsFillLand: true, biggerTiersOf: 2000 });
}

export function syntheticPlots(
  tiles: readonly MapTile[],
  count: number,
  seed = 42,
  fill: { basicsFillLand: boolean; biggerTiersOf: number } | null = null,
): { plots: BenchPlot[]; byTier: Record<Tier, number> } {
  const random = mulberry32(seed);
  const free = new Uint8Array(GRID_SIZE * GRID_SIZE);
  for (const tile of tiles) if (tile.is_land) free[tile.y * GRID_SIZE + tile.x] = 1;

  const wanted: Tier[] = [];
  for (const tier of [...TIERS].reverse()) {
    const n = tier === 'basic' ? count - wanted.length : Math.round((fill?.biggerTiersOf ?? count) * TIER_MIX[tier]);
    for (let i = 0; i < n; i++) wanted.push(tier);
  }

  const fits = (x: number, y: number, size: number) => {
    if (x + size > GRID_SIZE || y + size > GRID_SIZE) return false;
    for (let dy = 0; dy < size; dy++) for (let dx = 0; dx < size; dx++) if (!free[(y + dy) * GRID_SIZE + x + dx]) return false;
    return true;
  };

  const plots: BenchPlot[] = [];
  const byTier: Record<Tier, number> = { basic: 0, featured: 0, prime: 0, premium: 0 };
  for (let tierIndex of wanted.map((tier) => TIERS.indexOf(tier))) {
    let placed = false;
    while (!placed && tierIndex >= 0) {
      const tier = TIERS[tierIndex]!; // an indexOf into TIERS, counting down while >= 0
      const size = TIER_SIZE[tier];
      for (let attempt = 0; attempt < 400 && !placed; attempt++) {
        const x = Math.floor(random() * (GRID_SIZE - size + 1));
        const y = Math.floor(random() * (GRID_SIZE - size + 1));
        if (!fits(x, y, size)) continue;
        for (let dy = 0; dy < size; dy++) for (let dx = 0; dx < size; dx++) free[(y + dy) * GRID_SIZE + x + dx] = 0;
        const n = plots.length + 1;
        plots.push({ id: `bench-${n}`, x, y, tier, display_name: `Bench Maker ${n}` });
        byTier[tier]++;
        placed = true;
      }
      if (!placed && tier === 'basic') {
        // Random probing is slow when land is nearly full: take the first free land tile instead.
        const index = free.indexOf(1);
        if (index < 0) {
          if (fill?.basicsFillLand) return { plots, byTier };
          break;
        }
        free[index] = 0;
        const n = plots.length + 1;
        plots.push({ id: `bench-${n}`, x: index % GRID_SIZE, y: Math.floor(index / GRID_SIZE), tier, display_name: `Bench Maker ${n}` });
        byTier.basic++;
        placed = true;
      }
      if (!placed) tierIndex--;
    }
    if (!placed) throw new Error(`no free land left after ${plots.length} plots`);
  }
  return { plots, byTier };
}
