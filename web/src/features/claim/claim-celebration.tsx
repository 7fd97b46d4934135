import type { Plot } from '@pixel-atlas/contracts/plots';
import { normalizeTier, tierLabel } from '@pixel-atlas/contracts/tier-catalog';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { CELEBRATION_MS, REDIRECT_AFTER_MS, celebrate } from './celebration.ts';

/** Router state the plot page reads after a claim, so a plot still under review is explained. */
export interface ClaimedPlotState {
  claimedUnderReview?: boolean;
}

/** 'Plot Claimed!' with confetti for 4 s, then the plot's page after 4.5 s (spec section 4). */
export function ClaimCelebration({ plot, underReview }: { plot: Plot; underReview: boolean }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const canvas = canvasRef.current;
    const stop = canvas ? celebrate(canvas) : () => {};
    const hide = window.setTimeout(() => canvas?.setAttribute('hidden', ''), CELEBRATION_MS);
    const redirect = window.setTimeout(() => {
      const state: ClaimedPlotState = { claimedUnderReview: underReview };
      navigate(`/plot/${encodeURIComponent(plot.id)}`, { state });
    }, REDIRECT_AFTER_MS);
    return () => {
      stop();
      window.clearTimeout(hide);
      window.clearTimeout(redirect);
    };
  }, [navigate, plot.id, underReview]);

  return (
    <section aria-labelledby="celebration-heading" aria-live="polite" className="pixel-panel mx-auto max-w-xl p-8 text-center">
      <canvas ref={canvasRef} aria-hidden="true" className="pointer-events-none fixed inset-0 z-50 h-full w-full" />
      <h1 id="celebration-heading" className="text-lg text-gold md:text-2xl">
        Plot Claimed!
      </h1>
      <p className="mt-4 text-ink">Your {tierLabel(normalizeTier(plot.tier))} plot is now yours!</p>
      <p className="mt-2 text-sm text-ink-muted">
        {underReview ? 'It will appear on the map once our team has reviewed it. ' : ''}Taking you to your plot page…
      </p>
    </section>
  );
}
