import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app.tsx';

describe('FAQ page', () => {
  it('groups questions under the six categories and ends with a contact box', () => {
    renderApp('/faq');

    const categoryHeadings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(categoryHeadings).toEqual([
      'Getting Started',
      'Plot Information',
      'Value & Benefits',
      'Payment & Refunds',
      'Technical',
      'Community',
      'Still have questions?',
    ]);
    expect(screen.getByRole('link', { name: 'Contact Us' }).getAttribute('href')).toBe('/contact');
  });

  it('expands and collapses each question independently', async () => {
    const user = userEvent.setup();
    renderApp('/faq');
    const claimQuestion = screen.getByRole('button', { name: /How do I claim a plot\?/ });
    const refundQuestion = screen.getByRole('button', { name: /Can I get a refund\?/ });
    expect(claimQuestion.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Click an empty land tile')).toBeNull();

    await user.click(claimQuestion);
    await user.click(refundQuestion);

    expect(claimQuestion.getAttribute('aria-expanded')).toBe('true');
    expect(refundQuestion.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Click an empty land tile')).toBeTruthy();
    expect(screen.getByText(/All sales are final/)).toBeTruthy();

    await user.click(claimQuestion);

    expect(claimQuestion.getAttribute('aria-expanded')).toBe('false');
    expect(refundQuestion.getAttribute('aria-expanded')).toBe('true');
  });

  it('states the five claim steps in order and the map controls for desktop and mobile', async () => {
    const user = userEvent.setup();
    renderApp('/faq');

    await user.click(screen.getByRole('button', { name: /How do I claim a plot\?/ }));
    await user.click(screen.getByRole('button', { name: /How do I move around the map\?/ }));

    const steps = screen.getByText('Choose a tier').closest('ol');
    expect([...steps!.querySelectorAll('li > strong')].map((step) => step.textContent)).toEqual([
      'Choose a tier',
      'Click an empty land tile',
      'Fill in your profile',
      'Upload an avatar',
      // Details are checked before paying: the normal path places the plot at once and shows no confirmation screen.
      'Check your details and pay',
    ]);
    expect(screen.getByText(/click and drag to explore, scroll to zoom, and click tiles/)).toBeTruthy();
    expect(screen.getByText(/pinch to zoom, drag to explore, and tap tiles/)).toBeTruthy();
  });
});
