import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../../test/render-app.tsx';

const signedIn = () => jsonResponse({ username: 'warden' });
const layout =
  (tiles = 8100) =>
  () =>
    jsonResponse({
      tiles: Array.from({ length: tiles }, (_, i) => ({
        x: i % 90,
        y: Math.floor(i / 90),
        zone_value: 1,
        zone_name: 'Pixel Plains',
        is_land: i % 3 !== 0,
      })),
      regions: [],
      seed: 'pixel-atlas',
      generatedAt: '2026-11-22T10:00:00.000Z',
    });
const noMap = () => jsonResponse({ error: { code: 'MAP_NOT_AVAILABLE', message: 'The map is not available right now.' } }, { status: 404 });

describe('admin map sections', () => {
  it('shows Map Generated with the tile count, disables Generate, offers the Danger Zone', async () => {
    fakeGateway({ 'GET /api/admin/me': [signedIn], 'GET /api/map-layout': [layout()] });
    renderApp('/admin');
    expect(await screen.findByText('Map Generated')).toBeTruthy();
    expect(screen.getByTestId('map-tile-count').textContent).toBe('8,100');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Generate Map' }).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Clear Map Layout' })).toBeTruthy();
  });

  it('shows No Map Found, generates, shows the success text and refreshes the layout', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      'GET /api/admin/me': [signedIn],
      'GET /api/map-layout': [noMap, layout()],
      'POST /api/admin/generate-map': [
        () =>
          jsonResponse(
            {
              message: 'Map generated successfully! The atlas is now ready for use.',
              tileCount: 8100,
              landTileCount: 5400,
              seed: 'pixel-atlas',
            },
            { status: 201 },
          ),
      ],
    });
    renderApp('/admin');
    expect(await screen.findByText('No Map Found')).toBeTruthy();
    expect(screen.queryByTestId('admin-danger-zone')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Generate Map' }));
    expect(await screen.findByText('Map generated successfully! The atlas is now ready for use.')).toBeTruthy();
    expect(await screen.findByText('Map Generated')).toBeTruthy();
    expect(gateway.countOf('GET /api/map-layout')).toBe(2);
  });

  it('clears the map only after the two-step confirmation', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      'GET /api/admin/me': [signedIn],
      'GET /api/map-layout': [layout(), noMap],
      'DELETE /api/admin/map-layout': [() => jsonResponse({ message: 'Map layout cleared.' })],
    });
    renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Clear Map Layout' }));
    expect(screen.getByText('Are you sure you want to clear the map layout?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(gateway.countOf('DELETE /api/admin/map-layout')).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Clear Map Layout' }));
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('No Map Found')).toBeTruthy();
    expect(gateway.countOf('DELETE /api/admin/map-layout')).toBe(1);
    await waitFor(() => expect(screen.queryByTestId('admin-danger-zone')).toBeNull());
  });

  it("shows the server's message when generation fails, or the spec's fallback", async () => {
    const user = userEvent.setup();
    fakeGateway({
      'GET /api/admin/me': [signedIn],
      'GET /api/map-layout': [noMap],
      'POST /api/admin/generate-map': [() => new Response('', { status: 500 })],
    });
    renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Generate Map' }));
    expect(await screen.findByText('Failed to generate map')).toBeTruthy();
  });
});
