import { PLOT_CHANGE_POLICY } from '@pixel-atlas/contracts/policy';
import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeGateway } from '../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../test/render-app.tsx';
import { PLOTS_QUERY_KEY } from '../api/queries.ts';
import { plotWith } from '../test/plot-fixture.ts';

describe('home page', () => {
  it('sets the title and meta description', () => {
    renderApp('/');

    expect(document.title).toBe('Pixel Atlas - An Interactive Fantasy Map of the Internet');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/fantasy map of the internet/);
  });

  it('shows the map area first, then the claim section with four benefits and four tier cards', async () => {
    // Prices are the server's (GET /api/prices), not the defaults the app was built with.
    fakeGateway({
      'GET /api/prices': [() => jsonResponse({ currency: 'usd', cents: { basic: 2500, featured: 5000, prime: 7500, premium: 20000 } })],
    });
    renderApp('/');

    const map = document.getElementById('atlas-map');
    expect(map?.textContent).toContain('Loading the atlas…');
    const claim = screen.getByRole('region', { name: 'Claim Your Place in Pixel Atlas' });
    expect(map!.compareDocumentPosition(claim) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(claim).getAllByRole('listitem')).toHaveLength(4);

    const cards = within(claim).getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Basic Plot',
      'Featured Plot',
      'Prime Plot',
      'Premium Plot',
    ]);
    const premium = within(claim).getByRole('article', { name: 'Premium Plot' });
    // No sales yet: no card claims to be the most popular.
    expect(within(claim).queryByText('Most popular')).toBeNull();
    expect(await within(premium).findByText('$200')).toBeTruthy();
    expect(within(premium).getByText('4x4 plot')).toBeTruthy();
    expect(within(premium).getByText('Rule your domain with a monument')).toBeTruthy();
    const basic = within(claim).getByRole('article', { name: 'Basic Plot' });
    expect(within(basic).getByText('$25')).toBeTruthy();
    expect(within(basic).queryByText('Most popular')).toBeNull();
  });

  it("says 'Most popular' only on the tier sold most, and nowhere when the lead is shared", async () => {
    const { queryClient } = renderApp('/');
    const claim = screen.getByRole('region', { name: 'Claim Your Place in Pixel Atlas' });
    const sold = (tiers: Tier[]) =>
      act(() =>
        queryClient.setQueryData(
          PLOTS_QUERY_KEY,
          tiers.map((tier, index) => plotWith({ id: `00000000-0000-4000-8000-00000000000${index}`, tier })),
        ),
      );
    await sold(['featured', 'basic', 'featured']);
    const featured = within(claim).getByRole('article', { name: 'Featured Plot' });
    expect(await within(featured).findByText('Most popular')).toBeTruthy();
    expect(within(claim).getAllByText('Most popular')).toHaveLength(1);
    await sold(['featured', 'basic']);
    await waitFor(() => expect(within(claim).queryByText('Most popular')).toBeNull());
  });

  it('states the one policy: name, tier and position final, message, link and avatar changeable by the owner', () => {
    renderApp('/');
    const claim = screen.getByRole('region', { name: 'Claim Your Place in Pixel Atlas' });
    expect(within(claim).getByTestId('plot-policy').textContent).toBe(`All sales are final. ${PLOT_CHANGE_POLICY}`);
    expect(claim.textContent).not.toMatch(/cannot be changed after you submit|no edit feature/);
  });

  it('SELECT stores the tier, raises tierGuidance with it and scrolls to the map after 100 ms', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      renderApp('/');
      const details: unknown[] = [];
      const listener = (event: Event) => details.push((event as CustomEvent).detail);
      window.addEventListener('tierGuidance', listener);
      const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView');

      fireEvent.click(screen.getByRole('button', { name: 'Select Prime Plot' }));

      expect(localStorage.getItem('selectedTier')).toBe('prime');
      expect(details).toEqual([{ tier: 'prime' }]);
      const scrolledToMap = () => scrollIntoView.mock.contexts.some((element) => (element as Element).id === 'atlas-map');
      expect(scrolledToMap()).toBe(false);
      vi.advanceTimersByTime(100);
      expect(scrolledToMap()).toBe(true);
      window.removeEventListener('tierGuidance', listener);
    } finally {
      vi.useRealTimers();
    }
  });
});
