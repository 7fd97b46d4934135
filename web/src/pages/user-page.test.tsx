import type { Plot } from '@pixel-atlas/contracts/plots';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR_SRC } from '../features/plots/plot-avatar.tsx';
import { fakeGateway } from '../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../test/render-app.tsx';

const plotA: Plot = {
  id: '11111111-1111-4111-8111-111111111111',
  zone: 'meme',
  tier: 'premium',
  x: 40,
  y: 41,
  display_name: 'Ada Lovelace',
  message: 'First programmer, now on the map.',
  link: 'https://ada.example/',
  avatar_url: '/api/plots/11111111-1111-4111-8111-111111111111/avatar',
  created_at: '2026-11-20T10:00:00.000Z',
  flagged: false,
  reviewed: true,
};
const plotB: Plot = {
  ...plotA,
  id: '22222222-2222-4222-8222-222222222222',
  tier: 'basic',
  zone: 'nexus',
  x: 3,
  y: 4,
  link: null,
  message: '',
};

describe('/user/{username}', () => {
  it('decodes the name, counts the plots and shows a card per plot', async () => {
    const gateway = fakeGateway({
      'GET /api/users/Ada%20Lovelace/plots': [() => jsonResponse({ username: 'Ada Lovelace', plots: [plotA, plotB] })],
    });
    renderApp('/user/Ada%20Lovelace');

    expect(screen.getByRole('heading', { level: 1, name: "Ada Lovelace's Atlas" })).toBeTruthy();
    expect(await screen.findByText('2 plots claimed')).toBeTruthy();
    expect(gateway.countOf('GET /api/users/Ada%20Lovelace/plots')).toBe(1);
    expect(screen.getByRole('link', { name: /Back to Atlas/ }).getAttribute('href')).toBe('/');

    const first = screen.getByRole('article', { name: 'Ada Lovelace at (40, 41)' });
    expect(within(first).getByText('Position (40, 41)')).toBeTruthy();
    expect(within(first).getByText('Premium Plot')).toBeTruthy();
    expect(within(first).getByText('Meme Marshlands')).toBeTruthy();
    expect(within(first).getByText('First programmer, now on the map.').className).toContain('line-clamp-3');
    // One wording whatever the browser's locale and time zone: a server-rendered page hydrates to the same text.
    expect(within(first).getByText('Nov 20, 2026')).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'View Plot' }).getAttribute('href')).toBe(`/plot/${plotA.id}`);
    const visit = within(first).getByRole('link', { name: /Visit/ });
    expect(visit.textContent).toBe('Visit');
    expect(visit.getAttribute('target')).toBe('_blank');
    expect(visit.getAttribute('rel')).toBe('noopener noreferrer');
    const avatar = within(first).getByRole<HTMLImageElement>('img');
    fireEvent.error(avatar);
    expect(avatar.getAttribute('src')).toBe(DEFAULT_AVATAR_SRC);

    const second = screen.getByRole('article', { name: 'Ada Lovelace at (3, 4)' });
    expect(within(second).getByText('Central Nexus')).toBeTruthy();
    expect(within(second).queryByRole('link', { name: /Visit/ })).toBeNull();
  });

  it("says the user hasn't claimed any plots yet and links to the claim section", async () => {
    fakeGateway({ 'GET /api/users/nobody/plots': [() => jsonResponse({ username: 'nobody', plots: [] })] });
    renderApp('/user/nobody');
    expect(await screen.findByText("nobody hasn't claimed any plots yet.")).toBeTruthy();
    expect(screen.getByText('0 plots claimed')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Claim Your First Plot' }).getAttribute('href')).toBe('/#claim-tile');
  });
});
