import { TIER_COLOR, TIER_SIZE, TIER_TAGLINE, tierPlotLabel, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { TierPrice } from '../features/claim/use-prices.tsx';
import { TIER_TEXT_ON_DARK } from '../lib/tier-text-color.ts';
import { buttonClassName } from './button-styles.ts';

interface TierCardProps {
  tier: Tier;
  onSelect: (tier: Tier) => void;
  /** The tier sold most (from the plots on the map): only then does a card say 'Most popular'. */
  popular?: boolean;
}

export function TierCard({ tier, onSelect, popular = false }: TierCardProps) {
  const size = TIER_SIZE[tier];
  const color = TIER_COLOR[tier].hex;
  const headingId = `tier-${tier}-heading`;
  return (
    <article
      aria-labelledby={headingId}
      className="relative flex flex-col border-2 bg-panel p-5 shadow-pixel"
      style={{ borderColor: color }}
      data-tier={tier}
    >
      {popular ? (
        <p className="absolute -top-3 right-4 border-2 border-black bg-gold px-2 py-1 font-pixel text-[0.6rem] text-ink-dark">
          Most popular
        </p>
      ) : null}
      <TierFootprint size={size} color={color} />
      <h3 id={headingId} className="mt-4 text-sm" style={{ color: TIER_TEXT_ON_DARK[tier] }}>
        {tierPlotLabel(tier)}
      </h3>
      <p className="mt-2 font-pixel text-lg text-ink">
        <TierPrice tier={tier} />
      </p>
      <p className="mt-1 text-sm text-ink-muted">
        {size}x{size} plot
      </p>
      <p className="mt-3 flex-1 text-sm text-ink-muted">{TIER_TAGLINE[tier]}</p>
      <button
        type="button"
        className={buttonClassName(popular ? 'primary' : 'secondary', 'md', 'mt-5 w-full')}
        onClick={() => onSelect(tier)}
        aria-label={`Select ${tierPlotLabel(tier)}`}
      >
        SELECT
      </button>
    </article>
  );
}

/** A 4x4 grid with the tier's footprint filled in, so the size reads at a glance. */
function TierFootprint({ size, color }: { size: number; color: string }) {
  const cells = Array.from({ length: 16 }, (_, index) => {
    const filled = index % 4 < size && Math.floor(index / 4) < size;
    return <span key={index} className="block size-3 border border-black/40" style={{ background: filled ? color : 'transparent' }} />;
  });
  return (
    <div aria-hidden="true" className="grid w-fit grid-cols-4 gap-0.5">
      {cells}
    </div>
  );
}
