/**
 * The tiers as plain data and functions, without zod: what a browser needs on its first screen (names, sizes,
 * colours, prices) costs a few hundred bytes, where the schema in ./tiers.ts pulls in all of zod. Everything here
 * is re-exported by ./tiers.ts, so the list of tiers has one source.
 */
export const TIERS = ['basic', 'featured', 'prime', 'premium'] as const;
export type Tier = (typeof TIERS)[number];

/** Tiles per side of the square footprint. */
export const TIER_SIZE: Record<Tier, number> = { basic: 1, featured: 2, prime: 3, premium: 4 };

/**
 * Default prices in US cents. ARCHITECTURE.md section 7: the prices shown where people buy
 * ($25/$50/$75/$100); operators may override them in the payments service's configuration.
 */
export const DEFAULT_TIER_PRICE_CENTS: Record<Tier, number> = { basic: 2500, featured: 5000, prime: 7500, premium: 10000 };
export const PRICE_CURRENCY = 'usd';

export const TIER_COLOR: Record<Tier, { name: string; hex: string }> = {
  basic: { name: 'blue', hex: '#3b82f6' },
  featured: { name: 'yellow', hex: '#facc15' },
  prime: { name: 'purple', hex: '#a855f7' },
  premium: { name: 'red', hex: '#ef4444' },
};

export const TIER_TAGLINE: Record<Tier, string> = {
  basic: 'Get your own space on the map',
  featured: 'Stand out with an elevated tile',
  prime: 'Get noticed with a glowing presence',
  premium: 'Rule your domain with a monument',
};

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

/** Spec section 3: unknown tier values fall back to basic. */
export function normalizeTier(value: unknown): Tier {
  return isTier(value) ? value : 'basic';
}

export function tierLabel(tier: Tier): string {
  return tier.charAt(0).toUpperCase() + tier.slice(1);
}

/** "Basic Plot", "Premium Plot". */
export function tierPlotLabel(tier: Tier): string {
  return `${tierLabel(tier)} Plot`;
}

export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)}`;
}
