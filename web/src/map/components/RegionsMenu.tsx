import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import type { Region } from '@pixel-atlas/contracts/regions';
import { useId, useState } from 'react';
import { regionPalette } from '../engine/terrain-palette.ts';
import { dispatchNavigateToRegion, fallbackRegionPoints } from './region-navigation.ts';

export interface RegionsMenuProps {
  /** Regions of the loaded layout (real label points); the spec's scaled points until then. */
  regions?: ReadonlyArray<Pick<Region, 'name' | 'value' | 'focus'>>;
}

/** Fixed left side menu 'ATLAS REGIONS': collapsible, starts open; choosing a region closes it and flies there. */
export function RegionsMenu({ regions }: RegionsMenuProps) {
  const [open, setOpen] = useState(true);
  const listId = useId();
  const entries = regions && regions.length > 0 ? regions : fallbackRegionPoints(GRID_SIZE);

  return (
    <nav
      aria-label="Atlas regions"
      className="pointer-events-auto absolute top-3 left-3 z-20 w-[min(16rem,calc(100vw-12.5rem))] md:w-64 border-2 border-border bg-panel/95 shadow-pixel"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className="flex min-h-11 w-full items-center justify-between gap-2 px-3 py-2 text-left text-[0.65rem] text-gold hover:bg-panel-raised"
      >
        <span>ATLAS REGIONS</span>
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
                    setOpen(false);
                    dispatchNavigateToRegion(region);
                  }}
                  className="flex min-h-11 w-full items-center gap-3 px-3 py-1 text-left font-sans text-sm text-ink hover:bg-panel-raised"
                >
                  <span aria-hidden="true" className="size-3 shrink-0 border border-black" style={{ backgroundColor: `rgb(${r} ${g} ${b})` }} />
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
