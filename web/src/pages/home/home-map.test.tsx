import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { findFreePosition } from '../../features/claim/auto-assign.ts';
import { dispatchTierGuidance } from '../../lib/tier-guidance.ts';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse, PLOT_LIST_ROUTE, plotListResponse } from '../../test/render-app.tsx';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { HomeMap } from './home-map.tsx';
import { lastEngine } from '../../test/engine-recorder.ts';
import { plotWith } from '../../test/plot-fixture.ts';
import { landLayout } from '../../test/map-fixtures.ts';

vi.mock('../../map/engine/engine.ts', () => import('../../test/engine-recorder.ts').then((recorder) => recorder.recordingEngineModule));
vi.mock('../../features/claim/auto-assign.ts', () => ({ findFreePosition: vi.fn() }));

const plot = plotWith({ tier: 'featured', x: 30, y: 40 });
const layout = landLayout();

function renderHome() {
  fakeGateway({
    'GET /api/map-layout': [() => jsonResponse(layout)],
    [PLOT_LIST_ROUTE]: [() => plotListResponse([plot])],
    'GET /api/prices': [() => jsonResponse({ currency: 'usd', cents: { basic: 2500, featured: 5000, prime: 7500, premium: 10000 } })],
  });
  return renderWithProviders(<HomeMap />);
}

describe('home map wiring', () => {
  it('an empty land tile opens the claim popup there; Escape closes it', async () => {
    const user = userEvent.setup();
    renderHome();
    await screen.findByRole('button', { name: 'Find Plots (1)' });
    act(() => lastEngine().options.onTileClick!({ x: 12, y: 14, isLand: true, plot: null }));
    // The popup's code loads on the first interaction: it opens once that is in.
    const popup = await screen.findByRole('dialog', { name: 'Claim This Tile' });
    expect(within(popup).getByText('Position (12, 14)')).toBeTruthy();
    expect(lastEngine().engine.setSelectedTile).toHaveBeenCalledWith({ x: 12, y: 14 }, 'basic');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a plot opens its profile popup', async () => {
    renderHome();
    await screen.findByRole('button', { name: 'Find Plots (1)' });
    act(() => lastEngine().options.onTileClick!({ x: 31, y: 41, isLand: true, plot }));
    // The profile popup's code loads when it first opens (or at the first touch): the card comes a moment later.
    const card = await screen.findByRole('dialog', { name: 'Ada Pixel' });
    expect(within(card).getByRole('link', { name: "View Ada Pixel's Plot" })).toBeTruthy();
  });

  it("'Find Plots' lists the plots; choosing one flies the map there at zoom 1.5 and closes", async () => {
    const user = userEvent.setup();
    renderHome();
    await user.click(await screen.findByRole('button', { name: 'Find Plots (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claimed Plots (1)' });
    await user.click(within(dialog).getByRole('link', { name: /Ada Pixel/ }));
    // A 2×2 plot: its whole footprint lands clear of the map's panels.
    expect(lastEngine().engine.flyTo).toHaveBeenCalledWith(30.5, 40.5, 1.5, { size: 2 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('auto-assign flies to the free spot, pins it in the tier colour and opens the claim popup with that tier', async () => {
    const user = userEvent.setup();
    vi.mocked(findFreePosition).mockResolvedValueOnce({ x: 45, y: 50 });
    renderHome();
    await screen.findByRole('button', { name: 'Find Plots (1)' });
    act(() => dispatchTierGuidance({ tier: 'prime' }));
    // The guidance dialog's code loads with the first guidance event: it answers a moment later.
    await user.click(await screen.findByRole('button', { name: 'AUTO-ASSIGN A PLOT' }));
    const popup = await screen.findByRole('dialog', { name: 'Claim This Tile' });
    expect(within(popup).getByText('Position (45, 50)')).toBeTruthy();
    expect(await within(popup).findByRole('button', { name: 'PAY & CLAIM ($75)' })).toBeTruthy();
    expect(lastEngine().engine.flyTo).toHaveBeenCalledWith(46, 51, 1.5, { size: 3 });
    expect(lastEngine().engine.setSelectedTile).toHaveBeenLastCalledWith({ x: 45, y: 50 }, 'prime');
    // The popup asks the map to keep the prime footprint clear of the dialog.
    await waitFor(() => expect(lastEngine().engine.revealTile).toHaveBeenCalledWith(45, 50, 3));
  });
});
