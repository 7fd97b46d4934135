import { formatPrice, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useQuery } from '@tanstack/react-query';
import { pricesQuery } from '../../api/queries.ts';

/**
 * What a checkout charges per tier, from payments (ARCHITECTURE.md section 7, prices shown): the web never
 * shows a price of its own, so a configured price table is what people read. Null until it has arrived
 * (or when it could not be read), so callers show no amount rather than a wrong one.
 */
export function usePrices(): Record<Tier, number> | null {
  const query = useQuery(pricesQuery());
  return query.data?.cents ?? null;
}

/** '$25' for the tier, or null while the price is unknown. */
export function useTierPrice(tier: Tier): string | null {
  const prices = usePrices();
  return prices ? formatPrice(prices[tier]) : null;
}

/** The tier's price, or a placeholder the size of one while it loads (never a default that may be wrong). */
export function TierPrice({ tier, className }: { tier: Tier; className?: string }) {
  const price = useTierPrice(tier);
  if (price) return <span className={className}>{price}</span>;
  return (
    <span
      aria-hidden="true"
      data-price-loading=""
      className={`inline-block h-[1em] w-[3ch] animate-pulse bg-panel-raised align-middle ${className ?? ''}`}
    />
  );
}
