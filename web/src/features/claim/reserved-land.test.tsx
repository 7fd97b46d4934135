import type { ReservedFootprint } from '@pixel-atlas/contracts/plots';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HomeMap } from '../../pages/home/home-map.tsx';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse, PLOT_LIST_ROUTE, plotListResponse } from '../../test/render-app.tsx';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { savePendingClaim } from './pending-claim.ts';
import { checkPosition } from './position-check.ts';
import { footprintConflict, footprintProblem } from './reserved-land-note.tsx';
import { overlapMessage } from './reserved-land.ts';
import { lastEngine } from '../../test/engine-recorder.ts';
import { plotWith } from '../../test/plot-fixture.ts';
import { landLayout } from '../../test/map-fixtures.ts';

vi.mock('../../map/engine/engine.ts', () => import('../../test/engine-recorder.ts').then((recorder) => recorder.recordingEngineModule));

const neighbour = plotWith({ x: 13, y: 15 });
const held: ReservedFootprint = { x: 20, y: 20, size: 2, reason: 'held' };
const review: ReservedFootprint = { x: 30, y: 30, size: 1, reason: 'review' };
// Land everywhere in the top-left 50×50, so no footprint in these tests reaches into water.
const layout = landLayout({ side: 50 });

function renderHome() {
  const gateway = fakeGateway({
    'GET /api/map-layout': [() => jsonResponse(layout)],
    [PLOT_LIST_ROUTE]: [() => plotListResponse([neighbour])],
    'GET /api/reserved-footprints': [() => jsonResponse([held, review])],
    'GET /api/prices': [() => jsonResponse({ currency: 'usd', cents: { basic: 2500, featured: 5000, prime: 7500, premium: 10000 } })],
  });
  return { ...renderWithProviders(<HomeMap />), gateway };
}

describe('reserved land on the home map', () => {
  it('hands the reserved footprints to the map engine', async () => {
    renderHome();
    await waitFor(() => expect(lastEngine().engine.setReservedFootprints).toHaveBeenLastCalledWith([held, review]));
  });

  it('a click on land held while someone pays is refused with that reason; the claim popup does not open', async () => {
    renderHome();
    await screen.findByRole('button', { name: 'Find Plots (1)' });
    act(() => lastEngine().options.onTileClick!({ x: 21, y: 20, isLand: true, plot: null, reserved: held }));
    expect(await screen.findByText('Tile Reserved')).toBeTruthy();
    expect(screen.getByText('This tile is reserved while someone pays. Try again in a few minutes or choose another tile.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Claim This Tile' })).toBeNull();
    expect(lastEngine().engine.setSelectedTile).not.toHaveBeenCalledWith({ x: 21, y: 20 }, expect.anything());
  });

  it("this browser's own unpaid checkout (back from the checkout page without Cancel) reopens its claim there instead", async () => {
    savePendingClaim({
      x: 20,
      y: 20,
      display_name: 'Back Button',
      message: 'hi',
      link: '',
      tier: 'featured',
      avatar_url: 'data:image/png;base64,AAAA',
    });
    renderHome();
    await screen.findByRole('button', { name: 'Find Plots (1)' });
    act(() => lastEngine().options.onTileClick!({ x: 21, y: 21, isLand: true, plot: null, reserved: held }));
    const popup = await screen.findByRole('dialog', { name: 'Claim This Tile' });
    expect(within(popup).getByText('Position (20, 20)')).toBeTruthy();
    expect(within(popup).getByLabelText<HTMLInputElement>('Display name').value).toBe('Back Button');
    // Its own hold is no obstacle in the popup's note either.
    expect(within(popup).queryByTestId('footprint-conflict')).toBeNull();
    expect(screen.queryByText('Tile Reserved')).toBeNull();
  });

  it('a click on a plot under review is refused as under review', async () => {
    renderHome();
    await screen.findByRole('button', { name: 'Find Plots (1)' });
    act(() => lastEngine().options.onTileClick!({ x: 30, y: 30, isLand: true, plot: null, reserved: review }));
    expect(await screen.findByText('Tile Under Review')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Claim This Tile' })).toBeNull();
  });

  it('hovering reserved land shows why (desktop)', async () => {
    renderHome();
    await screen.findByRole('button', { name: 'Find Plots (1)' });
    act(() => lastEngine().options.onReservedHover!(held, { x: 100, y: 100 }));
    const card = screen.getByRole('tooltip');
    expect(within(card).getByText('Reserved while someone pays')).toBeTruthy();
    act(() => lastEngine().options.onReservedHover!(null, { x: 0, y: 0 }));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('in the claim popup, a tier whose footprint would overlap a neighbour names it', async () => {
    const user = userEvent.setup();
    // Ada's 1×1 plot is at (13, 15): a 2×2 footprint at (12, 14) covers it, a 1×1 does not.
    const { gateway } = renderHome();
    await screen.findByRole('button', { name: 'Find Plots (1)' });
    act(() => lastEngine().options.onTileClick!({ x: 12, y: 14, isLand: true, plot: null }));
    const popup = screen.getByRole('dialog', { name: 'Claim This Tile' });
    await user.click(within(popup).getByRole('radio', { name: /featured/i }));
    expect(
      await within(popup).findByText("A 2×2 plot here would overlap Ada Pixel's plot. Choose a smaller plot or another tile."),
    ).toBeTruthy();
    await user.click(within(popup).getByRole('radio', { name: /basic/i }));
    await waitFor(() => expect(within(popup).queryByTestId('footprint-conflict')).toBeNull());
    // Said from what the map already holds: the server is asked only at PAY & CLAIM.
    expect(gateway.calls.filter((call) => call.route.includes('position-available'))).toEqual([]);
  });

  it('the note also names reserved land under a bigger footprint, and the grid edge', () => {
    const base = { plots: [], reserved: [held] };
    expect(footprintProblem(footprintConflict({ ...base, tile: { x: 19, y: 19 }, tier: 'featured' }), 'featured')).toContain(
      'reserved while someone pays',
    );
    expect(footprintConflict({ ...base, tile: { x: 19, y: 19 }, tier: 'basic' })).toEqual({ available: true });
    expect(footprintConflict({ ...base, tile: { x: 88, y: 3 }, tier: 'prime' })).toEqual({ available: false, reason: 'out_of_grid' });
    expect(footprintConflict({ ...base, tile: { x: 3, y: 3 }, tier: 'featured', isLand: (x) => x < 4 })).toEqual({
      available: false,
      reason: 'water',
    });
  });
});

describe('the position check tells the true reason', () => {
  const answer = (body: unknown, tier = 'featured') =>
    fakeGateway({ [`GET /api/position-available?x=5&y=6&tier=${tier}`]: [() => jsonResponse(body)] });

  it('reserved while someone pays, under review, or the neighbour in the way', async () => {
    answer({ available: false, reason: 'held' });
    expect(await checkPosition(5, 6, 'featured')).toMatchObject({
      title: 'Tile Reserved',
      description: expect.stringContaining('reserved while someone pays'),
    });
    answer({ available: false, reason: 'held' });
    expect(await checkPosition(5, 6, 'featured', { allowHeld: true })).toBeNull();
    // This browser's own unpaid checkout at the same spot and size: a new checkout replaces it.
    savePendingClaim({
      x: 5,
      y: 6,
      display_name: 'Mine',
      message: '',
      link: '',
      tier: 'featured',
      avatar_url: 'data:image/png;base64,AAAA',
    });
    answer({ available: false, reason: 'held' });
    expect(await checkPosition(5, 6, 'featured')).toBeNull();
    answer({ available: false, reason: 'held' }, 'basic');
    expect(await checkPosition(5, 6, 'basic')).toMatchObject({ title: 'Tile Reserved' });
    sessionStorage.clear();
    answer({ available: false, reason: 'review' });
    expect(await checkPosition(5, 6, 'featured')).toMatchObject({
      title: 'Tile Under Review',
      description: expect.stringContaining('under review'),
    });
    answer({ available: false, reason: 'taken', overlaps: { id: neighbour.id, display_name: 'Ada Pixel' } });
    expect(await checkPosition(5, 6, 'featured')).toMatchObject({
      title: 'Tile Unavailable',
      description: expect.stringContaining("A 2×2 plot here would overlap Ada Pixel's plot."),
    });
    // The spec's words stay where the server names nobody, and for water.
    answer({ available: false, reason: 'taken' });
    expect(await checkPosition(5, 6, 'featured')).toMatchObject({
      title: 'Tile Unavailable',
      description: 'This tile is already claimed. Please choose another.',
    });
    answer({ available: false, reason: 'water' });
    expect(await checkPosition(5, 6, 'featured')).toMatchObject({ title: 'Invalid Location' });
  });

  it('words the overlap with the tier size', () => {
    expect(overlapMessage('premium', 'Grace')).toBe("A 4×4 plot here would overlap Grace's plot.");
    expect(footprintProblem({ available: false, reason: 'out_of_grid' }, 'prime')).toBe(
      'A 3×3 plot here would not fit inside the map. Choose a smaller plot or another tile.',
    );
    expect(footprintProblem({ available: false, reason: 'water' }, 'basic')).toBeNull();
    expect(footprintProblem({ available: true }, 'basic')).toBeNull();
  });
});
