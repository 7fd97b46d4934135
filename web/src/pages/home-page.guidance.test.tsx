import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { StrictMode, useEffect } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import { TIER_GUIDANCE_EVENT } from '../lib/tier-guidance.ts';
import { HomePage } from './home-page.tsx';

// The map chunk arrives only when the test opens the gate: a visitor quicker than the network.
const chunk = vi.hoisted(() => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened, heard: [] as unknown[] };
});
vi.mock('./home/home-map.tsx', async () => {
  await chunk.opened;
  /** Stands in for the map: listens for guidance as its tier guidance dialog does. */
  function HomeMap() {
    useEffect(() => {
      const listener = (event: Event) => chunk.heard.push((event as CustomEvent).detail);
      window.addEventListener(TIER_GUIDANCE_EVENT, listener);
      return () => window.removeEventListener(TIER_GUIDANCE_EVENT, listener);
    }, []);
    return <p>map mounted</p>;
  }
  return { HomeMap };
});

describe('home page before the map has loaded', () => {
  it('keeps a tier chosen before the map mounted and hands it to the map, once, when it has', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    render(
      <StrictMode>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter>
            <HomePage />
          </MemoryRouter>
        </QueryClientProvider>
      </StrictMode>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Select Prime Plot' }));
    expect(chunk.heard).toEqual([]);

    await act(async () => chunk.open());
    expect(await screen.findByText('map mounted')).toBeTruthy();
    expect(chunk.heard).toEqual([{ tier: 'prime' }]);

    // Once the map listens, guidance goes straight to it and is not raised a second time.
    fireEvent.click(screen.getByRole('button', { name: 'Select Basic Plot' }));
    expect(chunk.heard).toEqual([{ tier: 'prime' }, { tier: 'basic' }]);
    vi.unstubAllGlobals();
  });
});
