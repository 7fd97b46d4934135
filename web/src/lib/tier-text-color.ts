import type { Tier } from '@pixel-atlas/contracts/tier-catalog';

/**
 * Lighter tints of TIER_COLOR for text on the dark panels: the canonical purple reaches only 4.3:1
 * there. Each of these is at least 6:1 on panel and night (WCAG AA). Borders and fills keep TIER_COLOR.
 */
export const TIER_TEXT_ON_DARK: Record<Tier, string> = {
  basic: '#60a5fa',
  featured: '#facc15',
  prime: '#c084fc',
  premium: '#f87171',
};
