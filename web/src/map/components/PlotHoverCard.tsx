import { TIER_COLOR, normalizeTier, tierPlotLabel } from '@pixel-atlas/contracts/tier-catalog';
import { useRef, useState } from 'react';
import { plotInitials, plotSize } from '../engine/plot-index.ts';
import type { AtlasPlot } from './atlas-plot.ts';
import { useViewportClamp } from './viewport-clamp.ts';

export interface PlotHoverCardProps {
  plot: AtlasPlot;
  anchor: { x: number; y: number };
}

const CARD_WIDTH = 260;

/** Spec section 2: hovering a claimed plot shows avatar (or initials), name, message, tier badge, position and link. */
export function PlotHoverCard({ plot, anchor }: PlotHoverCardProps) {
  const [avatarFailed, setAvatarFailed] = useState(false);
  const tier = normalizeTier(plot.tier);
  const size = plotSize(plot);
  const card = useRef<HTMLDivElement>(null);
  // Beside the pointer, below it when it fits, else above: always whole on screen.
  const { left, top, maxHeight } = useViewportClamp(card, anchor, { alignX: 16, offset: 16, width: CARD_WIDTH }, plot.id);
  return (
    <div
      ref={card}
      role="tooltip"
      className="pointer-events-none fixed z-40 overflow-hidden border-2 bg-panel p-3 text-ink shadow-pixel"
      style={{ left, top, width: CARD_WIDTH, maxHeight, borderColor: TIER_COLOR[tier].hex }}
    >
      <div className="flex items-center gap-3">
        {plot.avatar_url && !avatarFailed ? (
          <img src={plot.avatar_url} alt="" className="size-12 border-2 border-black object-cover" onError={() => setAvatarFailed(true)} />
        ) : (
          <span
            aria-hidden="true"
            className="grid size-12 place-items-center border-2 border-black font-pixel text-xs text-white"
            style={{ backgroundColor: TIER_COLOR[tier].hex }}
          >
            {plotInitials(plot.display_name)}
          </span>
        )}
        <div className="min-w-0">
          <p className="truncate font-semibold">{plot.display_name}</p>
          <span
            className="inline-block border border-black px-1 text-[0.65rem] text-ink-dark"
            style={{ backgroundColor: TIER_COLOR[tier].hex }}
          >
            {tierPlotLabel(tier)}
          </span>
        </div>
      </div>
      {plot.message ? <p className="mt-2 line-clamp-3 text-sm text-ink-muted">{plot.message}</p> : null}
      <p className="mt-2 text-xs text-ink-muted">
        Position ({plot.x}, {plot.y}){size > 1 ? ` · ${size}x${size} area` : ''}
      </p>
      {plot.link ? <p className="mt-1 truncate text-xs text-sky">{plot.link}</p> : null}
    </div>
  );
}
