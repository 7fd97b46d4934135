import { useStartTierGuidance } from '../hooks/use-tier-guidance-navigation.ts';
import { buttonClassName } from './button-styles.ts';

export function ClaimYourTileButton({ onActivate, className = '' }: { onActivate?: () => void; className?: string }) {
  const startGuidance = useStartTierGuidance();
  return (
    <button
      type="button"
      className={buttonClassName('primary', 'sm', className)}
      onClick={() => {
        onActivate?.();
        startGuidance();
      }}
    >
      Claim Your Tile
    </button>
  );
}
