import * as Dialog from '@radix-ui/react-dialog';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { TIER_COLOR, TIER_SIZE, normalizeTier, tierLabel } from '@pixel-atlas/contracts/tier-catalog';
import { useQuery } from '@tanstack/react-query';
import { useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { inputClassName } from '../../components/form-field.tsx';
import { PixelDialogContent } from '../../components/pixel-dialog.tsx';
import { plotsQuery } from '../../api/queries.ts';

interface FindPlotsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A plot was chosen: move the map to it (the dialog closes itself). */
  onChoosePlot: (plot: Plot) => void;
}

/**
 * Spec section 2, 'Claimed Plots (count)': every visible plot as a real link to its page; a plain
 * click (or Enter) flies the map there instead, a modified click opens the page as links do.
 */
export function FindPlotsDialog({ open, onOpenChange, onChoosePlot }: FindPlotsDialogProps) {
  const plots = useQuery(plotsQuery());
  const list = plots.data ?? [];
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {open ? (
        <PixelDialogContent title={`Claimed Plots (${list.length})`} className="md:max-w-xl" aria-describedby={undefined}>
          <PlotList
            plots={list}
            loading={plots.isPending}
            failed={plots.isError}
            onChoose={(plot) => {
              onChoosePlot(plot);
              onOpenChange(false);
            }}
          />
          <p className="mt-4 border-t-2 border-border pt-3 text-center text-xs text-ink-muted">
            Click on any plot to navigate and view their profile
          </p>
        </PixelDialogContent>
      ) : null}
    </Dialog.Root>
  );
}

function PlotList({
  plots,
  loading,
  failed,
  onChoose,
}: {
  plots: Plot[];
  loading: boolean;
  failed: boolean;
  onChoose: (plot: Plot) => void;
}) {
  const [filter, setFilter] = useState('');
  if (loading) {
    return (
      <p role="status" className="py-6 text-center text-ink-muted">
        Loading plots…
      </p>
    );
  }
  if (failed) {
    return (
      <p role="alert" className="py-6 text-center text-ink-muted">
        The plot list could not be loaded. Please try again later.
      </p>
    );
  }
  if (plots.length === 0) {
    return (
      <div className="py-8 text-center">
        <p className="font-pixel text-xs text-ink">No plots claimed yet</p>
        <p className="mt-3 text-sm text-ink-muted">Be the first to claim your space!</p>
      </div>
    );
  }
  const needle = filter.trim().toLowerCase();
  const shown = needle ? plots.filter((plot) => `${plot.display_name} ${plot.message}`.toLowerCase().includes(needle)) : plots;

  return (
    <>
      <label className="mb-3 grid gap-1 text-sm text-ink-muted">
        Search by name or message
        {/*
          Focus starts in the search box (also when the list arrives after the dialog opened): Radix keeps focus
          that is already inside the dialog instead of moving it to the first control, the close button.
        */}
        <input type="search" autoFocus className={inputClassName} value={filter} onChange={(event) => setFilter(event.target.value)} />
      </label>
      {shown.length === 0 ? (
        <p className="py-4 text-center text-sm text-ink-muted">No plot matches “{filter.trim()}”.</p>
      ) : (
        <ul aria-label="Claimed plots" className="grid max-h-[50dvh] gap-2 overflow-y-auto pr-1">
          {shown.map((plot) => (
            <li key={plot.id}>
              <PlotEntry plot={plot} onChoose={onChoose} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function PlotEntry({ plot, onChoose }: { plot: Plot; onChoose: (plot: Plot) => void }) {
  const tier = normalizeTier(plot.tier);
  const size = TIER_SIZE[tier];
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // Let new-tab and new-window clicks be ordinary links.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onChoose(plot);
  };
  return (
    <Link
      to={`/plot/${encodeURIComponent(plot.id)}`}
      onClick={onClick}
      className="flex min-h-11 gap-3 border-2 border-border bg-night p-3 text-left hover:bg-panel-raised focus-visible:bg-panel-raised"
    >
      <span
        aria-hidden="true"
        className="mt-1.5 block size-3 shrink-0 rounded-full border border-black"
        style={{ backgroundColor: TIER_COLOR[tier].hex }}
      />
      <span className="grid min-w-0 gap-0.5">
        <span className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-semibold text-ink">{plot.display_name}</span>
          <span className="text-xs text-ink-muted">{tierLabel(tier)}</span>
        </span>
        {plot.message ? <span className="line-clamp-2 text-sm break-words text-ink-muted">{plot.message}</span> : null}
        <span className="text-xs text-ink-muted">
          ({plot.x}, {plot.y}){size > 1 ? ` to (${plot.x + size - 1}, ${plot.y + size - 1}) · ${size}x${size} area` : null}
        </span>
      </span>
    </Link>
  );
}
