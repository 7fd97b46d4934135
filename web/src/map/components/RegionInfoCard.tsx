import type { Region } from '@pixel-atlas/contracts/regions';

export interface RegionInfoCardProps {
  region: Region;
  /** Client coordinates of the label's bottom centre: the card hangs below it. */
  anchor: { x: number; y: number };
  onClose: () => void;
}

const CARD_WIDTH = 288;
const EDGE_GAP = 8;

/** Hover (or tap) card for a region label: audience blurb, description and four notable locations. */
export function RegionInfoCard({ region, anchor, onClose }: RegionInfoCardProps) {
  const viewportWidth = typeof window === 'undefined' ? 1024 : window.innerWidth;
  const left = Math.max(EDGE_GAP, Math.min(viewportWidth - CARD_WIDTH - EDGE_GAP, anchor.x - CARD_WIDTH / 2));
  const titleId = `region-card-${region.value}`;
  return (
    <section
      aria-labelledby={titleId}
      className="pointer-events-auto fixed z-40 border-2 border-border bg-panel p-4 text-ink shadow-pixel"
      style={{ left, top: anchor.y + EDGE_GAP, width: CARD_WIDTH }}
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
