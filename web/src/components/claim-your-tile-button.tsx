import type { MouseEvent } from 'react';
import { useStartTierGuidance } from '../hooks/use-tier-guidance-navigation.ts';
import { CLAIM_SECTION_ID } from '../lib/tier-guidance.ts';
import { buttonClassName } from './button-styles.ts';

/**
 * A real link to the claim section, so a tap before the script has run (the prerendered first screen) still takes the
 * visitor to the tier cards; once the app runs, it raises the tier guidance instead (spec section 2).
 */
export function ClaimYourTileButton({ onActivate, className = '' }: { onActivate?: () => void; className?: string }) {
  const startGuidance = useStartTierGuidance();
  const activate = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window is the visitor's choice: let the browser open the link there.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onActivate?.();
    startGuidance();
  };
  return (
    <a href={`/#${CLAIM_SECTION_ID}`} className={buttonClassName('primary', 'sm', className)} onClick={activate}>
      Claim Your Tile
    </a>
  );
}
