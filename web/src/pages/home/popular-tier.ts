import { normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';

/**
 * The tier bought most often, from the plots on the map: "Most popular" only when sales say so. Null with no sales, or
 * when two tiers share the lead (then no tier is the most popular).
 */
export function mostPopularTier(plots: ReadonlyArray<{ tier: string }> | null | undefined): Tier | null {
  if (!plots || plots.length === 0) return null;
  const counts = new Map<Tier, number>();
  for (const plot of plots) {
    const tier = normalizeTier(plot.tier);
    counts.set(tier, (counts.get(tier) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first || (second && second[1] === first[1])) return null;
  return first[0];
}
