import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TierCard } from '../../components/tier-card.tsx';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse } from '../../test/render-app.tsx';
import { renderWithProviders } from '../../test/render-with-providers.tsx';

const SERVED = { currency: 'usd', cents: { basic: 3100, featured: 5000, prime: 12000, premium: 20000 } };

describe('prices come from GET /api/prices', () => {
  it('tier cards show the served price, fetched once for all of them, and a placeholder (no amount) before it arrives', async () => {
    const gateway = fakeGateway({ 'GET /api/prices': [() => jsonResponse(SERVED)] });
    renderWithProviders(
      <>
        <TierCard tier="basic" onSelect={vi.fn()} />
        <TierCard tier="prime" onSelect={vi.fn()} />
        <TierCard tier="premium" onSelect={vi.fn()} />
      </>,
    );
    const premium = screen.getByRole('article', { name: 'Premium Plot' });
    expect(premium.textContent).not.toMatch(/\$/);
    expect(premium.querySelector('[data-price-loading]')).toBeTruthy();
    expect(await within(premium).findByText('$200')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Prime Plot' })).getByText('$120')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Basic Plot' })).getByText('$31')).toBeTruthy();
    expect(gateway.countOf('GET /api/prices')).toBe(1);
  });

  it('a failed price request leaves the amount out rather than showing a default', async () => {
    const gateway = fakeGateway({
      'GET /api/prices': [() => jsonResponse({ error: { code: 'UPSTREAM_UNAVAILABLE', message: 'down' } }, { status: 502 })],
    });
    renderWithProviders(<TierCard tier="basic" onSelect={vi.fn()} />);
    await vi.waitFor(() => expect(gateway.countOf('GET /api/prices')).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('article', { name: 'Basic Plot' }).textContent).not.toContain('$25');
  });
});
