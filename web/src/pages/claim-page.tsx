import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessageForDisplay } from '../api/errors.ts';
import { sessionClaimQuery, verifySessionQuery } from '../api/queries.ts';
import { PageContainer } from '../components/app-layout.tsx';
import { ClaimFlow } from '../features/claim/claim-flow.tsx';
import {
  ClaimLoading,
  MissingSessionCard,
  PaymentNotCompleteCard,
  UsedSessionCard,
  VerificationFailedCard,
} from '../features/claim/claim-status.tsx';
import { clearPendingClaim } from '../features/claim/pending-claim.ts';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { SITE_NAME } from '../lib/site.ts';

const INVALID_SESSION_MESSAGE = 'Your payment session is invalid or has expired.';

/** Spec section 2, /claim: the page the checkout returns to with ?session_id=. */
export function ClaimPage() {
  usePageMeta(`Claim Your Plot - ${SITE_NAME}`);
  const [params] = useSearchParams();
  const sessionId = params.get('session_id')?.trim();
  return (
    <PageContainer className="max-w-2xl">
      {sessionId ? <VerifiedClaim key={sessionId} sessionId={sessionId} /> : <MissingSessionCard />}
    </PageContainer>
  );
}

function VerifiedClaim({ sessionId }: { sessionId: string }) {
  const verification = useQuery(verifySessionQuery(sessionId));
  // Asked beside the verification: payments learns of a claim from an event, plots knows it at once.
  const sessionClaim = useQuery(sessionClaimQuery(sessionId));
  const claimedHere = sessionClaim.data?.claimed === true;
  const used = verification.data?.used === true || claimedHere;
  useEffect(() => {
    // Spent: a pending claim left in this tab must never be sent with it (or with any later payment).
    if (used) clearPendingClaim();
  }, [used]);
  // A failed claim-state answer (an older plots replica) only means verify-session's word is all there is.
  if (verification.isPending || sessionClaim.isPending) return <ClaimLoading title="Verifying Payment..." />;
  if (verification.isError) return <VerificationFailedCard message={errorMessageForDisplay(verification.error, INVALID_SESSION_MESSAGE)} />;
  const { verified, paymentStatus, checkoutUrl } = verification.data;
  if (!verified && (paymentStatus === 'open' || paymentStatus === 'processing')) {
    return (
      <PaymentNotCompleteCard
        processing={paymentStatus === 'processing'}
        checkoutUrl={checkoutUrl ?? null}
        checking={verification.isFetching}
        onCheckAgain={() => void verification.refetch()}
      />
    );
  }
  if (!verified) return <VerificationFailedCard message={INVALID_SESSION_MESSAGE} />;
  const { plotId, tier, x, y } = verification.data;
  if (claimedHere) return <UsedSessionCard plotId={sessionClaim.data?.plotId ?? null} knownName={sessionClaim.data?.display_name} />;
  if (used) return <UsedSessionCard plotId={plotId} />;
  // The server's held position fills X and Y when this browser has no pending claim (another device or tab).
  return <ClaimFlow sessionId={sessionId} tier={tier} heldPosition={{ x, y }} />;
}
