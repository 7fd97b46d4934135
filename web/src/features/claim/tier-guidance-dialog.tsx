import * as Dialog from '@radix-ui/react-dialog';
import { tierLabel, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { buttonClassName } from '../../components/button-styles.ts';
import { PixelDialogContent, mapCanvas } from '../../components/pixel-dialog.tsx';
import { toast } from '../../hooks/use-toast.ts';
import { TIER_GUIDANCE_EVENT, type TierGuidanceDetail } from '../../lib/tier-guidance.ts';
import { chosenTier } from './stored-tier.ts';
import type { Tile } from './claim-popup.tsx';

interface TierGuidanceDialogProps {
  /** A guidance event arrived for this tier (the map pin follows it). */
  onTierSelected?: (tier: Tier) => void;
  /** Auto-assign found a free spot: open the claim popup there. */
  onAutoAssign: (tile: Tile, tier: Tier) => void;
  /** The guidance event that made the page load this dialog (home-map.tsx): answered as soon as it mounts. */
  initialGuidance?: TierGuidanceDetail;
}

/** The title when no tier was chosen ('Claim Your Tile' before any SELECT): it names no tier. */
export const NO_TIER_GUIDANCE_TITLE = 'Choose Your Plot Location';

/**
 * Spec section 2: the 'tierGuidance' browser event (tier cards, 'Claim Your Tile') opens
 * '<Tier> Tier Selected!' with the two ways to choose a location; without a chosen tier it names none
 * (the claim popup then starts at Basic, where the tier is chosen).
 */
export function TierGuidanceDialog({ onTierSelected, onAutoAssign, initialGuidance }: TierGuidanceDialogProps) {
  // open: the dialog shows; tier: the one chosen, or null when the visitor has not chosen one yet.
  const [guidance, setGuidance] = useState<{ tier: Tier | null } | null>(null);
  const tier = guidance?.tier ?? null;
  const [assigning, setAssigning] = useState(false);
  // An effect event, so the window listener is added once and still calls the latest callback.
  const tierSelected = useEffectEvent((next: Tier) => onTierSelected?.(next));

  const answerGuidance = useEffectEvent((detail: TierGuidanceDetail | undefined) => {
    const next = detail?.tier ?? chosenTier();
    setGuidance({ tier: next });
    if (next) tierSelected(next);
  });
  // Once, not again when StrictMode runs the effects a second time.
  const initialAnswered = useRef(false);

  useEffect(() => {
    if (!initialGuidance || initialAnswered.current) return;
    initialAnswered.current = true;
    answerGuidance(initialGuidance);
  }, [initialGuidance]);

  useEffect(() => {
    const onGuidance = (event: Event) => answerGuidance((event as CustomEvent<TierGuidanceDetail | undefined>).detail);
    window.addEventListener(TIER_GUIDANCE_EVENT, onGuidance);
    return () => window.removeEventListener(TIER_GUIDANCE_EVENT, onGuidance);
  }, []);

  const close = () => {
    setGuidance(null);
    setAssigning(false);
  };

  // 'I'LL SELECT ON THE MAP' hands focus to the map (arrow keys and Enter choose a tile), not back to the tier card.
  const focusMapOnClose = useRef(false);
  const selectOnMap = () => {
    focusMapOnClose.current = true;
    close();
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  const autoAssign = async () => {
    if (!guidance) return;
    // No tier chosen: a spot for the smallest plot; the popup starts at Basic and says if a bigger tier would not fit.
    const forTier = tier ?? 'basic';
    setAssigning(true);
    // Loaded on use: the position checks and their schemas stay out of the home map's first load.
    const { findFreePosition } = await import('./auto-assign.ts');
    const tile = await findFreePosition(forTier);
    setAssigning(false);
    if (!tile) {
      toast({
        title: 'Tile Unavailable',
        description: 'No free spot was found for this tier. Please choose one on the map.',
        variant: 'destructive',
      });
      return;
    }
    close();
    onAutoAssign(tile, forTier);
  };

  return (
    <Dialog.Root open={guidance !== null} onOpenChange={(open) => (open ? undefined : close())}>
      {guidance ? (
        <PixelDialogContent
          title={tier ? `${tierLabel(tier)} Tier Selected!` : NO_TIER_GUIDANCE_TITLE}
          description="How would you like to choose your plot location?"
          onCloseAutoFocus={(event) => {
            const map = focusMapOnClose.current ? mapCanvas() : null;
            focusMapOnClose.current = false;
            if (!map) return;
            event.preventDefault();
            map.focus({ preventScroll: true });
          }}
        >
          <div className="grid gap-3">
            <button type="button" className={buttonClassName('secondary')} onClick={selectOnMap} disabled={assigning}>
              I'LL SELECT ON THE MAP
            </button>
            <button
              type="button"
              className={buttonClassName('primary')}
              onClick={() => void autoAssign()}
              disabled={assigning}
              aria-busy={assigning || undefined}
            >
              {assigning ? 'FINDING A PLOT...' : 'AUTO-ASSIGN A PLOT'}
            </button>
          </div>
          <p className="mt-4 text-sm text-ink-muted">
            Tip: you can also click any empty land tile on the map to claim it.
            {tier ? null : ' You choose the plot size in the claim form.'}
          </p>
        </PixelDialogContent>
      ) : null}
    </Dialog.Root>
  );
}
