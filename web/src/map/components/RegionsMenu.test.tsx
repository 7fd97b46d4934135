import { NAVIGATE_TO_REGION_EVENT, REGION_DEFINITIONS, type NavigateToRegionDetail } from '@pixel-atlas/contracts/regions';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi, type Mock } from 'vitest';
import { RegionsMenu, regionsMenuStartsOpen } from './RegionsMenu.tsx';

/** The detail of the last navigateToRegion event the listener heard. */
function lastNavigation(listener: Mock<(event: Event) => void>): NavigateToRegionDetail | undefined {
  const event = listener.mock.lastCall?.[0];
  expect(event).toBeInstanceOf(CustomEvent);
  return (event as CustomEvent<NavigateToRegionDetail> | undefined)?.detail;
}

const regions = REGION_DEFINITIONS.map(({ name, value }) => ({ name, value, focus: { x: value * 5, y: value * 3 } }));

describe('RegionsMenu', () => {
  it("starts open, titled 'ATLAS REGIONS', listing the 13 regions", () => {
    render(<RegionsMenu regions={regions} />);
    const toggle = screen.getByRole('button', { name: /ATLAS REGIONS/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const nav = screen.getByRole('navigation', { name: 'Atlas regions' });
    expect(within(nav).getAllByRole('listitem')).toHaveLength(13);
  });

  it('choosing a region emits navigateToRegion with its point, zoom 1.2 and name, and closes the menu', () => {
    const listener = vi.fn<(event: Event) => void>();
    window.addEventListener(NAVIGATE_TO_REGION_EVENT, listener);
    render(<RegionsMenu regions={regions} />);

    fireEvent.click(screen.getByRole('button', { name: 'Startup Steppes' }));

    expect(listener).toHaveBeenCalledTimes(1);
    expect(lastNavigation(listener)).toEqual({ x: 25, y: 15, zoom: 1.2, regionName: 'Startup Steppes' });
    expect(screen.queryByRole('button', { name: 'Startup Steppes' })).toBeNull();
    expect(screen.getByRole('button', { name: /ATLAS REGIONS/ }).getAttribute('aria-expanded')).toBe('false');
    window.removeEventListener(NAVIGATE_TO_REGION_EVENT, listener);
  });

  it('gives focus to the map beside it once a region is chosen (the chosen button is gone), or else to its title button', () => {
    render(
      <div>
        <canvas tabIndex={0} aria-roledescription="map" aria-label="Atlas map" />
        <RegionsMenu regions={regions} />
      </div>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Startup Steppes' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Atlas map'));
  });

  it('without a map, focus goes to its title button, never to <body>', () => {
    render(<RegionsMenu regions={regions} />);
    fireEvent.click(screen.getByRole('button', { name: 'Startup Steppes' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /ATLAS REGIONS/ }));
  });

  it('collapses and reopens from its title button', () => {
    render(<RegionsMenu regions={regions} />);
    const toggle = screen.getByRole('button', { name: /ATLAS REGIONS/ });
    fireEvent.click(toggle);
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    fireEvent.click(toggle);
    expect(screen.getAllByRole('listitem')).toHaveLength(13);
  });

  it('lists the regions at the spec points scaled to the grid before a layout arrives', () => {
    const listener = vi.fn<(event: Event) => void>();
    window.addEventListener(NAVIGATE_TO_REGION_EVENT, listener);
    render(<RegionsMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Pixel Plains' }));
    // Spec focus (39, 3) scaled by 90/42 and 90/34.
    expect(lastNavigation(listener)).toMatchObject({ x: 84, y: 8, zoom: 1.2 });
    window.removeEventListener(NAVIGATE_TO_REGION_EVENT, listener);
  });

  it('starts open from 768 px and collapsed below (read from the media query at mount)', () => {
    const at = (width: number) => ({
      innerWidth: width,
      matchMedia: (query: string) => ({ matches: query === '(min-width: 768px)' && width >= 768 }) as MediaQueryList,
    });
    expect(regionsMenuStartsOpen(at(1366))).toBe(true);
    expect(regionsMenuStartsOpen(at(768))).toBe(true);
    expect(regionsMenuStartsOpen(at(767))).toBe(false);
    expect(regionsMenuStartsOpen(at(390))).toBe(false);
    expect(regionsMenuStartsOpen({ innerWidth: 390 } as Window)).toBe(false);
    // Rendered outside a browser (no window): the desktop default.
    expect(regionsMenuStartsOpen(null)).toBe(true);
  });
});
