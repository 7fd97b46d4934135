import type { Plot } from '@pixel-atlas/contracts/plots';
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { PLOT_LIST_ROUTE, plotListResponse } from '../../test/render-app.tsx';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { FindPlotsDialog } from './find-plots-dialog.tsx';
import { flyToPlot } from './fly-to-plot.ts';
import { plotWith } from '../../test/plot-fixture.ts';

const base = plotWith({ zone: 'nexus', x: 5, y: 6, region_name: null, updated_at: null });
const premium: Plot = {
  ...base,
  id: '22222222-2222-4222-8222-222222222222',
  tier: 'premium',
  x: 30,
  y: 40,
  display_name: 'Grace Tiles',
  message: 'Big plot',
};

function renderDialog(onChoosePlot = vi.fn()) {
  const onOpenChange = vi.fn();
  renderWithProviders(<FindPlotsDialog open onOpenChange={onOpenChange} onChoosePlot={onChoosePlot} />);
  return { onOpenChange, onChoosePlot };
}

describe('Find Plots dialog', () => {
  it("lists every plot as a link with tier, message, position, end corner and 'NxN area' for larger plots", async () => {
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([base, premium])] });
    renderDialog();
    expect(await screen.findByRole('dialog', { name: 'Claimed Plots (2)' })).toBeTruthy();
    const items = within(screen.getByRole('list', { name: 'Claimed plots' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [firstItem, secondItem] = items as [HTMLElement, HTMLElement];
    const first = within(firstItem).getByRole('link');
    expect(first.getAttribute('href')).toBe(`/plot/${base.id}`);
    expect(first.textContent).toContain('Ada Pixel');
    expect(first.textContent).toContain('Basic');
    expect(first.textContent).toContain('Tiny worlds');
    expect(first.textContent).toContain('(5, 6)');
    expect(first.textContent).not.toContain('area');
    const second = within(secondItem).getByRole('link');
    expect(second.textContent).toContain('Premium');
    expect(second.textContent).toContain('(30, 40) to (33, 43) · 4x4 area');
    expect(screen.getByText('Click on any plot to navigate and view their profile')).toBeTruthy();
  });

  it('shows the empty state when nobody has claimed a plot', async () => {
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([])] });
    renderDialog();
    expect(await screen.findByText('No plots claimed yet')).toBeTruthy();
    expect(screen.getByText('Be the first to claim your space!')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Claimed Plots (0)' })).toBeTruthy();
  });

  it('choosing a plot (click or keyboard) hands it over and closes; search narrows the list', async () => {
    const user = userEvent.setup();
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([base, premium])] });
    const { onChoosePlot, onOpenChange } = renderDialog();
    await user.type(await screen.findByLabelText('Search by name or message'), 'grace');
    const links = within(screen.getByRole('list', { name: 'Claimed plots' })).getAllByRole('link');
    expect(links).toHaveLength(1);
    links[0]?.focus();
    await user.keyboard('{Enter}');
    expect(onChoosePlot).toHaveBeenCalledWith(premium);
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe('Find Plots focus', () => {
  function Opener() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Find Plots (2)
        </button>
        <FindPlotsDialog open={open} onOpenChange={setOpen} onChoosePlot={() => {}} />
      </>
    );
  }

  it('opens with focus in its search box, and gives focus back to the button that opened it on Escape', async () => {
    const user = userEvent.setup();
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([base, premium])] });
    renderWithProviders(<Opener />);
    const opener = screen.getByRole('button', { name: 'Find Plots (2)' });
    await user.click(opener);
    const search = await screen.findByLabelText('Search by name or message');
    await waitFor(() => expect(document.activeElement).toBe(search));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('moves focus into the search box when the list arrives after the dialog opened', async () => {
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => new Promise((resolve) => setTimeout(() => resolve(plotListResponse([base])), 50))] });
    renderDialog();
    const search = await screen.findByLabelText('Search by name or message');
    await waitFor(() => expect(document.activeElement).toBe(search));
  });
});

describe('flyToPlot', () => {
  it("raises 'navigateToRegion' centred on the footprint at zoom 1.5, with the footprint's size", () => {
    const details: unknown[] = [];
    const listener = (event: Event) => details.push((event as CustomEvent).detail);
    window.addEventListener('navigateToRegion', listener);
    flyToPlot({ ...premium, region_name: 'Forum Fields' });
    flyToPlot(base);
    window.removeEventListener('navigateToRegion', listener);
    expect(details).toEqual([
      { x: 31.5, y: 41.5, zoom: 1.5, regionName: 'Forum Fields', size: 4 },
      { x: 5, y: 6, zoom: 1.5, regionName: 'Ada Pixel', size: 1 },
    ]);
  });
});
