import { RESERVED_HOVER_TEXT, RESERVED_STRIPE, type ReservedFootprint } from '../engine/reserved-layer.ts';

const CARD_WIDTH = 240;

const HINT: Record<ReservedFootprint['reason'], string> = {
  held: 'Try again in a few minutes or choose another tile.',
  review: 'A plot here is waiting for review.',
};

/** Hovering reserved land: why it cannot be bought (touch devices get the same words as a toast on tap). */
export function ReservedHoverCard({ footprint, anchor }: { footprint: ReservedFootprint; anchor: { x: number; y: number } }) {
  const left = Math.max(8, Math.min(window.innerWidth - CARD_WIDTH - 8, anchor.x + 16));
  const top = Math.max(8, Math.min(window.innerHeight - 110, anchor.y + 16));
  return (
    <div
      role="tooltip"
      className="pointer-events-none fixed z-40 border-2 bg-panel p-3 text-ink shadow-pixel"
      style={{ left, top, width: CARD_WIDTH, borderColor: RESERVED_STRIPE[footprint.reason] }}
    >
      <p className="font-semibold">{RESERVED_HOVER_TEXT[footprint.reason]}</p>
      <p className="mt-1 text-xs text-ink-muted">{HINT[footprint.reason]}</p>
      <p className="mt-1 text-xs text-ink-muted">
        Position ({footprint.x}, {footprint.y}){footprint.size > 1 ? ` · ${footprint.size}x${footprint.size} area` : ''}
      </p>
    </div>
  );
}
