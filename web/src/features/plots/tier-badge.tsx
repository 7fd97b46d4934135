import { TIER_COLOR, normalizeTier, tierPlotLabel } from '@pixel-atlas/contracts/tier-catalog';

/** '<Tier> Plot' on the tier's colour (dark text reads on all four). */
export function TierBadge({ tier, className = '' }: { tier: string; className?: string }) {
  const known = normalizeTier(tier);
  return (
    <span
      className={`inline-block border-2 border-black px-2 py-0.5 font-pixel text-[0.6rem] leading-normal text-ink-dark ${className}`}
      style={{ backgroundColor: TIER_COLOR[known].hex }}
    >
      {tierPlotLabel(known)}
    </span>
  );
}
