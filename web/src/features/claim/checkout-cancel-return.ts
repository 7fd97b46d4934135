import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import { isTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useEffect, useEffectEvent, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../../hooks/use-toast.ts';
import type { Tile } from './claim-popup.tsx';

const RETURN_PARAMS = ['checkout', 'tier', 'x', 'y'] as const;

/** `/?checkout=cancelled&tier=&x=&y=` (payments' cancel redirect, after it released the hold): the purchase to reopen. */
export function readCancelledCheckout(params: URLSearchParams): { tile: Tile; tier: Tier } | 'no-purchase' | null {
  if (params.get('checkout') !== 'cancelled') return null;
  const tier = params.get('tier');
  const x = Number(params.get('x') ?? NaN);
  const y = Number(params.get('y') ?? NaN);
  const onGrid = (n: number) => Number.isInteger(n) && n >= 0 && n < GRID_SIZE;
  return isTier(tier) && onGrid(x) && onGrid(y) ? { tile: { x, y }, tier } : 'no-purchase';
}

/**
 * Back from a cancelled checkout: says the tile is free again and hands the purchase to `reopen` (the map
 * moves there and the claim popup opens with the pending claim's details, see claim-popup.tsx). The query is
 * dropped from the address so a reload or Back does not reopen it again.
 */
export function useCheckoutCancelReturn(reopen: (tile: Tile, tier: Tier) => void): void {
  const [params, setParams] = useSearchParams();
  const handled = useRef<string | null>(null);
  const reopenPurchase = useEffectEvent(reopen);

  useEffect(() => {
    const cancelled = readCancelledCheckout(params);
    // StrictMode runs effects twice on one instance: the ref keeps the toast and the popup to one.
    if (!cancelled || handled.current === params.toString()) return;
    handled.current = params.toString();
    const rest = new URLSearchParams(params);
    for (const name of RETURN_PARAMS) rest.delete(name);
    setParams(rest, { replace: true });
    // The claim flow's own wording, loaded with the claim popup it reopens: the home map's first load stays without
    // the claim code (the bundler keeps the claim messages with the claim's schemas).
    void import('./claim-messages.ts').then(({ CLAIM_TOASTS }) => toast(CLAIM_TOASTS.checkoutCancelled));
    if (cancelled !== 'no-purchase') reopenPurchase(cancelled.tile, cancelled.tier);
  }, [params, setParams]);
}
