import * as Dialog from '@radix-ui/react-dialog';
import { CHECK_BEFORE_PAYING, PLOT_CHANGE_POLICY, SALES_FINAL } from '@pixel-atlas/contracts/policy';
import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { buttonClassName } from '../../components/button-styles.ts';
import { PixelDialogContent } from '../../components/pixel-dialog.tsx';
import { toast } from '../../hooks/use-toast.ts';
import { SELECTED_TIER_KEY } from '../../lib/storage-keys.ts';
import { revealMapTile } from '../../map/components/map-reveal.ts';
import { AvatarUploader } from './avatar-uploader.tsx';
import { CLAIM_TOASTS } from './claim-messages.ts';
import { ContentReviewDialog } from './content-review-dialog.tsx';
import { needsContentReview } from './content-review.ts';
import { savePendingClaim, clearPendingClaim, readPendingClaim } from './pending-claim.ts';
import { checkPosition } from './position-check.ts';
import { ProfileFields } from './profile-fields.tsx';
import { FootprintConflictNote } from './reserved-land-note.tsx';
import { normalizeProfile, validateProfile, type ProfileErrors, type ProfileDraft } from './profile-validation.ts';
import { NotHeldNotice } from './not-held-notice.tsx';
import { dropCheckout, goToCheckout, startCheckout, type UnheldCheckout } from './start-checkout.ts';
import { storedTier } from './stored-tier.ts';
import { TierRadioList } from './tier-radio-list.tsx';
import { useTierPrice } from './use-prices.tsx';

export interface Tile {
  x: number;
  y: number;
}

interface ClaimPopupProps {
  /** The tile chosen on the map (or by auto-assign); null when none is chosen. */
  tile: Tile | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Starting tier; defaults to selectedTier from local storage (else basic). */
  initialTier?: Tier;
  /** Follows the chosen tier (the map pin takes its colour). */
  onTierChange?: (tier: Tier) => void;
}

/** Spec section 2, Claim popup: 'Claim This Tile' for (x, y); the backdrop, Escape and × close it. */
export function ClaimPopup({ tile, open, onOpenChange, initialTier, onTierChange }: ClaimPopupProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {open ? (
        <PixelDialogContent
          title="Claim This Tile"
          description={tile ? `Position (${tile.x}, ${tile.y})` : 'No tile selected yet: choose an empty land tile on the map.'}
          placement="beside-map"
        >
          <ClaimPopupForm
            tile={tile}
            initialTier={initialTier ?? storedTier()}
            onTierChange={onTierChange}
            onCancel={() => onOpenChange(false)}
          />
        </PixelDialogContent>
      ) : null}
    </Dialog.Root>
  );
}

const EMPTY_DRAFT: ProfileDraft = { display_name: '', message: '', link: '' };

function pendingClaimFor(tile: Tile | null) {
  const pending = readPendingClaim();
  return pending && tile && pending.x === tile.x && pending.y === tile.y ? pending : null;
}

/**
 * The buyer sees the spot being bought: the map pans it (with the pin, the tier's whole footprint) out from under
 * the dialog around `formRef`, beside it on a desktop, above the sheet on a phone.
 */
function useRevealClaimedTile(tile: Tile | null, tier: Tier, formRef: RefObject<HTMLFormElement | null>) {
  const tileX = tile?.x;
  const tileY = tile?.y;
  useEffect(() => {
    if (tileX === undefined || tileY === undefined) return;
    revealMapTile({ x: tileX, y: tileY, size: TIER_SIZE[tier], besides: formRef.current?.closest('[role="dialog"]') ?? null });
  }, [tileX, tileY, tier, formRef]);
}

/** Saves the pending claim and starts the checkout; `busy` while it runs, `unheld` when the spot could not be held. */
function useClaimCheckout({ tile, avatar, draft, tier }: { tile: Tile | null; avatar: string | null; draft: ProfileDraft; tier: Tier }) {
  const [busy, setBusy] = useState(false);
  // A checkout that could not hold the spot: the buyer is told before going on to pay.
  const [unheld, setUnheld] = useState<UnheldCheckout | null>(null);

  const pay = async (notificationEmail?: string) => {
    if (!tile || !avatar) return;
    setBusy(true);
    // Spec section 4: on submit selectedTier is cleared, the pending claim saved, then the checkout starts.
    localStorage.removeItem(SELECTED_TIER_KEY);
    savePendingClaim({
      x: tile.x,
      y: tile.y,
      ...normalizeProfile(draft),
      link: draft.link.trim(),
      tier,
      avatar_url: avatar,
      ...(notificationEmail ? { notification_email: notificationEmail } : {}),
    });
    const outcome = await startCheckout({ tier, x: tile.x, y: tile.y });
    if (outcome && 'unheld' in outcome) {
      setUnheld(outcome.unheld);
    } else if (outcome) {
      // No checkout: a claim saved for it must not be claimed with some later payment.
      clearPendingClaim();
      toast(outcome.problem);
      setBusy(false);
    }
    // Otherwise the browser is on its way to the checkout page; the button stays disabled.
  };

  const continueUnheld = () => {
    if (unheld) goToCheckout(unheld);
  };

  const abandonUnheld = () => {
    if (unheld) dropCheckout(unheld);
    clearPendingClaim();
    setUnheld(null);
    setBusy(false);
  };

  return { busy, setBusy, unheld, pay, continueUnheld, abandonUnheld };
}

/** CANCEL, PAY & CLAIM (with the price once the server's has arrived) and the policy line under them. */
function ClaimFormFooter({ busy, price, onCancel }: { busy: boolean; price: string | null; onCancel: () => void }) {
  return (
    <>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className={buttonClassName('secondary')} onClick={onCancel}>
          CANCEL
        </button>
        <button type="submit" className={buttonClassName('primary')} disabled={busy} aria-busy={busy || undefined}>
          {price ? `PAY & CLAIM (${price})` : 'PAY & CLAIM'}
        </button>
      </div>
      <p data-testid="plot-policy" className="text-xs text-ink-muted">
        {`${CHECK_BEFORE_PAYING} ${SALES_FINAL} ${PLOT_CHANGE_POLICY}`}
      </p>
    </>
  );
}

function ClaimPopupForm({
  tile,
  initialTier,
  onTierChange,
  onCancel,
}: {
  tile: Tile | null;
  initialTier: Tier;
  onTierChange?: (tier: Tier) => void;
  onCancel: () => void;
}) {
  // What was typed for this tile before a checkout that did not go through (cancelled, or left with Back).
  const [earlier] = useState(() => pendingClaimFor(tile));
  const [draft, setDraft] = useState<ProfileDraft>(() =>
    earlier ? { display_name: earlier.display_name, message: earlier.message, link: earlier.link } : EMPTY_DRAFT,
  );
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [tier, setTier] = useState<Tier>(initialTier);
  const [avatar, setAvatar] = useState<string | null>(earlier?.avatar_url ?? null);
  const [reviewOpen, setReviewOpen] = useState(false);
  const { busy, setBusy, unheld, pay, continueUnheld, abandonUnheld } = useClaimCheckout({ tile, avatar, draft, tier });
  // Spec 'PAY & CLAIM ($price)': without the amount until the server's price has arrived.
  const price = useTierPrice(tier);
  const formRef = useRef<HTMLFormElement>(null);
  useRevealClaimedTile(tile, tier, formRef);

  const chooseTier = (next: Tier) => {
    setTier(next);
    onTierChange?.(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!tile) {
      toast(CLAIM_TOASTS.missingTile);
      return;
    }
    const fieldErrors = validateProfile(draft);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) return;
    if (!avatar) {
      toast(CLAIM_TOASTS.missingAvatar);
      return;
    }
    setBusy(true);
    const problem = await checkPosition(tile.x, tile.y, tier);
    if (problem) {
      toast(problem);
      setBusy(false);
      return;
    }
    if (needsContentReview(draft)) {
      setBusy(false);
      setReviewOpen(true);
      return;
    }
    await pay();
  };

  return (
    <>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        {/* Two columns from 768 px: the whole form and PAY & CLAIM fit a 1366×768 screen without scrolling. */}
        <div className="grid gap-4 md:grid-cols-[5fr_6fr] md:gap-x-6">
          <div className="grid content-start gap-4">
            <ProfileFields
              draft={draft}
              errors={errors}
              onChange={(field, value) => {
                setDraft((current) => ({ ...current, [field]: value }));
                setErrors((current) => ({ ...current, [field]: undefined }));
              }}
            />
          </div>
          <div className="grid content-start gap-4">
            <TierRadioList value={tier} onChange={chooseTier} />
            {tile ? <FootprintConflictNote tile={tile} tier={tier} /> : null}
            <AvatarUploader value={avatar} onChange={setAvatar} shape="round" />
          </div>
        </div>
        <ClaimFormFooter busy={busy} price={price} onCancel={onCancel} />
      </form>
      <NotHeldNotice open={unheld !== null} onContinue={continueUnheld} onBack={abandonUnheld} />
      {/* Outside the form: React bubbles the dialog's own submit through the portal to its React parents. */}
      <ContentReviewDialog
        open={reviewOpen}
        onOpenChange={setReviewOpen}
        onCreate={(email) => {
          setReviewOpen(false);
          void pay(email);
        }}
        onSkip={() => {
          setReviewOpen(false);
          void pay();
        }}
      />
    </>
  );
}
