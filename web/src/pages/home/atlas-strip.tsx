import { formatPrice } from '@pixel-atlas/contracts/tier-catalog';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { plotsQuery } from '../../api/queries.ts';
import { usePrices } from '../../features/claim/use-prices.tsx';
import { CLAIM_SECTION_ID } from '../../lib/tier-guidance.ts';
import { useMapLayout } from '../../map/use-map-layout.ts';
import { countTilesLeft, formatCount, lowestPrice, recentPlots, type StripPlot } from './atlas-stats.ts';

/** The home page's one-line promise: the page's h1. */
export const HOME_VALUE_LINE = 'Own a plot on the pixel map of the internet';
const TICKER_LENGTH = 3;

/**
 * The first screen's strip between the header and the map: the value in one line (h1), live counters and the
 * latest claims. It sits in the layout above the map rather than over it, so it hides none of the map. Prerendered
 * into index.html with placeholders as wide as the numbers that replace them, so filling them moves nothing.
 * Everything comes from the queries the map shares (plots, layout) and GET /api/prices; the live stream refetches
 * the plot list when someone claims, which is how a new claim reaches the ticker without a reload.
 */
export function AtlasStrip() {
  const plotList = useQuery(plotsQuery());
  const layoutQuery = useMapLayout();
  const prices = usePrices();
  const plots = plotList.data ?? null;
  const layout = layoutQuery.data;
  // 8,100 tiles: counted when the layout or the plots change, not on every render of the strip.
  const tilesLeft = useMemo(() => (plots && layout ? countTilesLeft(layout.tiles, plots) : null), [plots, layout]);
  const fromCents = lowestPrice(prices);

  return (
    <div data-testid="atlas-strip" className="shrink-0 border-b-2 border-border bg-panel px-3 py-1 md:py-1.5">
      <div className="mx-auto flex max-w-6xl flex-col md:flex-row md:items-baseline md:gap-5">
        {/* Sans on phones, where the pixel face would cut the line short; the pixel face where there is room. */}
        <h1 className="truncate font-sans text-sm leading-5 font-semibold text-gold md:font-pixel md:text-xs md:leading-6 md:font-normal">
          {HOME_VALUE_LINE}
        </h1>
        <p className="flex min-w-0 items-baseline gap-x-2 text-xs leading-5 whitespace-nowrap text-ink-muted">
          <Counter
            testId="strip-plots"
            value={plots ? formatCount(plots.length) : null}
            width="min-w-[3ch]"
            label={plots?.length === 1 ? 'plot' : 'plots'}
          />
          <span aria-hidden="true">·</span>
          <Counter
            testId="strip-tiles-left"
            value={tilesLeft === null ? null : formatCount(tilesLeft)}
            width="min-w-[5ch]"
            label={
              <>
                {/* 'left' alone on a phone, so the ticker keeps room; screen readers always hear 'tiles left'. */}
                <span className="sr-only sm:not-sr-only">tiles </span>left
              </>
            }
          />
          <span aria-hidden="true">·</span>
          <a href={`#${CLAIM_SECTION_ID}`} className="text-ink underline-offset-2 hover:underline">
            from{' '}
            <span data-testid="strip-price" className="inline-block min-w-[4ch] font-semibold text-gold tabular-nums">
              {fromCents === null ? <Placeholder /> : formatPrice(fromCents)}
            </span>
          </a>
          <span aria-hidden="true">·</span>
          <RecentClaims plots={plots} />
        </p>
      </div>
    </div>
  );
}

/** A number in a box as wide as the figures it usually shows, so the placeholder and the figure take one width. */
function Counter({ value, label, testId, width }: { value: string | null; label: ReactNode; testId: string; width: string }) {
  return (
    <span>
      <span data-testid={testId} className={`inline-block ${width} text-right font-semibold text-ink tabular-nums`}>
        {value ?? <Placeholder />}
      </span>{' '}
      {label}
    </span>
  );
}

function Placeholder() {
  return (
    <span
      aria-hidden="true"
      className="inline-block h-[0.9em] w-[3ch] animate-pulse bg-panel-raised align-middle motion-reduce:animate-none"
    />
  );
}

/**
 * The newest claims, newest first, each a link to its plot page. Nothing moves on a timer (no periodic motion to
 * pause); a claim arriving from the live stream slides in at the front unless the visitor asks for reduced motion.
 */
export function RecentClaims({ plots }: { plots: readonly StripPlot[] | null }) {
  const recent = plots ? recentPlots(plots, TICKER_LENGTH) : [];
  const newestId = recent[0]?.id;
  const listRef = useRef<HTMLSpanElement>(null);
  const firstSeenNewest = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (!newestId) return;
    if (firstSeenNewest.current === undefined) {
      firstSeenNewest.current = newestId;
      return;
    }
    if (newestId === firstSeenNewest.current) return;
    // A claim made while the page was open: draw the eye to it, gently.
    const first = listRef.current?.firstElementChild;
    if (first && typeof first.animate === 'function' && !prefersReducedMotion()) {
      first.animate(
        [
          { transform: 'translateY(-100%)', opacity: 0 },
          { transform: 'none', opacity: 1 },
        ],
        { duration: 450, easing: 'ease-out' },
      );
    }
  }, [newestId]);

  return (
    <span data-testid="strip-ticker" className="flex min-w-0 flex-1 items-baseline gap-1 overflow-hidden">
      <span className="shrink-0">
        <span className="sr-only sm:not-sr-only">Just claimed:</span>
        <span aria-hidden="true" className="sm:hidden">
          New:
        </span>
      </span>
      <span ref={listRef} className="min-w-0 truncate" aria-live="polite">
        {plots === null ? (
          <Placeholder />
        ) : recent.length === 0 ? (
          <span className="text-ink">be the first!</span>
        ) : (
          recent.map((plot, index) => (
            <span key={plot.id} className="inline-block">
              {index > 0 ? <span aria-hidden="true">,&nbsp;</span> : null}
              <Link to={`/plot/${encodeURIComponent(plot.id)}`} className="font-semibold text-ink underline-offset-2 hover:underline">
                {plot.display_name}
              </Link>
            </span>
          ))
        )}
      </span>
    </span>
  );
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
