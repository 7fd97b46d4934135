import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { dispatchTierGuidance } from '../../lib/tier-guidance.ts';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { findFreePosition } from './auto-assign.ts';
import { TierGuidanceDialog } from './tier-guidance-dialog.tsx';

vi.mock('./auto-assign.ts', () => ({ findFreePosition: vi.fn() }));

function renderGuidance() {
  const onAutoAssign = vi.fn();
  const onTierSelected = vi.fn();
  renderWithProviders(<TierGuidanceDialog onAutoAssign={onAutoAssign} onTierSelected={onTierSelected} />);
  return { onAutoAssign, onTierSelected };
}

describe('tier guidance dialog', () => {
  it("opens on the 'tierGuidance' event with the tier's title, question, both choices and the hint", () => {
    const { onTierSelected } = renderGuidance();
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => dispatchTierGuidance({ tier: 'premium' }));
    const dialog = screen.getByRole('dialog', { name: 'Premium Tier Selected!' });
    expect(dialog.textContent).toContain('How would you like to choose your plot location?');
    expect(screen.getByRole('button', { name: "I'LL SELECT ON THE MAP" })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'AUTO-ASSIGN A PLOT' })).toBeTruthy();
    expect(dialog.textContent).toMatch(/click any empty land tile/);
    expect(onTierSelected).toHaveBeenCalledWith('premium');
  });

  it('uses the stored tier when the event carries none', () => {
    localStorage.setItem('selectedTier', 'featured');
    renderGuidance();
    act(() => dispatchTierGuidance());
    expect(screen.getByRole('dialog', { name: 'Featured Tier Selected!' })).toBeTruthy();
  });

  it('names no tier when none was chosen (Claim Your Tile before any SELECT), and auto-assigns for the smallest plot', async () => {
    const user = userEvent.setup();
    vi.mocked(findFreePosition).mockResolvedValueOnce({ x: 30, y: 35 });
    const { onAutoAssign, onTierSelected } = renderGuidance();
    act(() => dispatchTierGuidance());
    const dialog = screen.getByRole('dialog', { name: 'Choose Your Plot Location' });
    expect(dialog.textContent).not.toMatch(/Basic|Featured|Prime|Premium/);
    expect(dialog.textContent).toContain('You choose the plot size in the claim form.');
    expect(onTierSelected).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'AUTO-ASSIGN A PLOT' }));
    await waitFor(() => expect(onAutoAssign).toHaveBeenCalledWith({ x: 30, y: 35 }, 'basic'));
  });

  it("'I'LL SELECT ON THE MAP' closes and scrolls to the top", async () => {
    const user = userEvent.setup();
    const scrollTo = vi.spyOn(window, 'scrollTo');
    renderGuidance();
    act(() => dispatchTierGuidance({ tier: 'basic' }));
    await user.click(screen.getByRole('button', { name: "I'LL SELECT ON THE MAP" }));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("'AUTO-ASSIGN A PLOT' finds a free spot for the tier and hands it over", async () => {
    const user = userEvent.setup();
    vi.mocked(findFreePosition).mockResolvedValueOnce({ x: 25, y: 40 });
    const { onAutoAssign } = renderGuidance();
    act(() => dispatchTierGuidance({ tier: 'prime' }));
    await user.click(screen.getByRole('button', { name: 'AUTO-ASSIGN A PLOT' }));
    await waitFor(() => expect(onAutoAssign).toHaveBeenCalledWith({ x: 25, y: 40 }, 'prime'));
    expect(vi.mocked(findFreePosition)).toHaveBeenCalledWith('prime');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says so when no spot is free, and stays open', async () => {
    const user = userEvent.setup();
    vi.mocked(findFreePosition).mockResolvedValueOnce(null);
    const { onAutoAssign } = renderGuidance();
    act(() => dispatchTierGuidance({ tier: 'premium' }));
    await user.click(screen.getByRole('button', { name: 'AUTO-ASSIGN A PLOT' }));
    expect(await screen.findByText('No free spot was found for this tier. Please choose one on the map.')).toBeTruthy();
    expect(onAutoAssign).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Premium Tier Selected!' })).toBeTruthy();
  });
});
