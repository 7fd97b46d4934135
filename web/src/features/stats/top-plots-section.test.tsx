import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../../test/render-app.tsx';

const PLOT_ID = '0b6f4f4e-8f5c-4d69-9d43-1f6b1c7a0a01';

describe('admin top plots', () => {
  it("lists the most viewed plots with their counts, and revokes a plot's owner link", async () => {
    const gateway = fakeGateway({
      'GET /api/admin/me': [() => jsonResponse({ username: 'warden' })],
      'GET /api/admin/top-plots?days=30&limit=20': [
        () =>
          jsonResponse({
            days: 30,
            plots: [{ plotId: PLOT_ID, displayName: 'Ada', tier: 'prime', views: 120, profileOpens: 40, clicks: 17 }],
          }),
      ],
      [`POST /api/admin/plots/${PLOT_ID}/revoke-manage-link`]: [() => jsonResponse({ plotId: PLOT_ID, revoked: true })],
    });
    renderApp('/admin');
    const table = await screen.findByTestId('top-plots');
    const row = within(table).getByRole('row', { name: /Ada/ });
    expect(within(row).getByRole('link', { name: 'Ada' }).getAttribute('href')).toBe(`/plot/${PLOT_ID}`);
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['120', '40', '17', 'Revoke owner link']);
    await userEvent.click(within(row).getByRole('button', { name: 'Revoke owner link' }));
    expect(await screen.findByText('Owner Link Revoked')).toBeTruthy();
    expect(gateway.countOf(`POST /api/admin/plots/${PLOT_ID}/revoke-manage-link`)).toBe(1);
  });
});
