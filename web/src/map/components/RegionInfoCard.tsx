import type { Region } from '@pixel-atlas/contracts/regions';
import { useRef } from 'react';
import { useViewportClamp } from './viewport-clamp.ts';

export interface RegionInfoCardProps {
  region: Region;
  /** Client coordinates of the label's bottom centre: the card hangs below it. */
  anchor: { x: number; y: number };
  onClose: () => void;
}

const CARD_WIDTH = 288;
const EDGE_GAP = 8;
/** From the label's bottom to above its top (a label plate is at most 22 px high), with a gap. */
const ABOVE_LABEL = 32;

/** Hover (or tap) card for a region label: audience blurb, description and four notable locations. */
export function RegionInfoCard({ region, anchor, onClose }: RegionInfoCardProps) {
  const card = useRef<HTMLElement>(null);
  // Below the label when it fits, else above it; always whole on screen (scrolling inside on a very short one).
  const { left, top, maxHeight } = useViewportClamp(
    card,
    anchor,
    { alignX: -CARD_WIDTH / 2, offset: EDGE_GAP, above: ABOVE_LABEL, width: CARD_WIDTH },
    region.value,
  );
  const titleId = `region-card-${region.value}`;
  return (
    <section
      ref={card}
      aria-labelledby={titleId}
      className="pointer-events-auto fixed z-40 overflow-y-auto border-2 border-border bg-panel p-4 text-ink shadow-pixel"
      style={{ left, top, width: CARD_WIDTH, maxHeight }}
    >
      <div className="mb-2 flex items-start justify-between gap-2">
        <h3 id={titleId} className="text-[0.7rem] text-gold">
          {region.name}
        </h3>
        <button
          type="button"
          aria-label={`Close ${region.name} info`}
          onClick={onClose}
          className="-mt-2 -mr-2 grid size-11 shrink-0 place-items-center border-2 border-transparent text-lg hover:border-border"
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <p className="mb-2 text-sm text-ink">
        <span className="font-semibold text-sky">For: </span>
        {region.audience}
      </p>
      <p className="mb-3 text-sm text-ink-muted">{region.description}</p>
      <h4 className="mb-1 text-[0.6rem] text-ink">Notable locations</h4>
      <ul className="list-inside list-disc text-sm text-ink-muted">
        {region.notableLocations.map((location) => (
          <li key={location}>{location}</li>
        ))}
      </ul>
    </section>
  );
}
