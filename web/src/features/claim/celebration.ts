import confetti from 'canvas-confetti';
import { TIERS, TIER_COLOR } from '@pixel-atlas/contracts/tier-catalog';

/** Spec section 9: 50 pieces, celebration 4 s, redirect after 4.5 s. */
export const CONFETTI_PIECES = 50;
export const CELEBRATION_MS = 4000;
export const REDIRECT_AFTER_MS = 4500;

/**
 * Fires 50 pieces in the tier colours on the given canvas and clears them after 4 s. Returns a stop
 * function. Skipped for people who ask for reduced motion; never throws (it is decoration).
 */
export function celebrate(canvas: HTMLCanvasElement): () => void {
  try {
    const fire = confetti.create(canvas, { resize: true, useWorker: false, disableForReducedMotion: true });
    void fire({
      particleCount: CONFETTI_PIECES,
      spread: 90,
      startVelocity: 40,
      ticks: Math.round((CELEBRATION_MS / 1000) * 60),
      origin: { x: 0.5, y: 0.6 },
      colors: TIERS.map((tier) => TIER_COLOR[tier].hex),
    });
    const timer = window.setTimeout(() => fire.reset(), CELEBRATION_MS);
    return () => {
      window.clearTimeout(timer);
      fire.reset();
    };
  } catch {
    return () => {};
  }
}
