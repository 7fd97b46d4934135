import type { Plot } from '@pixel-atlas/contracts/plots';
import { normalizeTier, tierLabel } from '@pixel-atlas/contracts/tier-catalog';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { buttonClassName } from '../../components/button-styles.ts';
import { LazyMapPreview } from '../../map/components/lazy-map-preview.tsx';
import { OwnerLinkNotice } from '../manage/owner-link-notice.tsx';
import { CELEBRATION_MS, REDIRECT_AFTER_MS, celebrate } from './celebration.ts';

/** Router state the plot page reads after a claim, so a plot still under review is explained. */
export interface ClaimedPlotState {
  claimedUnderReview?: boolean;
  /** The owner's private link token, shown once more on the plot page of the browser that claimed it. */
  manageToken?: string;
}

/**
 * 'Plot Claimed!' with confetti for 4 s while the map flies to the new plot and its pin bounces there. With the owner
 * link (a new claim) the page stays until the buyer goes on: the link is the only key to edit the plot, so no timer
 * takes it off the screen before it was copied or the buyer chose to continue. Without one (a claim replayed) the
 * plot's page follows after 4.5 s (spec section 4), and a button goes on at once.
 */
export function ClaimCelebration({ plot, underReview, manageToken }: { plot: Plot; underReview: boolean; manageToken?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const navigate = useNavigate();

  const plotPath = `/plot/${encodeURIComponent(plot.id)}`;
  const plotState: ClaimedPlotState = { claimedUnderReview: underReview, manageToken };
  useEffect(() => {
    const canvas = canvasRef.current;
    const stop = canvas ? celebrate(canvas) : () => {};
    const hide = window.setTimeout(() => canvas?.setAttribute('hidden', ''), CELEBRATION_MS);
    const redirect = manageToken
      ? undefined
      : window.setTimeout(
          () => void navigate(plotPath, { state: { claimedUnderReview: underReview } satisfies ClaimedPlotState }),
          REDIRECT_AFTER_MS,
        );
    return () => {
      stop();
      window.clearTimeout(hide);
      if (redirect !== undefined) window.clearTimeout(redirect);
    };
  }, [navigate, plotPath, underReview, manageToken]);

  const tier = normalizeTier(plot.tier);
  return (
    <section aria-labelledby="celebration-heading" aria-live="polite" className="pixel-panel mx-auto max-w-xl p-6 text-center sm:p-8">
      <canvas ref={canvasRef} aria-hidden="true" className="pointer-events-none fixed inset-0 z-50 h-full w-full" />
      <h1 id="celebration-heading" className="text-lg text-gold md:text-2xl">
        Plot Claimed!
      </h1>
      <p className="mt-4 text-ink">Your {tierLabel(tier)} plot is now yours!</p>
      <LazyMapPreview x={plot.x} y={plot.y} tier={tier} arrive label={`Map: your new plot at (${plot.x}, ${plot.y})`} className="mt-5" />
      {manageToken ? (
        <>
          <p className="mt-4 text-sm text-ink-muted">
            {underReview ? 'It will appear on the map once our team has reviewed it. ' : ''}Save your owner link before you go on: it is the
            only way to change your plot later.
          </p>
          <OwnerLinkNotice token={manageToken} className="mt-6" />
          <Link to={plotPath} state={plotState} className={buttonClassName('primary', 'md', 'mt-5')}>
            Continue to Your Plot
          </Link>
        </>
      ) : (
        <>
          <p className="mt-4 text-sm text-ink-muted">
            {underReview ? 'It will appear on the map once our team has reviewed it. ' : ''}Taking you to your plot page…
          </p>
          <Link to={plotPath} state={plotState} className={buttonClassName('primary', 'md', 'mt-5')}>
            View Your Plot
          </Link>
        </>
      )}
    </section>
  );
}
