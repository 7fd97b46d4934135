import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { plotQuery } from '../../api/queries.ts';
import { buttonClassName } from '../../components/button-styles.ts';

/** Spec section 2, /claim without session_id. */
export function MissingSessionCard() {
  return (
    <StatusCard title="Missing Session ID" subtitle="We couldn't find your payment session ID.">
      <p className="text-ink-muted">
        You need to complete a payment first before claiming a plot. Please return to the homepage and select a tier.
      </p>
    </StatusCard>
  );
}

/** Spec section 2, /claim when the session cannot be verified. */
export function VerificationFailedCard({ message }: { message: string }) {
  return (
    <StatusCard title="Payment Verification Failed" subtitle="We couldn't verify your payment session." alert>
      <p className="text-ink-muted">{message}</p>
    </StatusCard>
  );
}

/**
 * /claim for a checkout that is not paid yet: the truth (not "invalid or has expired" while it is still open), the way
 * back to the checkout when it can still be finished, and a check again for a payment that is on its way.
 */
export function PaymentNotCompleteCard({
  processing,
  checkoutUrl,
  onCheckAgain,
  checking,
}: {
  /** The checkout was completed but the money has not arrived yet (a delayed payment method). */
  processing: boolean;
  checkoutUrl: string | null;
  onCheckAgain: () => void;
  checking: boolean;
}) {
  return (
    <StatusCard
      title={processing ? 'Payment Processing' : 'Payment Not Complete'}
      subtitle={processing ? 'Your payment has not arrived yet.' : "Your payment hasn't been completed yet."}
    >
      <p className="text-ink-muted">
        {processing
          ? 'Your payment provider has not confirmed it yet. Check again in a minute: your plot can be claimed as soon as it arrives.'
          : 'Your checkout is still open. Finish paying and you will come back here to claim your plot. Already paid? Check again in a moment.'}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        {checkoutUrl && !processing ? (
          <a href={checkoutUrl} className={buttonClassName('primary', 'md')}>
            Finish Paying
          </a>
        ) : null}
        <button
          type="button"
          className={buttonClassName('secondary', 'md')}
          onClick={onCheckAgain}
          disabled={checking}
          aria-busy={checking || undefined}
        >
          {checking ? 'Checking...' : 'Check Again'}
        </button>
      </div>
    </StatusCard>
  );
}

/**
 * /claim for a session that already bought a plot (Back after the claim, the link opened again, another browser): the
 * truth and the way to the plot, never a fresh form that could only fail. `knownName`: the name plots gave with the
 * session's claim (shown even while the plot waits for review and has no public page).
 */
export function UsedSessionCard({ plotId, knownName }: { plotId: string | null; knownName?: string | null }) {
  const plot = useQuery({ ...plotQuery(plotId ?? ''), enabled: plotId !== null });
  const name = plot.data?.display_name ?? knownName ?? undefined;
  return (
    <StatusCard
      title="Plot Already Claimed"
      subtitle={name ? `This payment already claimed ${name}` : 'This payment already claimed a plot'}
    >
      {plotId ? (
        <p className="text-ink-muted">
          <Link to={`/plot/${plotId}`} className="font-semibold text-gold underline underline-offset-4">
            {name ? `View ${name}'s Plot` : 'View the plot'}
          </Link>
        </p>
      ) : (
        <p className="text-ink-muted">That plot has since been removed from the map.</p>
      )}
    </StatusCard>
  );
}

function StatusCard({
  title,
  subtitle,
  alert = false,
  children,
}: {
  title: string;
  subtitle: string;
  alert?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="claim-status-heading" className="pixel-panel mx-auto max-w-xl p-6" role={alert ? 'alert' : undefined}>
      <h1 id="claim-status-heading" className="text-sm text-gold md:text-base">
        {title}
      </h1>
      <p className="mt-3 font-semibold text-ink">{subtitle}</p>
      <div className="mt-3">{children}</div>
      <Link to="/" className={buttonClassName('primary', 'md', 'mt-6')}>
        Return to Homepage
      </Link>
    </section>
  );
}

/** 'Verifying Payment...' / 'Creating Your Plot...' with skeletons of the form to come. */
export function ClaimLoading({ title }: { title: string }) {
  return (
    <section aria-busy="true" aria-live="polite" className="pixel-panel mx-auto max-w-xl p-6">
      <h1 className="text-sm text-gold md:text-base">{title}</h1>
      <div aria-hidden="true" className="mt-6 grid animate-pulse gap-4">
        <div className="h-4 w-2/3 bg-panel-raised" />
        <div className="h-11 bg-panel-raised" />
        <div className="h-24 bg-panel-raised" />
        <div className="h-11 bg-panel-raised" />
        <div className="flex items-center gap-4">
          <div className="size-16 rounded-full bg-panel-raised" />
          <div className="h-11 flex-1 bg-panel-raised" />
        </div>
      </div>
    </section>
  );
}
