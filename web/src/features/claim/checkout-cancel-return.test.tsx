import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { useCheckoutCancelReturn } from './checkout-cancel-return.ts';
import { ClaimPopup, type Tile } from './claim-popup.tsx';
import type { PendingClaim } from './pending-claim.ts';

/** Where the claim popup lives (the home map), reduced to what the return needs. */
function Harness({ onReopen }: { onReopen: (tile: Tile, tier: Tier) => void }) {
  const [open, setOpen] = useState<{ tile: Tile; tier: Tier } | null>(null);
  const location = useLocation();
  useCheckoutCancelReturn((tile, tier) => {
    onReopen(tile, tier);
    setOpen({ tile, tier });
  });
  return (
    <>
      <output data-testid="address">{location.pathname + location.search}</output>
      <ClaimPopup tile={open?.tile ?? null} open={open !== null} onOpenChange={() => setOpen(null)} initialTier={open?.tier} />
    </>
  );
}

const draft: PendingClaim = {
  x: 30,
  y: 31,
  display_name: 'Ada Pixel',
  message: 'Back again',
  link: 'https://ada.example/',
  tier: 'prime',
  avatar_url: 'data:image/png;base64,SAVED',
};

describe('back from a cancelled checkout', () => {
  it('says so once, reopens the popup at the tile with the tier and what was typed, and drops the query', async () => {
    sessionStorage.setItem('pendingClaim', JSON.stringify(draft));
    const onReopen = vi.fn();
    renderWithProviders(<Harness onReopen={onReopen} />, { path: '/?checkout=cancelled&tier=prime&x=30&y=31' });
    expect(await screen.findByText('Checkout Cancelled')).toBeTruthy();
    expect(screen.getByText('No payment was taken. The tile is free again.')).toBeTruthy();
    expect(onReopen).toHaveBeenCalledTimes(1);
    expect(onReopen).toHaveBeenCalledWith({ x: 30, y: 31 }, 'prime');
    const popup = screen.getByRole('dialog', { name: 'Claim This Tile' });
    expect(within(popup).getByText('Position (30, 31)')).toBeTruthy();
    expect(within(popup).getByLabelText<HTMLInputElement>('Display name').value).toBe('Ada Pixel');
    expect(within(popup).getByLabelText<HTMLTextAreaElement>('Message').value).toBe('Back again');
    expect(within(popup).getByLabelText<HTMLInputElement>('Link (optional)').value).toBe('https://ada.example/');
    expect(within(popup).getByAltText('Your saved avatar').getAttribute('src')).toBe('data:image/png;base64,SAVED');
    expect(within(popup).getByRole('radio', { name: /Prime/ }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('address').textContent).toBe('/');
  });

  it('a cancel without a purchase to reopen only says so; other tiles start empty', async () => {
    sessionStorage.setItem('pendingClaim', JSON.stringify({ ...draft, x: 5 }));
    const onReopen = vi.fn();
    renderWithProviders(<Harness onReopen={onReopen} />, { path: '/?checkout=cancelled' });
    expect(await screen.findByText('Checkout Cancelled')).toBeTruthy();
    expect(onReopen).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
