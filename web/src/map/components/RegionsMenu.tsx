import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import type { Region } from '@pixel-atlas/contracts/regions';
import { useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { regionPalette } from '@pixel-atlas/contracts/terrain-palette';
import { dispatchNavigateToRegion, fallbackRegionPoints } from './region-navigation.ts';

export interface RegionsMenuProps {
  /** Regions of the loaded layout (real label points); the spec's scaled points until then. */
  regions?: ReadonlyArray<Pick<Region, 'name' | 'value' | 'focus'>>;
}

/** The spec's mobile breakpoint (768 px): below it an open list would hide the map the buyer came to see. */
const WIDE_SCREEN_QUERY = '(min-width: 768px)';

/**
 * Whether the menu starts open: on a desktop (spec: 'starts open'), not under 768 px (ARCHITECTURE.md
 * section 7). Read once at mount, before the first paint, so the menu never opens and then snaps shut.
 */
export function regionsMenuStartsOpen(
  win: Pick<Window, 'innerWidth' | 'matchMedia'> | null = typeof window === 'undefined' ? null : window,
): boolean {
  if (!win) return true;
  if (typeof win.matchMedia === 'function') return win.matchMedia(WIDE_SCREEN_QUERY).matches;
  return win.innerWidth >= 768;
}

/** The map canvas beside this menu (the engine makes it focusable), if it is there. */
function mapCanvasOf(menuPart: Element | null): HTMLElement | null {
  return menuPart?.closest('nav')?.parentElement?.querySelector<HTMLElement>('canvas[aria-roledescription="map"]') ?? null;
}

/** Fixed left side menu 'ATLAS REGIONS': collapsible, open on desktops; choosing a region closes it and flies there. */
export function RegionsMenu({ regions }: RegionsMenuProps) {
  const [open, setOpen] = useState(() => regionsMenuStartsOpen());
  const listId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const entries = regions && regions.length > 0 ? regions : fallbackRegionPoints(GRID_SIZE);

  return (
    <nav
      aria-label="Atlas regions"
      data-map-occluder=""
      className={`pointer-events-auto absolute top-3 left-3 z-20 border-2 border-border bg-panel shadow-pixel ${
        open ? 'w-[min(16rem,calc(100vw-12.5rem))] md:w-64' : 'w-auto'
      }`}
    >
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className="flex min-h-11 w-full items-center justify-between gap-2 px-2.5 py-1 text-left text-[0.5rem] leading-3 text-gold hover:bg-panel-raised md:px-3 md:py-2 md:text-[0.65rem] md:leading-normal"
      >
        {/* Two short lines on a phone (8 px, the pixel font's own size): the collapsed title takes little of the map. */}
        <span className={open ? '' : 'max-w-[7.5ch] md:max-w-none'}>ATLAS REGIONS</span>
        <span aria-hidden="true" className="text-ink">
          {open ? '▾' : '▸'}
        </span>
        <span className="sr-only">{open ? 'Collapse region list' : 'Expand region list'}</span>
      </button>
      {open ? (
        <ul id={listId} className="max-h-[min(60dvh,32rem)] overflow-y-auto border-t-2 border-border py-1">
          {entries.map((region) => {
            const [r, g, b] = regionPalette(region.value).grass;
            return (
              <li key={region.name}>
                <button
                  type="button"
                  onClick={() => {
                    // Closed first, so the flight lands clear of the menu as it is now, not as it was.
                    flushSync(() => setOpen(false));
                    dispatchNavigateToRegion(region);
                    // The chosen button is gone with the list: focus goes to the map that now shows the region
                    // (its arrow keys explore it), not to <body>.
                    (mapCanvasOf(toggle.current) ?? toggle.current)?.focus({ preventScroll: true });
                  }}
                  className="flex min-h-11 w-full items-center gap-3 px-3 py-1 text-left font-sans text-sm text-ink hover:bg-panel-raised"
                >
                  <span
                    aria-hidden="true"
                    className="size-3 shrink-0 border border-black"
                    style={{ backgroundColor: `rgb(${r} ${g} ${b})` }}
                  />
                  {region.name}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </nav>
  );
}
