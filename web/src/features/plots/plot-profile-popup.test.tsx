import type { Plot } from '@pixel-atlas/contracts/plots';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse, PLOT_LIST_ROUTE, plotListResponse } from '../../test/render-app.tsx';
import { deferred, renderWithProviders } from '../../test/render-with-providers.tsx';
import { PlotProfilePopup } from './plot-profile-popup.tsx';

const plot: Plot = {
  id: '11111111-1111-4111-8111-111111111111',
  zone: 'startup',
  tier: 'featured',
  x: 5,
  y: 6,
  display_name: 'Ada Pixel',
  message: 'Tiny worlds, weekly.',
  link: 'https://ada.example/',
  avatar_url: '/api/plots/11111111-1111-4111-8111-111111111111/avatar',
  created_at: '2026-11-20T10:00:00.000Z',
  flagged: false,
  reviewed: true,
  region_name: 'Startup Steppes',
};
// What the map hands over: the drawn fields only.
const clicked = { id: plot.id, x: plot.x, y: plot.y, tier: plot.tier, display_name: plot.display_name, avatar_url: plot.avatar_url };

function Harness() {
  const [open, setOpen] = useState(true);
  return <PlotProfilePopup plot={open ? clicked : null} onClose={() => setOpen(false)} />;
}

describe('plot profile popup', () => {
  it('shows avatar, name, message, tier, zone, the plot page link, visit website and share', async () => {
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([plot])] });
    renderWithProviders(<Harness />);
    const card = screen.getByRole('dialog', { name: 'Ada Pixel' });
    expect(card.className).toContain('dialog-pop');
    expect(await within(card).findByText('Tiny worlds, weekly.')).toBeTruthy();
    expect(within(card).getByText('Featured Plot')).toBeTruthy();
    expect(within(card).getByText(/Startup Steppes/)).toBeTruthy();
    expect(within(card).getByAltText("Ada Pixel's avatar")).toBeTruthy();
    expect(within(card).getByRole('link', { name: "View Ada Pixel's Plot" }).getAttribute('href')).toBe(`/plot/${plot.id}`);
    const visit = within(card).getByRole('link', { name: 'Visit Website' });
    expect(visit.getAttribute('rel')).toBe('noopener noreferrer');
    expect(visit.getAttribute('target')).toBe('_blank');
    expect(within(card).getByRole('button', { name: 'Share Plot' })).toBeTruthy();
  });

  it('closes with the close button', async () => {
    const user = userEvent.setup();
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([plot])] });
    renderWithProviders(<Harness />);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('disables the flag button while flagging, then thanks the visitor and closes', async () => {
    const user = userEvent.setup();
    const answer = deferred<Response>();
    const gateway = fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([plot])], 'POST /api/flag-plot': [() => answer.promise] });
    renderWithProviders(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Flag Content' }));
    const busy = screen.getByRole<HTMLButtonElement>('button', { name: 'Flagging...' });
    expect(busy.disabled).toBe(true);
    expect(gateway.calls.find((call) => call.route === 'POST /api/flag-plot')?.body).toEqual({ plotId: plot.id });
    answer.resolve(jsonResponse({ flagged: true, plotId: plot.id }));
    expect(await screen.findByText('Content Flagged')).toBeTruthy();
    expect(screen.getByText('Thank you for helping keep the community safe.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('treats an earlier flag by the same visitor as flagged', async () => {
    const user = userEvent.setup();
    fakeGateway({
      [PLOT_LIST_ROUTE]: [() => plotListResponse([plot])],
      'POST /api/flag-plot': [() => jsonResponse({ error: { code: 'ALREADY_FLAGGED', message: 'Already flagged' } }, { status: 409 })],
    });
    renderWithProviders(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Flag Content' }));
    expect(await screen.findByText('Content Flagged')).toBeTruthy();
  });

  it("shows the destructive 'Error' toast when flagging fails and keeps the card open", async () => {
    const user = userEvent.setup();
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([plot])], 'POST /api/flag-plot': [() => new Response('', { status: 500 })] });
    renderWithProviders(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Flag Content' }));
    expect(await screen.findByText('Failed to flag content. Please try again.')).toBeTruthy();
    expect(screen.getByText('Error').closest('[data-variant]')?.getAttribute('data-variant')).toBe('destructive');
    expect(screen.getByRole('dialog', { name: 'Ada Pixel' })).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Flag Content' }).disabled).toBe(false);
  });
});
