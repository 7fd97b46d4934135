import * as RadioGroup from '@radix-ui/react-radio-group';
import { TIERS, TIER_COLOR, TIER_SIZE, isTier, tierLabel, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { LabelledRadioGrid } from './labelled-radio-grid.tsx';
import { TierPrice } from './use-prices.tsx';

/** The four tiers with dollar price and 'NxN plot' (spec section 2, Claim popup). */
export function TierRadioList({ value, onChange }: { value: Tier; onChange: (tier: Tier) => void }) {
  return (
    <LabelledRadioGrid
      label="Tier"
      value={value}
      onValueChange={(next) => {
        if (isTier(next)) onChange(next);
      }}
    >
      {(id) =>
        TIERS.map((tier) => {
          const itemId = `${id}-${tier}`;
          const size = TIER_SIZE[tier];
          return (
            <div
              key={tier}
              className="flex min-h-11 items-center gap-3 border-2 bg-night px-3 py-2 has-[[data-state=checked]]:bg-panel-raised"
              style={{ borderColor: value === tier ? TIER_COLOR[tier].hex : undefined }}
            >
              <RadioGroup.Item
                id={itemId}
                value={tier}
                className="grid size-5 shrink-0 place-items-center rounded-full border-2 border-border bg-night"
              >
                <RadioGroup.Indicator className="block size-2.5 rounded-full" style={{ backgroundColor: TIER_COLOR[tier].hex }} />
              </RadioGroup.Item>
              <label htmlFor={itemId} className="flex flex-1 cursor-pointer flex-wrap items-baseline justify-between gap-x-2 text-sm">
                <span className="font-semibold text-ink">{tierLabel(tier)}</span>
                <TierPrice tier={tier} className="text-ink" />
                <span className="w-full text-xs text-ink-muted">
                  {size}x{size} plot
                </span>
              </label>
            </div>
          );
        })
      }
    </LabelledRadioGrid>
  );
}
