import type { Tier } from '@pixel-atlas/contracts/tier-catalog';

/** Browser event that opens the map's tier guidance dialog (spec section 2). */
export const TIER_GUIDANCE_EVENT = 'tierGuidance';
export interface TierGuidanceDetail {
  tier?: Tier;
}

/** id of the element that holds the map on the home page; scroll targets point here. */
export const MAP_ELEMENT_ID = 'atlas-map';
/** id of the claim section below the map; the user page links to /#claim-tile. */
export const CLAIM_SECTION_ID = 'claim-tile';

const FALLBACK_SCROLL_DELAY_MS = 100;
const FALLBACK_SCROLL_PX = 300;

export function dispatchTierGuidance(detail: TierGuidanceDetail = {}): void {
  window.dispatchEvent(new CustomEvent<TierGuidanceDetail>(TIER_GUIDANCE_EVENT, { detail }));
}

export function scrollToMap(): void {
  document.getElementById(MAP_ELEMENT_ID)?.scrollIntoView({ behavior: 'smooth' });
}

/** The 'Claim Your Tile' action: raise the guidance event, then bring the map into view. */
export function startTierGuidance(detail: TierGuidanceDetail = {}): void {
  dispatchTierGuidance(detail);
  const map = document.getElementById(MAP_ELEMENT_ID);
  if (map) {
    map.scrollIntoView({ behavior: 'smooth' });
    return;
  }
  window.setTimeout(() => window.scrollBy({ top: FALLBACK_SCROLL_PX, behavior: 'smooth' }), FALLBACK_SCROLL_DELAY_MS);
}
