import type { Plot } from '@pixel-atlas/contracts/plots';
import { tierLabel, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { DEFAULT_ZONE } from '@pixel-atlas/contracts/zones';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { markSessionUsed } from '../../api/queries.ts';
import { buttonClassName } from '../../components/button-styles.ts';
import { LazyMapPreview } from '../../map/components/lazy-map-preview.tsx';
import { ClaimCelebration } from './claim-celebration.tsx';
import { ClaimDetailsForm, parsePosition, type ClaimDraft } from './claim-details-form.tsx';
import { ClaimLoading } from './claim-status.tsx';
import { ConfirmDetails } from './confirm-details.tsx';
import { ContentReviewDialog } from './content-review-dialog.tsx';
import { contentReviewKey, needsContentReview } from './content-review.ts';
import { clearPendingClaim, readPendingClaim, type PendingClaim } from './pending-claim.ts';
import { normalizeProfile } from './profile-validation.ts';
import { useClaimSubmission, type ClaimPlotBody } from './use-claim-submission.ts';

/**
 * Sessions whose pending claim is being sent from this page load. React StrictMode runs effects
 * twice and the page may remount while the request runs; a paid claim must still go out once.
 * Once answered, the pending claim is gone from storage, which keeps it from going out again.
 */
const autoClaimedSessions = new Set<string>();

type Stage = 'auto' | 'form' | 'confirm';

/** After verification: auto-claim a pending claim once, else the form, the confirm review, the celebration. */
export function ClaimFlow({ sessionId, tier, heldPosition }: { sessionId: string; tier: Tier; heldPosition?: { x: number; y: number } }) {
  const [pending] = useState(readPendingClaim);
  const [draft, setDraft] = useState<ClaimDraft>(() => draftFrom(pending, heldPosition));
  const [stage, setStage] = useState<Stage>(() => (pending && !autoClaimedSessions.has(sessionId) ? 'auto' : 'form'));
  // The popup already asked about flagged words (and kept the address) for the pending claim's texts.
  const [screenedTexts, setScreenedTexts] = useState(() => (pending ? contentReviewKey(pending) : null));
  const [notificationEmail, setNotificationEmail] = useState(pending?.notification_email);
  const [reviewOpen, setReviewOpen] = useState(false);
  const [claimed, setClaimed] = useState<{ plot: Plot; underReview: boolean; manageToken?: string } | null>(null);
  const queryClient = useQueryClient();

  // Once the saved claim has been answered it is spent: whatever happens next happens in the form.
  const spend = () => {
    clearPendingClaim();
    autoClaimedSessions.delete(sessionId);
  };
  const submission = useClaimSubmission({
    onClaimed: (plot, underReview, manageToken) => {
      spend();
      setClaimed({ plot, underReview, manageToken });
    },
    onPositionLost: () => {
      spend();
      setDraft((current) => ({ ...current, x: '', y: '' }));
      setStage('form');
    },
    onFailed: (auto) => {
      if (!auto) return;
      spend();
      setStage('form');
    },
  });

  // TanStack Query keeps `mutate` the same function for the component's life: the effect still runs once per session.
  const submitClaim = submission.mutate;
  useEffect(() => {
    if (!pending || autoClaimedSessions.has(sessionId)) return;
    autoClaimedSessions.add(sessionId);
    // Spec section 4: zone nexus; the tier is the one paid for.
    const payload: ClaimPlotBody = {
      ...normalizeProfile(pending),
      zone: DEFAULT_ZONE,
      x: pending.x,
      y: pending.y,
      stripeSessionId: sessionId,
      tier,
      avatar_url: pending.avatar_url,
      ...(pending.notification_email ? { notification_email: pending.notification_email } : {}),
    };
    submitClaim({ payload, auto: true });
  }, [pending, sessionId, tier, submitClaim]);

  const claimedPlotId = claimed?.plot.id;
  useEffect(() => {
    if (!claimedPlotId) return;
    // On leaving (the celebration's redirect), not at once: the page would swap the celebration for the
    // 'already claimed' card. Back to this page then finds the truth instead of the form.
    return () => markSessionUsed(queryClient, sessionId, claimedPlotId);
  }, [claimedPlotId, queryClient, sessionId]);

  if (claimed) return <ClaimCelebration plot={claimed.plot} underReview={claimed.underReview} manageToken={claimed.manageToken} />;
  if (stage === 'auto') return <ClaimLoading title="Creating Your Plot..." />;

  const submitConfirmed = (email: string | undefined) => {
    const position = parsePosition(draft, tier);
    if (typeof position === 'string' || !draft.avatar_url) {
      setStage('form');
      return;
    }
    const payload: ClaimPlotBody = {
      ...normalizeProfile(draft),
      zone: draft.zone,
      ...position,
      stripeSessionId: sessionId,
      tier,
      avatar_url: draft.avatar_url,
      ...(email ? { notification_email: email } : {}),
    };
    submission.mutate({ payload, auto: false });
  };

  const confirm = () => {
    if (contentReviewKey(draft) !== screenedTexts && needsContentReview(draft)) {
      setReviewOpen(true);
      return;
    }
    submitConfirmed(notificationEmail);
  };

  const afterReview = (email: string | undefined) => {
    setReviewOpen(false);
    setScreenedTexts(contentReviewKey(draft));
    setNotificationEmail(email);
    submitConfirmed(email);
  };

  const position = parsePosition(draft, tier);
  return (
    <>
      <header className="mb-6 text-center">
        <h1 className="text-base text-gold md:text-xl">Payment Successful! Claim Your Plot</h1>
        <p className="mt-3 text-ink-muted">Complete the form below to finalize your {tierLabel(tier)} plot</p>
      </header>
      {typeof position === 'string' ? null : (
        // Where the payment holds the plot (from this browser's draft or the server's verify-session), as X and Y say.
        <LazyMapPreview
          x={position.x}
          y={position.y}
          tier={tier}
          label={`Map: your plot's position at (${position.x}, ${position.y})`}
          className="mb-6"
        />
      )}
      {stage === 'confirm' && typeof position !== 'string' && draft.avatar_url ? (
        <ConfirmDetails
          data={{ ...draft, ...position, tier, avatar: draft.avatar_url }}
          actions={
            <>
              <button
                type="button"
                className={buttonClassName('secondary')}
                disabled={submission.isPending}
                onClick={() => setStage('form')}
              >
                EDIT DETAILS
              </button>
              <button
                type="button"
                className={buttonClassName('primary')}
                disabled={submission.isPending}
                aria-busy={submission.isPending || undefined}
                onClick={confirm}
              >
                {submission.isPending ? 'CLAIMING...' : 'CONFIRM & CLAIM'}
              </button>
            </>
          }
        />
      ) : (
        <ClaimDetailsForm tier={tier} draft={draft} onDraftChange={setDraft} onReview={() => setStage('confirm')} />
      )}
      <ContentReviewDialog open={reviewOpen} onOpenChange={setReviewOpen} onCreate={afterReview} onSkip={() => afterReview(undefined)} />
    </>
  );
}

function draftFrom(pending: PendingClaim | null, held: { x: number; y: number } | undefined): ClaimDraft {
  const position = pending ?? held;
  return {
    display_name: pending?.display_name ?? '',
    message: pending?.message ?? '',
    link: pending?.link ?? '',
    zone: DEFAULT_ZONE,
    x: position ? String(position.x) : '',
    y: position ? String(position.y) : '',
    avatar_url: pending?.avatar_url ?? null,
  };
}
