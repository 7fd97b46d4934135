import { autoAssignCandidates } from '@pixel-atlas/contracts/grid';
import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { checkPosition, type PositionCheckOptions } from './position-check.ts';

/** How many lattice points are asked about at once. */
const BATCH = 6;

/**
 * Spec section 2/9: a random free position on the 15..70 step-5 lattice, checked with the server for
 * the tier's footprint. Resolves null when no lattice point is free.
 */
export async function findFreePosition(
  tier: Tier,
  options: PositionCheckOptions & { random?: () => number } = {},
): Promise<{ x: number; y: number } | null> {
  const candidates = shuffle(autoAssignCandidates(), options.random ?? Math.random);
  for (let start = 0; start < candidates.length; start += BATCH) {
    const batch = candidates.slice(start, start + BATCH);
    const problems = await Promise.all(batch.map(({ x, y }) => checkPosition(x, y, tier, options)));
    const free = batch.find((_, index) => problems[index] === null);
    if (free) return free;
  }
  return null;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    // Both indexes are within 0..i by the loop's bounds.
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
