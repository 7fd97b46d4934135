import { createHash } from 'node:crypto';
import type { Plot } from '@pixel-atlas/contracts/plots';

/** The share card's pixel size (Open Graph's large image: Facebook, LinkedIn, X's summary_large_image). */
export const SHARE_CARD_SIZE = { width: 1200, height: 630 } as const;

export type CardFields = Pick<Plot, 'id' | 'display_name' | 'tier' | 'x' | 'y' | 'avatar_url'> & { region_name?: string | null };

/**
 * What a plot's card shows of the plot: a different version is a different picture. It is in the card's URL, so a
 * changed plot (name, avatar: its URL carries a version) gets a new address, and link previews, which cache images
 * by URL, fetch the new one.
 */
export function shareCardVersion(plot: CardFields): string {
  const drawn = [plot.id, plot.display_name, plot.tier, plot.x, plot.y, plot.region_name ?? '', plot.avatar_url];
  return createHash('sha256').update(JSON.stringify(drawn)).digest('base64url').slice(0, 16);
}

/** The card's path on the gateway (made absolute with the public origin in pages). */
export function shareCardPath(plot: CardFields): string {
  return `/share-card/${plot.id}.png?v=${shareCardVersion(plot)}`;
}
