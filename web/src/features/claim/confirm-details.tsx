import { PLOT_CHANGE_POLICY } from '@pixel-atlas/contracts/policy';
import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { TIER_SIZE } from '@pixel-atlas/contracts/tier-catalog';
import { zoneName } from '@pixel-atlas/contracts/zones';
import type { ReactNode } from 'react';
import { TierBadge } from '../plots/tier-badge.tsx';

export interface ConfirmDetailsData {
  display_name: string;
  message: string;
  link: string;
  x: number;
  y: number;
  zone: string;
  tier: Tier;
  /** The saved avatar image, or a node standing in for it (the /demo sample). */
  avatar: string | ReactNode;
}

/**
 * 'Confirm your plot details' (spec section 2): what will be claimed, what of it is final (the one policy sentence),
 * and the two buttons the caller wires (EDIT DETAILS, CONFIRM & CLAIM). /claim and /demo share it.
 */
export function ConfirmDetails({
  data,
  actions,
  headingLevel = 2,
}: {
  data: ConfirmDetailsData;
  actions: ReactNode;
  headingLevel?: 1 | 2;
}) {
  const size = TIER_SIZE[data.tier];
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section aria-labelledby="confirm-heading" className="pixel-panel p-6">
      <Heading id="confirm-heading" className="text-sm text-gold md:text-base">
        Confirm your plot details
      </Heading>
      <div className="mt-6 flex items-center gap-4">
        {typeof data.avatar === 'string' ? (
          <img src={data.avatar} alt="Your avatar" className="size-20 shrink-0 rounded-full border-2 border-black object-cover" />
        ) : (
          data.avatar
        )}
        <div className="min-w-0">
          <p className="text-lg font-semibold break-words text-ink">{data.display_name}</p>
          {data.message ? <p className="text-sm break-words text-ink-muted">{data.message}</p> : null}
        </div>
      </div>
      <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
        <dt className="text-ink-muted">Display name</dt>
        <dd className="break-words text-ink">{data.display_name}</dd>
        <dt className="text-ink-muted">Message</dt>
        <dd className="break-words text-ink">{data.message || '—'}</dd>
        <dt className="text-ink-muted">Link</dt>
        <dd className="break-all text-sky">{data.link || '—'}</dd>
        <dt className="text-ink-muted">Location</dt>
        <dd className="text-ink">
          ({data.x}, {data.y})
        </dd>
        <dt className="text-ink-muted">Zone</dt>
        <dd className="text-ink">{zoneName(data.zone)}</dd>
        <dt className="text-ink-muted">Tier</dt>
        <dd className="text-ink">
          <TierBadge tier={data.tier} /> {size}x{size}
        </dd>
      </dl>
      <p data-testid="plot-policy" className="mt-6 border-2 border-gold p-3 text-sm text-ink">
        {PLOT_CHANGE_POLICY} Please check everything before you confirm.
      </p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{actions}</div>
    </section>
  );
}
