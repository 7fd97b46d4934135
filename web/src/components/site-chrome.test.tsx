import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render-app.tsx';

function captureTierGuidance() {
  const details: unknown[] = [];
  const listener = (event: Event) => details.push((event as CustomEvent).detail);
  window.addEventListener('tierGuidance', listener);
  return { details, stop: () => window.removeEventListener('tierGuidance', listener) };
}

describe('site header', () => {
  it('links the product title home and About, FAQ, Contact to their pages', () => {
    renderApp('/about');
    const header = screen.getByRole('banner');
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));

    expect(within(header).getByRole('link', { name: 'Pixel Atlas' }).getAttribute('href')).toBe('/');
    expect(nav.getByRole('link', { name: 'About' }).getAttribute('href')).toBe('/about');
    expect(nav.getByRole('link', { name: 'FAQ' }).getAttribute('href')).toBe('/faq');
    expect(nav.getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe('/contact');
    // A real link to the claim section: it works before the script has run.
    expect(within(header).getAllByRole('link', { name: 'Claim Your Tile' })[0]!.getAttribute('href')).toBe('/#claim-tile');
  });

  it('navigates between screens through its links', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/');

    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'FAQ' }));

    expect(router.state.location.pathname).toBe('/faq');
    expect(screen.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' })).toBeTruthy();
  });

  it("on the home page 'Claim Your Tile' raises tierGuidance and scrolls the map into view", async () => {
    const user = userEvent.setup();
    renderApp('/');
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView');
    const guidance = captureTierGuidance();

    await user.click(within(screen.getByRole('banner')).getAllByRole('link', { name: 'Claim Your Tile' })[0]!);

    expect(guidance.details).toEqual([{}]);
    expect(scrollIntoView.mock.contexts.some((element) => (element as Element).id === 'atlas-map')).toBe(true);
    guidance.stop();
  });

  it("elsewhere 'Claim Your Tile' goes home first, then raises tierGuidance", async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/faq');
    const guidance = captureTierGuidance();

    await user.click(within(screen.getByRole('banner')).getAllByRole('link', { name: 'Claim Your Tile' })[0]!);

    await waitFor(() => expect(guidance.details).toEqual([{}]));
    expect(router.state.location.pathname).toBe('/');
    expect(document.getElementById('atlas-map')).not.toBeNull();
    guidance.stop();
  });

  it('scrolls down 300 px after 100 ms when no map element exists', async () => {
    vi.useFakeTimers();
    try {
      const { startTierGuidance } = await import('../lib/tier-guidance.ts');
      const scrollBy = vi.spyOn(window, 'scrollBy');

      startTierGuidance();
      vi.advanceTimersByTime(99);
      expect(scrollBy).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);

      expect(scrollBy).toHaveBeenCalledWith({ top: 300, behavior: 'smooth' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens a menu with the same items from the toggle, a native disclosure that works before the script runs', async () => {
    const user = userEvent.setup();
    renderApp('/about');
    const toggle = screen.getByLabelText('Menu');
    const disclosure = toggle.closest('details')!;
    expect(toggle.tagName).toBe('SUMMARY');
    expect(disclosure.open).toBe(false);

    await user.click(toggle);

    const menu = screen.getByRole('navigation', { name: 'Mobile' });
    await waitFor(() => expect(disclosure.open).toBe(true));
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['About', 'FAQ', 'Contact', 'Claim Your Tile']);

    await user.click(within(menu).getByRole('link', { name: 'Contact' }));
    await waitFor(() => expect(disclosure.open).toBe(false));
  });
});

describe('site footer', () => {
  it('has FAQ, Privacy and Terms links, dead About and Contact links, and the copyright line', () => {
    renderApp('/');
    const footer = within(screen.getByRole('contentinfo'));

    expect(footer.getByRole('link', { name: 'FAQ' }).getAttribute('href')).toBe('/faq');
    expect(footer.getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe('/privacy');
    expect(footer.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe('/terms');
    expect(footer.getByRole('link', { name: 'Lost your owner link?' }).getAttribute('href')).toBe('/owner-link');
    expect(footer.getByRole('link', { name: 'About' }).getAttribute('href')).toBe('#');
    expect(footer.getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe('#');
    expect(footer.getByText(`© ${new Date().getFullYear()} Pixel Atlas`)).toBeTruthy();
  });
});
