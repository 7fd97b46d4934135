import type { Plot } from '@pixel-atlas/contracts/plots';
import { normalizeTier, tierLabel } from '@pixel-atlas/contracts/tier-catalog';
import { SITE_NAME } from '../../lib/site.ts';

export type ShareNetwork = 'Twitter' | 'Facebook' | 'LinkedIn' | 'Reddit';
export const SHARE_NETWORKS: readonly ShareNetwork[] = ['Twitter', 'Facebook', 'LinkedIn', 'Reddit'];

/** Spec section 2: {product}, DigitalLandscape, CreatorSpace (a hashtag has no spaces). */
export const SHARE_HASHTAGS = [SITE_NAME.replace(/[^\p{L}\p{N}_]/gu, ''), 'DigitalLandscape', 'CreatorSpace'];

export type SharedPlot = Pick<Plot, 'id' | 'tier' | 'x' | 'y'> & { message?: string | null };

export function plotShareUrl(plotId: string, origin: string = window.location.origin): string {
  return `${origin}/plot/${encodeURIComponent(plotId)}`;
}

/** The plot's message, or a sentence naming its tier and coordinates. */
export function plotShareText(plot: SharedPlot): string {
  const message = plot.message?.trim();
  if (message) return message;
  return `Check out this ${tierLabel(normalizeTier(plot.tier))} plot claimed at coordinates (${plot.x}, ${plot.y}) on the ${SITE_NAME} map!`;
}

export function networkShareUrl(network: ShareNetwork, url: string, text: string): string {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  switch (network) {
    case 'Twitter':
      return `https://twitter.com/intent/tweet?${q({ text, url, hashtags: SHARE_HASHTAGS.join(',') })}`;
    case 'Facebook':
      return `https://www.facebook.com/sharer/sharer.php?${q({ u: url, quote: text })}`;
    case 'LinkedIn':
      return `https://www.linkedin.com/sharing/share-offsite/?${q({ url })}`;
    case 'Reddit':
      return `https://www.reddit.com/submit?${q({ url, title: text })}`;
  }
}

/** A 600x400 popup that cannot reach back into this page. */
export function openSharePopup(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer,width=600,height=400');
}
